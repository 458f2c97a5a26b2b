import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';
import { oneWarehouseStore, servedPerDescribe, shipWhole } from './support.js';

/**
 * A repeat of a return (same `rma_number`, same body) is answered 200 (docs/channel-guide.md),
 * however many are sent at once: the first to commit opens it, every other one is its repeat,
 * never "already returned" against itself.
 */

const AT_ONCE = 40;

for (const kind of databaseKinds()) {
  describe(`simultaneous repeats of one return on ${kind.name}`, () => {
    const served = servedPerDescribe(kind, oneWarehouseStore({ 'SKU-1': 50 }));

    it(`${AT_ONCE} at once: one 201, the rest 200, one return`, async () => {
      const taken = await served.post('/V1/salesOrders', {
        sales_order: fixtures.salesOrder('2001', [{ sku: 'SKU-1', qty: 2 }]),
      });
      expect(taken.status).toBe(201);
      const [line] = await shipWhole(served, '2001-1');
      const body = {
        return: {
          rma_number: 'RMA-2001',
          sales_order_number: '2001',
          items: [
            {
              fulfillment_order_number: '2001-1',
              item_id: line?.item_id,
              qty: 2,
              reason: 'damaged',
            },
          ],
        },
      };
      const replies = await Promise.all(
        Array.from({ length: AT_ONCE }, () => served.post('/V1/returns', body)),
      );
      const statuses = replies.map((reply) => reply.status).sort();
      expect(statuses).toEqual([...Array(AT_ONCE - 1).fill(200), 201]);
      const ids = new Set(replies.map((reply) => reply.body.return?.id ?? reply.body.id));
      expect(ids.size).toBe(1);
      const view = await served.engine.getSalesOrder(served.engine.operator('default'), '2001');
      expect(view.returns).toHaveLength(1);
    });
  });
}
