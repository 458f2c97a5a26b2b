import { type FulfilInstance, fixtures, startFulfil } from '@fulfil/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, FulfilApiError, type SalesOrder } from '../src/index.js';

/** The client as a sales channel (docs/channel-guide.md), in JSON and in XML, against the test kit. */
describe.each(['json', 'xml'] as const)('@fulfil/client as a sales channel (%s)', (format) => {
  let fulfil: FulfilInstance;
  const client = (token: string) =>
    createClient({ baseUrl: fulfil.url, storeCode: fulfil.storeCode, token, format });

  beforeAll(async () => {
    fulfil = await startFulfil();
  });
  afterAll(() => fulfil.close());

  it('createSalesOrder, its repeat, a conflict, getSalesOrder; a batch; the watch follows changes', async () => {
    const channel = client(fulfil.tokens.channel as string);
    const order = fixtures.salesOrder('S-1', [{ sku: 'SKU-1', qty: 2, name: 'Tea & <Biscuits>' }]);
    const created = await channel.createSalesOrder(order);
    expect(created).toMatchObject({ sales_order_number: 'S-1', status: 'open', holds: [] });
    expect(created.fulfillment_orders[0]?.items[0]?.name).toBe('Tea & <Biscuits>');
    expect(await channel.createSalesOrder(order)).toEqual(created);
    const conflict = await channel
      .createSalesOrder({ ...order, customer_lastname: 'Else' })
      .catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(FulfilApiError);
    expect((conflict as FulfilApiError).status).toBe(409);
    // The view as intake answered it, and, in this answer only, each order's deadline.
    const { deadlines, ...view } = await channel.getSalesOrder('S-1');
    expect(view).toEqual(created);
    expect(deadlines?.map((deadline) => deadline.fulfillment_order_number)).toEqual(['S-1-1']);

    const batch = await channel.createSalesOrders([order, fixtures.salesOrder('S-2')]);
    expect(batch.map((entry) => [entry.sales_order_number, entry.status])).toEqual([
      ['S-1', 200],
      ['S-2', 201],
    ]);

    const seen: SalesOrder[] = [];
    const watching = (async () => {
      for await (const salesOrder of channel.watchSalesOrders({ wait: 2 })) {
        seen.push(salesOrder);
        if (salesOrder.status === 'shipped') break;
      }
    })();
    // The partner ships S-1 through the engine meanwhile.
    const operator = fulfil.engine.operator(fulfil.storeCode);
    const [fo] = created.fulfillment_orders;
    const items = (fo?.items ?? []).map((item) => ({ item_id: item.id, qty: item.qty }));
    const orderId = fo?.fulfillment_order_number as string;
    await fulfil.engine.accept(operator, { order: { order_id: orderId, items } });
    await fulfil.engine.allocate(operator, { allocation: { order_id: orderId, items } });
    await fulfil.engine.ship(operator, {
      shipment: {
        order_id: orderId,
        items,
        tracks: [{ carrier_code: 'fedex', title: 'FedEx', track_number: '7777' }],
      },
    });
    await watching;
    // The first pass saw S-1 first, in whatever state it was; the last one seen has shipped.
    expect(seen[0]?.sales_order_number).toBe('S-1');
    const shipped = seen.at(-1);
    expect(shipped?.sales_order_number).toBe('S-1');
    expect(shipped?.shipments[0]?.tracks[0]?.tracking_url).toBe(
      'https://www.fedex.com/fedextrack/?trknbr=7777',
    );
  });

  it('holdSalesOrder, releaseSalesOrder, cancelSalesOrder; the partner answers from queue("pending_cancellation")', async () => {
    const channel = client(fulfil.tokens.channel as string);
    const partner = client(fulfil.tokens.partner as string);
    const created = await channel.createSalesOrder(
      fixtures.salesOrder('H-1', [
        { sku: 'SKU-1', qty: 1 },
        { sku: 'SKU-2', qty: 1 },
      ]),
    );
    const [fo] = created.fulfillment_orders;
    const orderId = fo?.fulfillment_order_number as string;
    const items = (fo?.items ?? []).map((item) => ({ item_id: item.id, qty: item.qty }));

    const held = await channel.holdSalesOrder({
      sales_order_number: 'H-1',
      handle: 'pay',
      reason: 'awaiting_payment',
      note: 'transfer pending',
    });
    expect(held).toMatchObject({ handle: 'pay', held: [orderId], not_held: [] });
    expect(held.sales_order.status).toBe('on_hold');
    expect(held.sales_order.holds[0]).toMatchObject({ handle: 'pay', note: 'transfer pending' });
    const refused = await partner
      .accept({ order: { order_id: orderId, items } })
      .catch((error: unknown) => error);
    expect((refused as FulfilApiError).status).toBe(400);
    const released = await channel.releaseSalesOrder({ sales_order_number: 'H-1', handle: 'pay' });
    expect(released.status).toBe('open');

    await partner.accept({ order: { order_id: orderId, items } });
    const requested = await channel.cancelSalesOrder({
      sales_order_number: 'H-1',
      reason: 'customer',
      items: [{ fulfillment_order_number: orderId, item_id: items[0]?.item_id as number }],
    });
    expect(requested.cancellation_requests[0]).toMatchObject({ status: 'open', id: 1 });
    const waiting = [];
    for await (const order of partner.queue('pending_cancellation')) waiting.push(order);
    expect(waiting.map((order) => order.cancellation_request?.items.length)).toEqual([1]);
    const rejected = await partner.rejectCancellation({
      cancellation: { order_id: orderId, message: 'packed' },
    });
    expect(rejected.status).toBe('pending_allocation');
    await channel.cancelSalesOrder({ sales_order_number: 'H-1', reason: 'customer' });
    const canceled = await partner.acceptCancellation({ cancellation: { order_id: orderId } });
    expect(canceled.status).toBe('canceled');
    expect((await channel.getSalesOrder('H-1')).cancellation_requests.map((r) => r.status)).toEqual(
      ['rejected', 'accepted'],
    );
  });
});
