import type { SeedInput } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseKinds, type TestDatabase } from '../databases/open.js';
import { adminCall, adminServerPerTest } from './support.js';

/**
 * `POST /admin/api/stores/{store}/routing/preview` (docs/routing.md, Preview): what intake would
 * do with a sales order now, every line explained, writing nothing.
 */

const OPERATOR = { name: 'ops', role: 'viewer', store_code: null, request_id: null } as const;

const seed: SeedInput = {
  stores: [
    {
      code: 'default',
      settings: {
        routing: [
          'active',
          'pinned',
          'market',
          'capacity',
          'stock',
          'fewest_shipments',
          'priority',
        ],
      },
      warehouses: [
        { code: 'WH-A', name: 'A', priority: 30, daily_capacity: 1 },
        { code: 'WH-B', name: 'B', priority: 20, safety_stock: 2 },
        { code: 'WH-C', name: 'C', priority: 10, countries: ['FR'] },
      ],
      stock: [
        { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 5 },
        { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 5 },
        { warehouse_code: 'WH-B', sku: 'SKU-2', qty: 3 },
        { warehouse_code: 'WH-C', sku: 'SKU-2', qty: 9 },
      ],
    },
  ],
};

for (const kind of databaseKinds()) {
  describe(`routing preview on ${kind.name}`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    it('answers what intake then does, writes nothing, and follows the counts intake leaves', async () => {
      database = await kind.open();
      const { engine } = database;
      await engine.loadSeed(seed);
      const order = (number: string) =>
        fixtures.salesOrder(number, [
          { sku: 'SKU-1', qty: 1 },
          { sku: 'SKU-2', qty: 1 },
        ]);

      const before = await database.snapshot();
      const preview = await engine.admin.previewRouting(OPERATOR, 'default', order('900'));
      expect(await database.snapshot()).toEqual(before);
      // WH-B holds both, WH-A only SKU-1: one shipment from WH-B beats two.
      expect(preview).toMatchObject({
        by: 'rules',
        taken_in: true,
        refusal: null,
        fulfillment_orders: [
          {
            warehouse_code: 'WH-B',
            items: [
              { line: 0, sku: 'SKU-1', qty: 1 },
              { line: 1, sku: 'SKU-2', qty: 1 },
            ],
          },
        ],
      });
      expect(preview.decision?.lines[1]?.excluded).toEqual([
        { warehouse_code: 'WH-A', reason: 'no_stock', available: 0 },
        { warehouse_code: 'WH-C', reason: 'not_in_market', available: 9 },
      ]);
      expect(preview.words[0]).toBe(
        'Routed to WH-B: fewest shipments (1); WH-C excluded: does not ship to IT',
      );

      const created = await engine.intake('default', order('900'));
      expect(
        created.map((fulfillment) => ({
          warehouse_code: fulfillment.warehouse_code,
          items: fulfillment.items.map(({ sku, qty }) => ({ sku, qty })),
        })),
      ).toEqual(
        preview.fulfillment_orders.map(({ warehouse_code, items }) => ({
          warehouse_code,
          items: items.map(({ sku, qty }) => ({ sku, qty })),
        })),
      );

      // A line only WH-A could take, pinned away from it: intake would refuse; the preview says why.
      const refused = await engine.admin.previewRouting(OPERATOR, 'default', {
        ...fixtures.salesOrder('901', [{ sku: 'SKU-3', qty: 1 }]),
        shipping_address: fixtures.address({ country_id: 'DE' }),
        warehouse_code: 'WH-C',
      });
      expect(refused).toMatchObject({ taken_in: false, fulfillment_orders: [] });
      expect(refused.refusal).toContain('WH-C excluded: does not ship to DE');
    });
  });
}

describe('POST /admin/api/stores/{store}/routing/preview', () => {
  const serve = adminServerPerTest();

  it('is open to viewers, validates the sales order as intake does, and 404s an unknown store', async () => {
    // The admin server's operators include one of store `other`.
    const server = await serve({
      seed: {
        stores: [...seed.stores, { code: 'other', warehouses: [{ code: 'WH-O', name: 'O' }] }],
      },
    });
    const secret = server.secrets.viewer;
    const path = '/stores/default/routing/preview';
    const ok = await adminCall(server, 'POST', path, {
      secret,
      json: fixtures.salesOrder('950', [{ sku: 'SKU-1', qty: 1 }]),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.fulfillment_orders).toEqual([
      { warehouse_code: 'WH-A', items: [{ line: 0, sku: 'SKU-1', qty: 1 }] },
    ]);
    expect(ok.body.words).toEqual([expect.stringMatching(/^Routed to WH-A: /)]);

    const bad = await adminCall(server, 'POST', path, {
      secret,
      json: {
        ...fixtures.salesOrder('951', [{ sku: 'SKU-1', qty: 0 }]),
        shipping_address: { ...fixtures.address(), latitude: 100, longitude: 0 },
      },
    });
    expect(bad.status).toBe(400);
    const fields = (bad.body.errors as { parameters: { fieldName: string }[] }[]).flatMap((error) =>
      error.parameters.map((parameter) => parameter.fieldName),
    );
    expect(fields).toEqual(expect.arrayContaining(['items[0].qty', 'shipping_address.latitude']));

    const unknown = await adminCall(server, 'POST', '/stores/nope/routing/preview', {
      secret: server.secrets.admin,
      json: fixtures.salesOrder('952'),
    });
    expect(unknown.status).toBe(404);
  });
});
