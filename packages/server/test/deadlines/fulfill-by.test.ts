import { fixtures } from '@fulfil/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseKinds, type TestDatabase } from '../databases/open.js';

/**
 * Every fulfillment order gets its `fulfill_by` when it is opened (docs/deadlines.md): the sales
 * order's, else its warehouse's calendar over the store's; an order rerouted keeps it.
 * The engine's clock stands at Friday 2026-05-01 10:00 UTC, 12:00 in Berlin.
 */

for (const kind of databaseKinds()) {
  describe(`fulfill_by at intake and reroute on ${kind.name}`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    it('derives, takes the one asked for, keeps it on reroute, and stores the calendar', async () => {
      database = await kind.open();
      const { engine, repository } = database;
      const fulfillBy = (number: string) =>
        repository.transaction(async (tx) => {
          const store = await tx.findStore('default');
          const order = await tx.findOrder(store?.id as number, number);
          return [order?.warehouse_code, order?.fulfill_by];
        });
      await engine.loadSeed({
        stores: [
          {
            code: 'default',
            settings: { calendar: { timezone: 'Europe/Berlin', cutoff: '14:00' } },
            warehouses: [
              // Its own cutoff and holiday, the store's time zone.
              { code: 'WH-A', name: 'A', priority: 30, cutoff: '09:00', holidays: ['2026-05-04'] },
              // No calendar of its own: the store's.
              { code: 'WH-B', name: 'B', priority: 20 },
            ],
            stock: [
              { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 5 },
              { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 5 },
            ],
          },
        ],
      });
      const shown = await database.repository.transaction(async (tx) => {
        const store = await tx.findStore('default');
        return { warehouses: await tx.listWarehouses(store?.id as number) };
      });
      expect(shown.warehouses.find((warehouse) => warehouse.code === 'WH-A')).toMatchObject({
        processing_days: null,
        working_days: null,
        holidays: ['2026-05-04'],
        cutoff: '09:00',
        timezone: null,
      });

      // WH-A: past its 09:00 cutoff on Friday; Monday a holiday: Tuesday 09:00 CEST.
      const [derived] = await engine.intake(
        'default',
        fixtures.salesOrder('800', [{ sku: 'SKU-1', qty: 1 }]),
      );
      expect(await fulfillBy(derived?.fulfillment_order_number as string)).toEqual([
        'WH-A',
        '2026-05-05 07:00:00',
      ]);

      // WH-B with the store's calendar: before 14:00 in Berlin, the same day.
      const [pinned] = await engine.intake(
        'default',
        fixtures.salesOrder('801', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-B' }),
      );
      expect(await fulfillBy(pinned?.fulfillment_order_number as string)).toEqual([
        'WH-B',
        '2026-05-01 12:00:00',
      ]);

      // The sales order's own, with its offset, read in UTC.
      const [asked] = await engine.intake(
        'default',
        fixtures.salesOrder('802', [{ sku: 'SKU-1', qty: 1 }], {
          fulfill_by: '2026-05-01T18:00:00+02:00',
        }),
      );
      expect((await fulfillBy(asked?.fulfillment_order_number as string))[1]).toBe(
        '2026-05-01 16:00:00',
      );

      // Rejected at WH-A, rerouted to WH-B: the new order keeps the sales order's deadline.
      await engine.reject(engine.operator('default'), {
        order: {
          order_id: derived?.fulfillment_order_number as string,
          items: [{ item_id: derived?.items[0]?.id as number }],
        },
      });
      expect(await fulfillBy('800-2')).toEqual(['WH-B', '2026-05-05 07:00:00']);
      expect(await fulfillBy('800-1')).toEqual(['WH-A', '2026-05-05 07:00:00']);
    });
  });
}
