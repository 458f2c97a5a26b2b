import { type FulfilInstance, fixtures, startFulfil } from '@fulfil/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, FulfilApiError, type FulfillmentOrder } from '../src/index.js';

/** 101 one-line orders (a page and one more), and order 9000 with two lines, partials enabled. */
function flowSeed() {
  const orders = Array.from({ length: 101 }, (_, i) =>
    fixtures.salesOrder(String(1000 + i), [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-A' }),
  );
  orders.push(
    fixtures.salesOrder(
      '9000',
      [
        { sku: 'SKU-2', qty: 2, price: 12.5 },
        { sku: 'SKU-3', qty: 1, name: 'Tea & <Biscuits>' },
      ],
      { warehouse_code: 'WH-A', allow_partial: true },
    ),
  );
  return fixtures.seed({ orders });
}

const numbers = (orders: FulfillmentOrder[]) => orders.map((o) => o.fulfillment_order_number);

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const entry of iterable) list.push(entry);
  return list;
}

describe.each(['json', 'xml'] as const)('@fulfil/client against a real server (%s)', (format) => {
  let fulfil: FulfilInstance;
  const client = (token: string) =>
    createClient({ baseUrl: fulfil.url, storeCode: fulfil.storeCode, token, format });

  beforeAll(async () => {
    fulfil = await startFulfil({ seed: flowSeed() });
  });
  afterAll(() => fulfil.close());

  it('reads warehouses and syncs stock', async () => {
    const partner = client(fulfil.tokens.partner as string);
    expect(await partner.warehouses()).toEqual([{ code: 'WH-A', name: 'Partner A', active: true }]);
    expect(
      await partner.syncStock({ stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-9', qty: 4 }] }),
    ).toEqual([{ warehouse_code: 'WH-A', sku: 'SKU-9', qty: 4 }]);
  });

  it('adjusts stock once per number, and tells the same number with other lines', async () => {
    const partner = client(fulfil.tokens.partner as string);
    const adjustment = {
      adjustment_number: `ADJ-${format}`,
      items: [
        { warehouse_code: 'WH-A', sku: `SKU-ADJ-${format}`, delta: 5, reason: 'received' as const },
      ],
    };
    const applied = await partner.adjustStock(adjustment);
    expect(applied.items).toEqual([{ ...adjustment.items[0], on_hand: 5 }]);
    expect(await partner.adjustStock(adjustment)).toEqual(applied);
    const other = partner.adjustStock({
      ...adjustment,
      items: [{ warehouse_code: 'WH-A', sku: `SKU-ADJ-${format}`, delta: 6, reason: 'received' }],
    });
    await expect(other).rejects.toMatchObject({ status: 409 });
  });

  it('pages through a queue until the service answers []', async () => {
    const partner = client(fulfil.tokens.partner as string);
    const orders = await all(partner.queue('pending_accept'));
    expect(orders).toHaveLength(102);
    expect(new Set(numbers(orders)).size).toBe(102);
    expect(
      (await partner.pendingAccept({ page: 2 })).map((o) => o.fulfillment_order_number),
    ).toEqual(numbers(orders).slice(100));
    // Decoded XML and JSON are the same values.
    const json = createClient({
      baseUrl: fulfil.url,
      storeCode: 'default',
      token: fulfil.tokens.partner as string,
    });
    expect(await partner.pendingAccept({ page: 2 })).toEqual(await json.pendingAccept({ page: 2 }));
    // `date` filters by updated_at; nothing was updated after 2100.
    expect(await all(partner.queue('pending_accept', { date: '2100-01-01 00:00:00' }))).toEqual([]);
  });

  it('walks an order through accept, allocate, two shipments and two invoices', async () => {
    const partner = client(fulfil.tokens.partner as string);
    const erp = client(fulfil.tokens.erp as string);
    const [order] = (await all(partner.queue('pending_accept'))).filter(
      (o) => o.sales_order_number === '9000',
    );
    if (!order) throw new Error('order 9000 is not waiting');
    expect(order.items.map((item) => item.name)).toEqual(['Product SKU-2', 'Tea & <Biscuits>']);
    const body = {
      order: {
        order_id: order.fulfillment_order_number,
        items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
      },
    };
    const accepted = await partner.accept(body);
    expect(accepted.status).toBe('pending_allocation');
    // Idempotent: the same accept again answers the current order and changes nothing.
    expect(await partner.accept(body)).toEqual(accepted);

    const toAllocate = (await erp.pendingAllocation()).find((o) => o.id === order.id);
    if (!toAllocate) throw new Error('not waiting for allocation');
    await erp.allocate({
      allocation: {
        order_id: toAllocate.fulfillment_order_number,
        items: toAllocate.items.map((item) => ({ item_id: item.id })),
      },
    });

    const [first, second] = order.items as [
      FulfillmentOrder['items'][number],
      FulfillmentOrder['items'][number],
    ];
    const shipped = await partner.ship({
      shipment: {
        order_id: order.fulfillment_order_number,
        items: [{ item_id: first.id }],
        tracks: [{ carrier_code: 'brt', title: 'BRT & Co', track_number: 'T-1' }],
      },
    });
    expect(shipped.status).toBe('partially_shipped');

    // The first invoice carries the order's shipping (5, incl. tax); the helper knows.
    const firstWaiting = (await erp.pendingInvoice()).find((o) => o.id === order.id);
    if (!firstWaiting) throw new Error('not waiting for its first invoice');
    const afterFirst = await erp.invoiceOrder(firstWaiting, { invoice_number: 'INV-1' });
    const history = await fulfil.engine.getOrderHistory('default', order.fulfillment_order_number);
    expect(history.invoices.map((i) => [i.invoice_number, i.shipping_amount_incl_tax])).toEqual([
      ['INV-1', 5],
    ]);
    expect(afterFirst.invoiced_at).toBeDefined();

    await partner.ship({
      shipment: { order_id: order.fulfillment_order_number, items: [{ item_id: second.id }] },
    });
    // A later invoice states 0 for shipping; the helper sends 0, and the service agrees.
    const laterWaiting = (await erp.pendingInvoice()).find((o) => o.id === order.id);
    if (!laterWaiting) throw new Error('not waiting for its second invoice');
    const wrong = await erp
      .invoice({
        invoice: {
          order_id: laterWaiting.fulfillment_order_number,
          items: [{ item_id: second.id }],
          invoice_number: 'INV-2',
          shipping_amount_incl_tax: 5,
        },
      })
      .catch((error: unknown) => error);
    expect(wrong).toBeInstanceOf(FulfilApiError);
    expect((wrong as FulfilApiError).status).toBe(400);
    expect(JSON.stringify((wrong as FulfilApiError).body)).toContain(
      'invoice.shipping_amount_incl_tax',
    );
    const done = await erp.invoiceOrder(laterWaiting, { invoice_number: 'INV-2' });
    expect(done.status).toBe('invoiced');
    const after = await fulfil.engine.getOrderHistory('default', order.fulfillment_order_number);
    expect(after.invoices.map((i) => [i.invoice_number, i.shipping_amount_incl_tax])).toEqual([
      ['INV-1', 5],
      ['INV-2', 0],
    ]);
  });

  it('turns every refusal into a FulfilApiError with the status and the error body', async () => {
    const partner = client(fulfil.tokens.partner as string);
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => {
          throw new Error('the call succeeded');
        },
        (error: unknown) => {
          expect(error).toBeInstanceOf(FulfilApiError);
          return error as FulfilApiError;
        },
      );

    const unknown = await refusal(
      partner.reject({ order: { order_id: 'NOPE-1', items: [{ item_id: 1 }] } }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.code).toBe(1404);

    const forbidden = await refusal(
      partner.allocate({ allocation: { order_id: 'X', items: [{ item_id: 1 }] } }),
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.parameters).toEqual([
      { resources: 'Fulfil_FulfillmentOrder::api_allocate' },
    ]);

    const bad = await refusal(partner.pendingAccept({ date: 'yesterday' }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('date');

    const unauthenticated = await refusal(client('not-a-token').failed());
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.message).toEqual(expect.any(String));
  });
});
