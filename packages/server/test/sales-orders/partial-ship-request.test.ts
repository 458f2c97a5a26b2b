import { type Engine, isDomainError } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { type DatabaseKind, databaseKinds, droppedAfterEach } from '../databases/open.js';

/**
 * docs/partner-guide.md, Cancellation requests: shipping a requested line rejects the request for
 * that line only (message `shipped`); its other lines stay requested, and accepting the request
 * then cancels just those. Every line ends exactly one of shipped or canceled; a request whose
 * lines all shipped cannot be accepted.
 */

const { channel, partner, erp } = fixtures.SEED_TOKENS;

const open = droppedAfterEach();

/** Sales order 820001, SKU-1 × 1 and SKU-2 × 1, accepted and allocated, whole cancel asked. */
async function requested(kind: DatabaseKind) {
  const database = await open(kind);
  const { engine } = database;
  await engine.loadSeed(
    fixtures.seed({ settings: { partial_items: true, partial_qty: false, reroute: false } }),
  );
  const [shop, warehouse, ledger] = await Promise.all(
    [channel, partner, erp].map((secret) => engine.authenticate('default', secret)),
  );
  if (!shop || !warehouse || !ledger) throw new Error('no principals');
  const created = await engine.createSalesOrder(shop, {
    sales_order: fixtures.salesOrder('820001', [
      { sku: 'SKU-1', qty: 1 },
      { sku: 'SKU-2', qty: 1 },
    ]),
  });
  const [fo] = created.sales_order.fulfillment_orders;
  const number = fo?.fulfillment_order_number as string;
  const [first, second] = (fo?.items ?? []).map((item) => item.id) as [number, number];
  const items = [first, second].map((item_id) => ({ item_id, qty: 1 }));
  await engine.accept(warehouse, { order: { order_id: number, items } });
  await engine.allocate(ledger, { allocation: { order_id: number, items } });
  const canceled = await engine.cancelSalesOrder(shop, {
    cancellation: { sales_order_number: '820001', reason: 'customer' },
  });
  expect(canceled.cancellation_requests).toMatchObject([{ id: 1, status: 'open' }]);
  return { engine, shop, warehouse, number, first, second };
}

const reserved = async (engine: Engine, sku: string) =>
  (await engine.listStock('default', { sku }))[0]?.reserved;

describe.each(databaseKinds())('a ship over a cancellation request on $name', (kind) => {
  it('shipping one requested line refuses the request for it; the other stays requested, and accepting cancels just it', async () => {
    const { engine, shop, warehouse, number, first, second } = await requested(kind);
    const shipped = await engine.ship(warehouse, {
      shipment: { order_id: number, items: [{ item_id: first }] },
    });
    expect(shipped.items.map((item) => [item.id, item.status])).toEqual([
      [first, 'pending_invoice'],
      [second, 'pending_shipment'],
    ]);
    const view = await engine.getSalesOrder(shop, '820001');
    expect(view.cancellation_requests).toEqual([
      expect.objectContaining({
        id: 1,
        status: 'open',
        items: [expect.objectContaining({ item_id: second })],
      }),
      expect.objectContaining({
        id: 2,
        status: 'rejected',
        message: 'shipped',
        items: [expect.objectContaining({ item_id: first })],
      }),
    ]);
    expect(view.cancellation_requests[1]).not.toHaveProperty('answered_by');
    // The partner still sees the request, for the line that did not ship.
    const queue = await engine.poll(warehouse, 'pending_cancellation');
    expect(queue.map((order) => order.cancellation_request)).toEqual([
      expect.objectContaining({ id: 1, items: [expect.objectContaining({ item_id: second })] }),
    ]);
    const history = await engine.getOrderHistory('default', number);
    expect(history.audit.at(-1)).toMatchObject({
      action: 'ship',
      details: {
        cancellation_rejected: 1,
        cancellation_refused: [first],
        cancellation_still_requested: [second],
      },
    });

    const accepted = await engine.acceptCancellation(warehouse, {
      cancellation: { order_id: number },
    });
    expect(accepted.items.map((item) => [item.id, item.status])).toEqual([
      [first, 'pending_invoice'],
      [second, 'canceled'],
    ]);
    expect(await reserved(engine, 'SKU-2')).toBe(0);
    // A repeat changes nothing; the view shows each request with its answer.
    await engine.acceptCancellation(warehouse, { cancellation: { order_id: number } });
    const after = await engine.getSalesOrder(shop, '820001');
    expect(after.cancellation_requests.map((request) => [request.id, request.status])).toEqual([
      [1, 'accepted'],
      [2, 'rejected'],
    ]);
    expect((await engine.getOrderHistory('default', number)).audit.at(-1)).toMatchObject({
      action: 'accept_cancellation',
      details: { items: [second] },
    });
  });

  it('shipping every requested line rejects the request; accepting it then is 400 and changes nothing', async () => {
    const { engine, shop, warehouse, number, first, second } = await requested(kind);
    await engine.ship(warehouse, {
      shipment: { order_id: number, items: [{ item_id: first }, { item_id: second }] },
    });
    const view = await engine.getSalesOrder(shop, '820001');
    expect(view.cancellation_requests).toEqual([
      expect.objectContaining({ id: 1, status: 'rejected', message: 'shipped' }),
    ]);
    const refused = await engine
      .acceptCancellation(warehouse, { cancellation: { order_id: number } })
      .catch((error: unknown) => error);
    expect(isDomainError(refused) && refused.code).toBe('wrong_stage');
    expect(await engine.getSalesOrder(shop, '820001')).toEqual(view);
  });

  it('a request for one line is rejected whole when that line ships, and a later request is a new one', async () => {
    const { engine, shop, warehouse, number, first, second } = await requested(kind);
    await engine.rejectCancellation(warehouse, {
      cancellation: { order_id: number, message: 'packed' },
    });
    await engine.cancelSalesOrder(shop, {
      cancellation: {
        sales_order_number: '820001',
        reason: 'customer',
        items: [{ fulfillment_order_number: number, item_id: second }],
      },
    });
    await engine.ship(warehouse, { shipment: { order_id: number, items: [{ item_id: second }] } });
    const view = await engine.getSalesOrder(shop, '820001');
    expect(view.cancellation_requests.map((request) => [request.id, request.status])).toEqual([
      [1, 'rejected'],
      [2, 'rejected'],
    ]);
    expect(view.cancellation_requests[1]?.message).toBe('shipped');
    expect(first).toBeGreaterThan(0);
  });
});
