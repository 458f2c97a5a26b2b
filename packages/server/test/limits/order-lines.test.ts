import { MAX_ORDER_LINES } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';
import { manySkus, oneWarehouseStore, servedPerDescribe } from './support.js';

/** Lines per sales order (docs/limits.md): at most `MAX_ORDER_LINES`, refused per entry past it. */

function order(number: string, lines: number) {
  return fixtures.salesOrder(
    number,
    Array.from({ length: lines }, (_, index) => ({ sku: `L-${index % 50}`, qty: 1 })),
    { warehouse_code: 'WH-A' },
  );
}

for (const kind of databaseKinds()) {
  describe(`lines per sales order on ${kind.name}`, () => {
    const served = servedPerDescribe(kind, oneWarehouseStore(manySkus(50, 1_000)));

    it(`${MAX_ORDER_LINES} lines are taken in; one more is refused naming the items, alone in a batch`, async () => {
      const before = await served.database.snapshot();
      const over = await served.post('/V1/salesOrders', {
        sales_order: order('6001', MAX_ORDER_LINES + 1),
      });
      expect(over.status).toBe(400);
      expect(over.body.parameters[0].fieldName).toBe('sales_order.items');
      expect(over.body.detail).toContain(`at most ${MAX_ORDER_LINES} items`);
      expect(await served.database.snapshot()).toEqual(before);

      const batch = await served.post('/V1/salesOrders/batch', {
        sales_orders: [order('6002', 2), order('6003', MAX_ORDER_LINES + 1)],
      });
      expect(batch.status).toBe(200);
      expect(batch.body.map((entry: { status: number }) => entry.status)).toEqual([201, 400]);
      expect(batch.body[1].error.parameters[0].fieldName).toBe('sales_orders[1].items');

      const most = await served.post('/V1/salesOrders', {
        sales_order: order('6004', MAX_ORDER_LINES),
      });
      expect(most.status).toBe(201);
      expect(most.body.fulfillment_orders[0].items).toHaveLength(MAX_ORDER_LINES);
    }, 60_000);
  });
}
