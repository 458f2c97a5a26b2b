import { fixtures } from '@fulfil/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseKinds, type TestDatabase } from '../databases/open.js';

/** Routing treats safety stock as not there (docs/behaviour.md, Stock); partners still ship it. */

for (const kind of databaseKinds()) {
  describe(`safety stock in routing on ${kind.name}`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    it('an order whose only stock is within the safety stock is not routed there; an override beats the default', async () => {
      database = await kind.open();
      const { engine, repository } = database;
      await engine.loadSeed({
        stores: [
          {
            code: 'default',
            warehouses: [
              { code: 'WH-A', name: 'A', priority: 30, safety_stock: 4 },
              { code: 'WH-B', name: 'B', priority: 20 },
              { code: 'WH-C', name: 'C', priority: 10 },
            ],
            stock: [
              { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 5 },
              { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 2 },
              { warehouse_code: 'WH-C', sku: 'SKU-1', qty: 10 },
            ],
          },
        ],
      });
      const store = await repository.transaction((tx) => tx.findStore('default'));
      const storeId = store?.id as number;
      await repository.transaction((tx) =>
        tx.setSafetyStock(storeId, [{ warehouse_code: 'WH-C', sku: 'SKU-1', safety_stock: 9 }]),
      );

      // WH-A has 5 on hand but 4 kept back: only WH-B can promise 2.
      const [first] = await engine.intake(
        'default',
        fixtures.salesOrder('700', [{ sku: 'SKU-1', qty: 2 }]),
      );
      expect(first?.warehouse_code).toBe('WH-B');

      // Rejected at WH-B, the line finds no warehouse beyond its safety stock: it stays rejected.
      const rejected = await engine.reject(engine.operator('default'), {
        order: {
          order_id: first?.fulfillment_order_number as string,
          items: [{ item_id: first?.items[0]?.id as number }],
        },
      });
      expect(rejected.status).toBe('rejected');
      const stock = await engine.listStock('default');
      expect(stock.map(({ warehouse_code, reserved }) => [warehouse_code, reserved])).toEqual([
        ['WH-A', 0],
        ['WH-B', 0],
        ['WH-C', 0],
      ]);

      // The sku's own safety stock of 0 at WH-A overrides the warehouse's 4.
      await repository.transaction((tx) =>
        tx.setSafetyStock(storeId, [{ warehouse_code: 'WH-A', sku: 'SKU-1', safety_stock: 0 }]),
      );
      const [second] = await engine.intake(
        'default',
        fixtures.salesOrder('701', [{ sku: 'SKU-1', qty: 2 }]),
      );
      expect(second?.warehouse_code).toBe('WH-A');
    });
  });
}
