import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';
import { oneWarehouseStore, servedPerDescribe } from './support.js';

/** A return naming a line that never shipped is 400 code 1002 on its item (docs/channel-guide.md). */

for (const kind of databaseKinds()) {
  describe(`a return of a line that never shipped on ${kind.name}`, () => {
    const served = servedPerDescribe(kind, oneWarehouseStore({ 'SKU-1': 5 }));

    it('is 1002 naming the item, not 1004 on its qty; nothing is written', async () => {
      expect(
        (await served.post('/V1/salesOrders', { sales_order: fixtures.salesOrder('3001') })).status,
      ).toBe(201);
      const [item] = (await served.engine.getOrder('default', '3001-1')).items;
      const before = await served.database.snapshot();
      const reply = await served.post('/V1/returns', {
        return: {
          rma_number: 'RMA-3001',
          sales_order_number: '3001',
          items: [
            { fulfillment_order_number: '3001-1', item_id: item?.id, qty: 1, reason: 'other' },
          ],
        },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe(1002);
      expect(reply.body.parameters).toEqual([
        { fieldName: 'return.items[0].item_id', fieldValue: String(item?.id) },
      ]);
      expect(await served.database.snapshot()).toEqual(before);
    });
  });
}
