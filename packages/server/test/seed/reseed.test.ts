import { createEngine, type Engine, INTAKE_BATCH_SIZE, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseKinds, type TestDatabase } from '../databases/open.js';

/**
 * Re-seeding an existing database (docs/behaviour.md) adds what is missing and changes nothing that
 * exists: stock a partner acknowledged, settings and warehouses an operator changed, orders in
 * flight. Only `resetStock` (the CLI's `seed --reset-stock`) sets the seed's quantities again.
 */

const ERP = 'reseed-erp-secret-0123456789abcdefghij';
const PARTNER = 'reseed-partner-secret-0123456789abcdef';
const START = '2026-05-01T10:00:00Z';

function seedFile() {
  return {
    stores: [
      {
        code: 'default',
        settings: { partial_items: false, reroute: true },
        warehouses: [
          { code: 'WH-A', name: 'Partner A', priority: 10 },
          { code: 'WH-B', name: 'Partner B', priority: 5 },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
          { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 4 },
        ],
        tokens: [
          { name: 'partner-a', token: PARTNER, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'erp', token: ERP, acl: 'erp' },
        ],
        orders: [
          fixtures.salesOrder('5001', [{ sku: 'SKU-1', qty: 2 }], { warehouse_code: 'WH-A' }),
        ],
      },
    ],
  };
}

for (const kind of databaseKinds()) {
  describe(`re-seeding on ${kind.name}`, () => {
    let database: TestDatabase;
    let engine: Engine;

    beforeEach(async () => {
      database = await kind.open();
      engine = database.engine;
    });
    afterEach(() => database.drop());

    /** Life after the first seed: a stock sync, settings and a warehouse edited, an order shipped. */
    async function liveDatabase() {
      await engine.loadSeed(seedFile());
      const partner = await engine.authenticate('default', PARTNER);
      const erp = await engine.authenticate('default', ERP);
      await engine.syncStock(partner, {
        stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 7 }],
      });
      await engine.upsertStore('default', { reroute: false, partial_items: true });
      await engine.upsertWarehouse('default', {
        code: 'WH-B',
        name: 'Partner B (closed)',
        active: false,
        priority: 1,
      });
      const [order] = await engine.poll(partner, 'pending_accept');
      const items = (order?.items ?? []).map((item) => ({ item_id: item.id, qty: item.qty }));
      const order_id = order?.fulfillment_order_number as string;
      await engine.accept(partner, { order: { order_id, items } });
      await engine.allocate(erp, { allocation: { order_id, items } });
      await engine.ship(partner, { shipment: { order_id, items } });
      return { partner, erp };
    }

    it('the same seed file again changes nothing that exists', async () => {
      await liveDatabase();
      // 7 acknowledged, 2 shipped since.
      expect(await engine.listStock('default', { sku: 'SKU-1' })).toMatchObject([
        { warehouse_code: 'WH-A', on_hand: 5, reserved: 0 },
        { warehouse_code: 'WH-B', on_hand: 4, reserved: 0 },
      ]);
      const before = await database.snapshot();
      const report = await engine.loadSeed(seedFile());
      expect(await database.snapshot()).toEqual(before);
      expect(report).toMatchObject({
        stores: { created: [], kept: ['default'] },
        warehouses: { created: [], kept: ['WH-A', 'WH-B'] },
        stock: { created: 0, kept: 2 },
        tokens: { created: [], kept: ['partner-a', 'erp'] },
        orders: { created: [], kept: ['5001'] },
      });
    });

    it('a seed file with more in it adds only what is missing', async () => {
      await liveDatabase();
      const more = seedFile();
      const store = more.stores[0] as ReturnType<typeof seedFile>['stores'][0];
      store.settings = { partial_items: false, reroute: true };
      store.warehouses.push({ code: 'WH-C', name: 'Partner C', priority: 3 });
      store.stock.push(
        { warehouse_code: 'WH-C', sku: 'SKU-1', qty: 9 },
        { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 6 },
      );
      store.tokens.push({
        name: 'partner-c',
        token: `${PARTNER}-c`,
        acl: 'partner',
        warehouses: ['WH-C'],
      });
      store.orders.push(
        fixtures.salesOrder('5002', [{ sku: 'SKU-2', qty: 1 }], { warehouse_code: 'WH-A' }),
      );
      more.stores.push({ ...seedFile().stores[0], code: 'second', tokens: [] } as typeof store);
      const report = await engine.loadSeed(more);
      expect(report).toMatchObject({
        stores: { created: ['second'], kept: ['default'] },
        warehouses: { created: ['WH-C', 'WH-A', 'WH-B'], kept: ['WH-A', 'WH-B'] },
        stock: { created: 4, kept: 2 },
        tokens: { created: ['partner-c'], kept: ['partner-a', 'erp'] },
        orders: { created: ['5002-1', '5001-1'], kept: ['5001'] },
      });
      expect((await engine.getStore('default')).settings).toMatchObject({
        reroute: false,
        partial_items: true,
      });
      const warehouses = await engine.listWarehouses(engine.operator('default'));
      expect(warehouses).toContainEqual({
        code: 'WH-B',
        name: 'Partner B (closed)',
        active: false,
      });
      expect(warehouses).toContainEqual({ code: 'WH-C', name: 'Partner C', active: true });
      const stock = await engine.listStock('default');
      expect(stock).toContainEqual(
        expect.objectContaining({ warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 5 }),
      );
      expect(stock).toContainEqual(
        expect.objectContaining({ warehouse_code: 'WH-C', sku: 'SKU-1', on_hand: 9 }),
      );
      expect(stock).toContainEqual(
        expect.objectContaining({ warehouse_code: 'WH-A', sku: 'SKU-2', on_hand: 6 }),
      );
      expect(await engine.getOrder('default', '5002-1')).toMatchObject({
        status: 'pending_accept',
      });
    });

    it('resetStock sets the seed quantities again, on hand only, and nothing else', async () => {
      await liveDatabase();
      const partner = await engine.authenticate('default', PARTNER);
      const [order] = await engine.intake(
        'default',
        fixtures.salesOrder('5003', [{ sku: 'SKU-1', qty: 3 }], { warehouse_code: 'WH-A' }),
      );
      await engine.accept(partner, {
        order: {
          order_id: order?.fulfillment_order_number as string,
          items: [{ item_id: order?.items[0]?.id as number, qty: 3 }],
        },
      });
      const report = await engine.loadSeed(seedFile(), { resetStock: true });
      expect(report.stock).toEqual({ created: 0, kept: 0, reset: 2 });
      expect(await engine.listStock('default', { sku: 'SKU-1' })).toMatchObject([
        { warehouse_code: 'WH-A', on_hand: 10, reserved: 3 },
        { warehouse_code: 'WH-B', on_hand: 4, reserved: 0 },
      ]);
      expect((await engine.getStore('default')).settings.reroute).toBe(false);
    });

    it('takes in the orders of a seed file by batches, as orders import does', async () => {
      let transactions = 0;
      const repository = database.repository;
      const counted = Object.create(repository, {
        transaction: {
          value: (...args: Parameters<typeof repository.transaction>) => {
            transactions++;
            return repository.transaction(...args);
          },
        },
      });
      const counting = createEngine({ repository: counted, clock: new ManualClock(START) });
      const file = seedFile();
      const store = file.stores[0] as (typeof file.stores)[0];
      store.orders = Array.from({ length: 2 * INTAKE_BATCH_SIZE + 1 }, (_, i) =>
        fixtures.salesOrder(String(600_000 + i), [{ sku: 'SKU-1', qty: 1 }], {
          warehouse_code: 'WH-A',
        }),
      );
      const first = await counting.loadSeed(file);
      // The stores, warehouses, stock and tokens in one transaction, then three batches.
      expect(transactions).toBe(4);
      expect(first.orders.created).toHaveLength(2 * INTAKE_BATCH_SIZE + 1);
      expect(first.orders.created.at(-1)).toBe(`${600_000 + 2 * INTAKE_BATCH_SIZE}-1`);
      transactions = 0;
      const again = await counting.loadSeed(file);
      expect(transactions).toBe(4);
      expect(again.orders).toEqual({
        created: [],
        kept: store.orders.map((order) => order.sales_order_number),
      });
      expect(await engine.getOrder('default', '600000-1')).toMatchObject({
        status: 'pending_accept',
      });
    });
  });
}
