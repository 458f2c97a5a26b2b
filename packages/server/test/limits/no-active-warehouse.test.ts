import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';
import { oneWarehouseStore, servedPerDescribe } from './support.js';

/** A store with no active warehouse refuses a sales order with 400 naming the field that routes it. */

for (const kind of databaseKinds()) {
  describe(`intake with no active warehouse on ${kind.name}`, () => {
    const served = servedPerDescribe(kind, oneWarehouseStore({}, false));

    it('is 400 naming warehouse_code, alone in a batch; nothing is written', async () => {
      const before = await served.database.snapshot();
      const reply = await served.post('/V1/salesOrders', {
        sales_order: fixtures.salesOrder('4001'),
      });
      expect(reply.status).toBe(400);
      expect(reply.body.parameters).toEqual([{ fieldName: 'sales_order.warehouse_code' }]);
      expect(reply.body.detail).toContain('no active warehouse');
      const batch = await served.post('/V1/salesOrders/batch', {
        sales_orders: [fixtures.salesOrder('4002')],
      });
      expect(batch.body[0].error.parameters).toEqual([
        { fieldName: 'sales_orders[0].warehouse_code' },
      ]);
      expect(await served.database.snapshot()).toEqual(before);
    });
  });
}
