import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';
import { oneWarehouseStore, servedPerDescribe } from './support.js';

/**
 * One bad entry of a sales order batch holds back no other (docs/api.md), whatever is wrong with
 * it: a lone surrogate is refused in its entry, named under it, like any other bad value.
 */

for (const kind of databaseKinds()) {
  describe(`a batch entry with a lone surrogate on ${kind.name}`, () => {
    const served = servedPerDescribe(kind, oneWarehouseStore({ 'SKU-1': 50 }));

    it('is refused alone; the others are taken in', async () => {
      const bad = fixtures.salesOrder('5002', [{ sku: 'SKU-1', qty: 1 }], {
        customer_firstname: 'A\ud800da',
      });
      const badName = { ...fixtures.salesOrder('5003'), ['x\udc00']: 1 };
      const reply = await served.post('/V1/salesOrders/batch', {
        sales_orders: [fixtures.salesOrder('5001'), bad, badName, fixtures.salesOrder('5004')],
      });
      expect(reply.status).toBe(200);
      expect(reply.body.map((entry: { status: number }) => entry.status)).toEqual([
        201, 400, 400, 201,
      ]);
      expect(reply.body[1].error.parameters[0].fieldName).toBe(
        'sales_orders[1].customer_firstname',
      );
      expect(reply.body[2].error.parameters[0].fieldName).toBe('sales_orders[2].x\\uDC00');
      expect(reply.body[1].sales_order_number).toBe('5002');
    });

    it('in the envelope, beside the entries, still refuses the batch', async () => {
      const reply = await served.post('/V1/salesOrders/batch', {
        sales_orders: [fixtures.salesOrder('5101')],
        ['note\ud800']: 'x',
      });
      expect(reply.status).toBe(400);
    });
  });
}
