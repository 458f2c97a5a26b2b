import { createClient, FulfilApiError, type FulfillmentOrder } from '@fulfil/client';
import { type FulfilInstance, fixtures, startFulfil } from '@fulfil/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A partner's integration tested the way its own project would: the test kit starts Fulfil, the
 * client talks to it over HTTP, and the engine plays the ERP.
 */
describe('a partner integration against Fulfil', () => {
  let fulfil: FulfilInstance;

  beforeAll(async () => {
    fulfil = await startFulfil({
      seed: fixtures.seed({
        orders: [
          fixtures.salesOrder('5001', [{ sku: 'SKU-1', qty: 2 }], { warehouse_code: 'WH-A' }),
          fixtures.salesOrder('5002', [{ sku: 'SKU-2', qty: 1 }], { warehouse_code: 'WH-A' }),
        ],
      }),
    });
  });
  afterAll(() => fulfil.close());

  const partner = () =>
    createClient({
      baseUrl: fulfil.url,
      storeCode: fulfil.storeCode,
      token: fulfil.tokens.partner ?? '',
    });

  it('accepts, then ships what the ERP allocated', async () => {
    const client = partner();
    const waiting: FulfillmentOrder[] = [];
    for await (const order of client.queue('pending_accept')) waiting.push(order);
    expect(waiting.map((order) => order.sales_order_number)).toEqual(['5001', '5002']);

    for (const order of waiting) {
      const accepted = await client.accept({
        order: {
          order_id: order.fulfillment_order_number,
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
        },
      });
      expect(accepted.status).toBe('pending_allocation');
    }

    // The ERP's part, played through the engine.
    const operator = fulfil.engine.operator(fulfil.storeCode);
    for (const order of await fulfil.engine.poll(operator, 'pending_allocation')) {
      await fulfil.engine.allocate(operator, {
        allocation: {
          order_id: order.fulfillment_order_number,
          items: order.items.map((item) => ({ item_id: item.id })),
        },
      });
    }

    for (const order of await client.pendingShipment()) {
      const shipped = await client.ship({
        shipment: {
          order_id: order.fulfillment_order_number,
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
          tracks: [{ carrier_code: 'dhl', title: 'DHL', track_number: `T-${order.id}` }],
        },
      });
      expect(shipped.status).toBe('pending_invoice');
    }
    expect(await client.pendingShipment()).toEqual([]);
  });

  it('gets the service refusal as a FulfilApiError, in XML too', async () => {
    const xml = createClient({
      baseUrl: fulfil.url,
      storeCode: fulfil.storeCode,
      token: fulfil.tokens.partner ?? '',
      format: 'xml',
    });
    const error = await xml
      .reject({ order: { order_id: 'NO-SUCH-1', items: [{ item_id: 1 }] } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FulfilApiError);
    expect((error as FulfilApiError).status).toBe(404);
    expect((error as FulfilApiError).body.message).toEqual(expect.any(String));
  });
});
