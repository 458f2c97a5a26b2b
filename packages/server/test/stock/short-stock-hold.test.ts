import type { SeedInput } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseKinds, type TestDatabase } from '../databases/open.js';

/**
 * The store setting `when_short: "hold"` (docs/routing.md, Short lines): an order with a line no
 * warehouse has the stock for is taken in on hold `short-stock` (reason
 * `inventory_out_of_stock`), in no queue; the stock write that makes every line routable
 * releases it in its own transaction and routes the lines again, moving those the rules now send
 * elsewhere.
 */

const OPERATOR = { name: 'ops', role: 'admin', store_code: null, request_id: null } as const;

const seed: SeedInput = {
  stores: [
    {
      code: 'default',
      settings: { when_short: 'hold' },
      warehouses: [
        { code: 'WH-A', name: 'A', priority: 20 },
        { code: 'WH-B', name: 'B', priority: 10 },
      ],
      stock: [
        { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1 },
        { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 5 },
      ],
    },
  ],
};

for (const kind of databaseKinds()) {
  describe(`when_short: hold on ${kind.name}`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    it('holds a short order at intake, and a stock sync that makes it routable releases and reroutes it', async () => {
      database = await kind.open();
      const { engine } = database;
      await engine.loadSeed(seed);
      const operator = engine.operator('default');

      const [short] = await engine.intake(
        'default',
        fixtures.salesOrder('600', [{ sku: 'SKU-1', qty: 2 }]),
      );
      const [enough] = await engine.intake(
        'default',
        fixtures.salesOrder('601', [{ sku: 'SKU-2', qty: 1 }]),
      );
      const held = await engine.admin.order(OPERATOR, 'default', '600-1');
      expect(short?.warehouse_code).toBe('WH-A');
      expect(held.holds).toMatchObject([
        { handle: 'short-stock', reason: 'inventory_out_of_stock', released_at: null },
      ]);
      expect(held.routing?.lines[0]).toMatchObject({ short: true });
      expect((await engine.admin.order(OPERATOR, 'default', '601-1')).holds).toEqual([]);
      const pending = async () =>
        (await engine.poll(operator, 'pending_accept')).map(
          (order) => order.fulfillment_order_number,
        );
      expect(await pending()).toEqual([enough?.fulfillment_order_number]);

      // A sync that still leaves it short changes nothing of it.
      await engine.syncStock(operator, {
        stock_items: [{ warehouse_code: 'WH-B', sku: 'SKU-1', qty: 1 }],
      });
      expect((await engine.admin.order(OPERATOR, 'default', '600-1')).holds[0]?.released_at).toBe(
        null,
      );

      // WH-B now has the 2: released, and the line moves there (WH-A still has only 1).
      await engine.syncStock(operator, {
        stock_items: [{ warehouse_code: 'WH-B', sku: 'SKU-1', qty: 3 }],
      });
      const released = await engine.admin.order(OPERATOR, 'default', '600-1');
      expect(released.holds[0]).toMatchObject({ handle: 'short-stock', released_by: 'system' });
      expect(released.order.items.map((item) => item.status)).toEqual(['rejected']);
      const release = released.timeline.find((entry) => entry.action === 'release');
      expect(release?.details).toMatchObject({
        handle: 'short-stock',
        why: 'stock',
        rerouted_to: ['600-2'],
      });
      const moved = await engine.admin.order(OPERATOR, 'default', '600-2');
      expect(moved.order.warehouse_code).toBe('WH-B');
      expect(moved.routing?.lines[0]).toMatchObject({
        short: false,
        parts: [{ warehouse_code: 'WH-B', qty: 2 }],
      });
      expect(await pending()).toEqual([enough?.fulfillment_order_number, '600-2']);
      // The reservation moved with the line: nothing left at WH-A, the 2 at WH-B.
      const stock = await engine.listStock('default', { sku: 'SKU-1' });
      expect(stock.map((row) => [row.warehouse_code, row.reserved])).toEqual([
        ['WH-A', 0],
        ['WH-B', 2],
      ]);
      expect((await engine.admin.checkReservations(OPERATOR, 'default')).mismatches).toEqual([]);
    });

    it('counts its own reservation back in: a sync that brings its warehouse to the qty releases it there', async () => {
      database = await kind.open();
      const { engine } = database;
      await engine.loadSeed(seed);
      const operator = engine.operator('default');
      // Routed short to WH-A (1 on hand), where it reserves its 2 while held.
      await engine.intake('default', fixtures.salesOrder('630', [{ sku: 'SKU-1', qty: 2 }]));
      const atA = async () =>
        (await engine.listStock('default', { sku: 'SKU-1' })).find(
          (row) => row.warehouse_code === 'WH-A',
        );
      const before = await atA();
      expect(before).toMatchObject({ on_hand: 1, reserved: 2 });
      // 2 on hand: 2 available to it, though 0 to any other order.
      await engine.syncStock(operator, {
        stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 2 }],
      });
      const released = await engine.admin.order(OPERATOR, 'default', '630-1');
      expect(released.holds[0]?.released_at).not.toBe(null);
      expect(released.order).toMatchObject({ warehouse_code: 'WH-A', status: 'pending_accept' });
      expect(await atA()).toMatchObject({ on_hand: 2, reserved: 2 });
    });

    it('an adjustment that makes it routable where it is releases it there', async () => {
      database = await kind.open();
      const { engine } = database;
      await engine.loadSeed(seed);
      const operator = engine.operator('default');
      await engine.intake('default', fixtures.salesOrder('610', [{ sku: 'SKU-1', qty: 2 }]));
      await engine.adjustStock(operator, {
        adjustment: {
          adjustment_number: 'ADJ-1',
          items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', delta: 4, reason: 'received' }],
        },
      });
      const released = await engine.admin.order(OPERATOR, 'default', '610-1');
      expect(released.holds[0]?.released_at).not.toBe(null);
      expect(released.order).toMatchObject({ warehouse_code: 'WH-A', status: 'pending_accept' });
      expect(
        (await engine.poll(operator, 'pending_accept')).map(
          (order) => order.fulfillment_order_number,
        ),
      ).toEqual(['610-1']);
    });

    it('is a store setting: shown, changed, and refused when unknown, naming the field', async () => {
      database = await kind.open();
      const { engine } = database;
      await engine.loadSeed(seed);
      expect((await engine.admin.getStore(OPERATOR, 'default')).settings.when_short).toBe('hold');
      await engine.admin.putStore(OPERATOR, 'default', {
        settings: { when_short: 'route_anyway' },
      });
      expect((await engine.admin.getStore(OPERATOR, 'default')).settings.when_short).toBe(
        'route_anyway',
      );
      const refusal = await engine.admin
        .putStore(OPERATOR, 'default', { settings: { when_short: 'wait' } })
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(JSON.stringify(refusal)).toContain('settings.when_short');
      // Routed anyway: a short order is taken in without a hold.
      await engine.intake('default', fixtures.salesOrder('620', [{ sku: 'SKU-1', qty: 9 }]));
      expect((await engine.admin.order(OPERATOR, 'default', '620-1')).holds).toEqual([]);
    });
  });
}
