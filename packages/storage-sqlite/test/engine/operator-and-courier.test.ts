import { type DispatchReport, ORDER_AMOUNT_FIELDS, QUEUES, type QueueName } from '@fulfil/core';
import { afterEach, describe, expect, it } from 'vitest';
import { domainError, fieldNames, type Harness, openHarness, salesOrder } from './harness.js';

/**
 * docs/behaviour.md: the operator side (fail, requeue, abandon, cancel) and courier dispatch for
 * orders of the courier warehouse WH-C.
 */
let h: Harness;
afterEach(() => h.engine.close());

const ACTIVE: QueueName[] = QUEUES.filter((queue) => queue !== 'failed');

/** The queues that list the order, polled as the operator (the whole store). */
async function queuesListing(number: string): Promise<QueueName[]> {
  const listed: QueueName[] = [];
  for (const queue of QUEUES) {
    const orders = await h.engine.poll(h.engine.operator('default'), queue);
    if (orders.some((order) => order.fulfillment_order_number === number)) listed.push(queue);
  }
  return listed;
}

async function intake(
  number: string,
  items: { sku: string; qty: number }[],
  warehouse_code = 'WH-A',
) {
  const [order] = await h.engine.intake('default', salesOrder(number, items, { warehouse_code }));
  if (!order) throw new Error('intake created no order');
  return { number: order.fulfillment_order_number, ids: order.items.map((item) => item.id), order };
}

describe('docs/behaviour.md: failing, requeueing, abandoning and canceling an order', () => {
  /**
   * An order at WH-A with SKU-1 × 2 allocated, SKU-2 × 1 accepted, and SKU-3 rejected (rerouted
   * to WH-B): partially allocated.
   */
  async function partlyAllocated(number = '800') {
    h = await openHarness();
    const order = await intake(number, [
      { sku: 'SKU-1', qty: 2 },
      { sku: 'SKU-2', qty: 1 },
      { sku: 'SKU-3', qty: 1 },
    ]);
    const [one, two, three] = order.ids;
    await h.engine.accept(h.partnerA, {
      order: {
        order_id: order.number,
        items: [
          { item_id: one, qty: 2 },
          { item_id: two, qty: 1 },
          { item_id: three, qty: 0 },
        ],
      },
    });
    await h.engine.allocate(h.erp, {
      allocation: { order_id: order.number, items: [{ item_id: one }] },
    });
    h.clock.advance(60_000);
    return { ...order, one: one as number, two: two as number, three: three as number };
  }

  it('docs/behaviour.md: failOrder moves the order to the failed queue only, status failed, with all live items and no prices', async () => {
    const order = await partlyAllocated();
    expect(await queuesListing(order.number)).toEqual(['pending_allocation', 'pending_shipment']);

    const failed = await h.engine.failOrder('default', order.number, 'ERP could not allocate');
    expect(failed.status).toBe('failed');
    expect(await queuesListing(order.number)).toEqual(['failed']);
    for (const queue of ACTIVE) {
      expect(await h.queue(h.engine.operator('default'), queue)).not.toContainEqual(
        expect.objectContaining({ number: order.number }),
      );
    }

    const [shown, ...others] = await h.engine.poll(h.erp, 'failed');
    expect(others).toEqual([]);
    expect(shown?.status).toBe('failed');
    expect(shown?.items.map(({ id, status }) => ({ id, status }))).toEqual([
      { id: order.one, status: 'pending_shipment' },
      { id: order.two, status: 'pending_allocation' },
    ]);
    for (const field of ORDER_AMOUNT_FIELDS) expect(shown).not.toHaveProperty(field);
    for (const item of shown?.items ?? []) {
      expect(item).not.toHaveProperty('price');
      expect(item).not.toHaveProperty('total_price');
    }
    // The scoped partner of WH-A sees it in failed; WH-B's does not.
    expect((await h.queue(h.partnerA, 'failed')).map((o) => o.number)).toEqual([order.number]);
    expect(await h.queue(h.partnerB, 'failed')).toEqual([]);

    const history = await h.engine.getOrderHistory('default', order.number);
    // Its least advanced live line awaits allocation: it failed in stage allocation.
    expect(history.failure).toMatchObject({
      stage: 'allocation',
      reason: 'ERP could not allocate',
      abandoned: false,
      failed_at: '2026-03-01 09:01:00',
    });
  });

  it('docs/behaviour.md: any public action on a failed order → order_failed, nothing changed', async () => {
    const order = await partlyAllocated();
    await h.engine.failOrder('default', order.number, 'stuck');
    const calls: [string, () => Promise<unknown>][] = [
      [
        'order.order_id',
        () =>
          h.engine.accept(h.partnerA, {
            order: { order_id: order.number, items: [{ item_id: order.two, qty: 1 }] },
          }),
      ],
      [
        'order.order_id',
        () =>
          h.engine.reject(h.partnerA, {
            order: { order_id: order.number, items: [{ item_id: order.two }] },
          }),
      ],
      [
        'allocation.order_id',
        () =>
          h.engine.allocate(h.erp, {
            allocation: { order_id: order.number, items: [{ item_id: order.two }] },
          }),
      ],
      [
        'shipment.order_id',
        () =>
          h.engine.ship(h.partnerA, {
            shipment: { order_id: order.number, items: [{ item_id: order.one }] },
          }),
      ],
      [
        'invoice.order_id',
        () =>
          h.engine.invoice(h.erp, {
            invoice: {
              order_id: order.number,
              items: [{ item_id: order.one }],
              invoice_number: 'INV-X',
            },
          }),
      ],
    ];
    for (const [field, call] of calls) {
      const before = await h.snapshot();
      const error = await domainError(call);
      expect(error.code, field).toBe('order_failed');
      expect(fieldNames(error)).toContain(field);
      expect(await h.snapshot()).toEqual(before);
    }
  });

  it('docs/behaviour.md: requeueOrder puts it back in its queues with the derived status', async () => {
    const order = await partlyAllocated();
    await h.engine.failOrder('default', order.number, 'stuck');
    h.clock.advance(60_000);
    const requeued = await h.engine.requeueOrder('default', order.number);
    expect(requeued.status).toBe('partially_allocated');
    expect(requeued.updated_at).toBe('2026-03-01 09:02:00');
    expect(await queuesListing(order.number)).toEqual(['pending_allocation', 'pending_shipment']);
    expect((await h.engine.getOrderHistory('default', order.number)).failure).toBeNull();

    // Back in the flow: actions work again.
    const allocated = await h.engine.allocate(h.erp, {
      allocation: { order_id: order.number, items: [{ item_id: order.two }] },
    });
    expect(allocated.status).toBe('pending_shipment');

    // Requeueing an order that is not failed is a wrong stage.
    expect((await domainError(h.engine.requeueOrder('default', order.number))).code).toBe(
      'wrong_stage',
    );
  });

  it('docs/behaviour.md: abandonOrder keeps it failed; requeue after abandon → wrong_stage', async () => {
    const order = await partlyAllocated();
    // Abandoning an order that is not failed is a wrong stage.
    expect((await domainError(h.engine.abandonOrder('default', order.number))).code).toBe(
      'wrong_stage',
    );
    await h.engine.failOrder('default', order.number, 'stuck');
    const abandoned = await h.engine.abandonOrder('default', order.number);
    expect(abandoned.status).toBe('failed');
    expect(await queuesListing(order.number)).toEqual(['failed']);
    expect((await h.engine.getOrderHistory('default', order.number)).failure).toMatchObject({
      abandoned: true,
    });

    const before = await h.snapshot();
    const error = await domainError(h.engine.requeueOrder('default', order.number));
    expect(error.code).toBe('wrong_stage');
    expect(await h.snapshot()).toEqual(before);
    expect(await queuesListing(order.number)).toEqual(['failed']);
  });

  it('docs/behaviour.md: cancelOrder asks the partner who accepted the lines; its accept cancels them, gone from the queues', async () => {
    const order = await partlyAllocated();
    const requested = await h.engine.cancelOrder('default', order.number);
    // Accepted lines are not canceled behind the partner's back: it is asked first.
    expect(requested.status).toBe('partially_allocated');
    expect(await queuesListing(order.number)).toEqual([
      'pending_allocation',
      'pending_shipment',
      'pending_cancellation',
    ]);
    const canceled = await h.engine.acceptCancellation(h.partnerA, {
      cancellation: { order_id: order.number },
    });
    expect(canceled.status).toBe('canceled');
    expect(canceled.items.map(({ id, status }) => ({ id, status }))).toEqual([
      { id: order.one, status: 'canceled' },
      { id: order.two, status: 'canceled' },
      { id: order.three, status: 'rejected' },
    ]);
    expect(await queuesListing(order.number)).toEqual([]);
    // The rerouted part lives on as its own order.
    expect(await queuesListing(`${order.number.slice(0, -2)}-2`)).toEqual(['pending_accept']);

    // Public actions on a canceled item contradict what was applied.
    const error = await domainError(
      h.engine.allocate(h.erp, {
        allocation: { order_id: order.number, items: [{ item_id: order.two }] },
      }),
    );
    expect(error.code).toBe('conflicts_with_applied');
  });

  it('docs/behaviour.md: cancelOrder takes a failed order out of the failed queue as canceled', async () => {
    const order = await partlyAllocated();
    await h.engine.failOrder('default', order.number, 'stuck');
    const canceled = await h.engine.cancelOrder('default', order.number);
    expect(canceled.status).toBe('canceled');
    expect(await queuesListing(order.number)).toEqual([]);
  });
});

describe('docs/behaviour.md: courier dispatch for the courier warehouse WH-C', () => {
  const EMPTY: DispatchReport = {
    shipped: [],
    retrying: [],
    failed: [],
    voided: [],
    void_failed: [],
  };

  async function courierOrder(settings: Record<string, unknown> = {}) {
    h = await openHarness(settings);
    await h.engine.syncStock(h.engine.operator('default'), {
      stock_items: [
        { warehouse_code: 'WH-C', sku: 'SKU-1', qty: 10 },
        { warehouse_code: 'WH-C', sku: 'SKU-2', qty: 10 },
      ],
    });
    return intake(
      '900',
      [
        { sku: 'SKU-1', qty: 2 },
        { sku: 'SKU-2', qty: 1 },
      ],
      'WH-C',
    );
  }

  async function allocate(order: { number: string; ids: number[] }) {
    return h.engine.allocate(h.erp, {
      allocation: { order_id: order.number, items: order.ids.map((item_id) => ({ item_id })) },
    });
  }

  it('docs/behaviour.md: an order pinned to the courier warehouse skips pending_accept and is reserved at once', async () => {
    const created = await courierOrder();
    expect(created.order.status).toBe('pending_allocation');
    expect(created.order.items.map((item) => item.status)).toEqual([
      'pending_allocation',
      'pending_allocation',
    ]);
    expect(await h.level('WH-C', 'SKU-1')).toEqual({ on_hand: 10, reserved: 2, available: 8 });
    expect(await h.level('WH-C', 'SKU-2')).toEqual({ on_hand: 10, reserved: 1, available: 9 });
    expect(await queuesListing(created.number)).toEqual(['pending_allocation']);
    // Nothing to dispatch before the ERP allocates.
    expect(await h.engine.dispatchCourier()).toEqual(EMPTY);
  });

  it('docs/behaviour.md: after allocate, dispatchCourier ships it with a simulated track; a second dispatch does nothing', async () => {
    const order = await courierOrder();
    await allocate(order);
    h.clock.advance(1_000);

    expect(await h.engine.dispatchCourier()).toEqual({ ...EMPTY, shipped: [order.number] });
    const history = await h.engine.getOrderHistory('default', order.number);
    expect(history.order.status).toBe('pending_invoice');
    expect(history.order.items.map((item) => item.status)).toEqual([
      'pending_invoice',
      'pending_invoice',
    ]);
    expect(history.shipments).toHaveLength(1);
    expect(history.shipments[0]?.items.map((item) => item.item_id)).toEqual(order.ids);
    expect(history.shipments[0]?.tracks[0]?.carrier_code).toBe('simulated');
    expect(history.shipments[0]?.tracks[0]?.track_number).toEqual(expect.any(String));
    expect(history.audit.at(-1)).toMatchObject({ actor: 'courier', action: 'ship' });
    expect(await queuesListing(order.number)).toEqual(['pending_invoice']);
    expect(await h.level('WH-C', 'SKU-1')).toEqual({ on_hand: 8, reserved: 0, available: 8 });

    const before = await h.snapshot();
    h.clock.advance(3_600_000);
    expect(await h.engine.dispatchCourier()).toEqual(EMPTY);
    expect(await h.snapshot()).toEqual(before);
  });

  it('docs/behaviour.md: courier failures retry after a backoff; after max_attempts the order fails in stage shipment', async () => {
    const order = await courierOrder({ courier: { fail_skus: ['SKU-1'], max_attempts: 3 } });
    await allocate(order);

    // Attempt 1 fails: retrying.
    expect(await h.engine.dispatchCourier()).toEqual({ ...EMPTY, retrying: [order.number] });
    expect((await h.engine.getOrder('default', order.number)).status).toBe('pending_shipment');

    // Before the backoff (30 s) elapses nothing happens.
    h.clock.advance(29_000);
    let before = await h.snapshot();
    expect(await h.engine.dispatchCourier()).toEqual(EMPTY);
    expect(await h.snapshot()).toEqual(before);

    // Past it, attempt 2 fails: retrying again, with a longer wait.
    h.clock.advance(2_000);
    expect(await h.engine.dispatchCourier()).toEqual({ ...EMPTY, retrying: [order.number] });
    h.clock.advance(31_000);
    before = await h.snapshot();
    expect(await h.engine.dispatchCourier()).toEqual(EMPTY);
    expect(await h.snapshot()).toEqual(before);

    // Attempt 3 is the last: the order goes to the failed queue, stage shipment.
    h.clock.advance(30_000);
    expect(await h.engine.dispatchCourier()).toEqual({ ...EMPTY, failed: [order.number] });
    const history = await h.engine.getOrderHistory('default', order.number);
    expect(history.order.status).toBe('failed');
    expect(history.failure).toMatchObject({ stage: 'shipment', abandoned: false });
    expect(history.shipments).toEqual([]);
    expect(history.audit.map((event) => [event.actor, event.action])).toEqual([
      ['operator', 'intake'],
      ['erp', 'allocate'],
      ['courier', 'courier_retry'],
      ['courier', 'courier_retry'],
      ['courier', 'fail'],
    ]);
    expect(await queuesListing(order.number)).toEqual(['failed']);
    // Still reserved: nothing left the warehouse.
    expect(await h.level('WH-C', 'SKU-1')).toEqual({ on_hand: 10, reserved: 2, available: 8 });

    h.clock.advance(3_600_000);
    expect(await h.engine.dispatchCourier()).toEqual(EMPTY);
  });

  it('docs/behaviour.md: a requeued courier order is dispatched afresh', async () => {
    const order = await courierOrder({ courier: { fail_skus: ['SKU-1'], max_attempts: 1 } });
    await allocate(order);
    expect(await h.engine.dispatchCourier()).toEqual({ ...EMPTY, failed: [order.number] });

    await h.engine.upsertStore('default', { courier: { fail_skus: [], max_attempts: 1 } });
    h.clock.advance(1_000);
    const requeued = await h.engine.requeueOrder('default', order.number);
    expect(requeued.status).toBe('pending_shipment');
    expect(await h.engine.dispatchCourier()).toEqual({ ...EMPTY, shipped: [order.number] });
    expect((await h.engine.getOrder('default', order.number)).status).toBe('pending_invoice');
  });

  it('docs/behaviour.md: two dispatchCourier() calls started together ship the order once', async () => {
    const order = await courierOrder();
    await allocate(order);
    const reports = await Promise.all([h.engine.dispatchCourier(), h.engine.dispatchCourier()]);
    expect(reports.flatMap((report) => report.shipped)).toEqual([order.number]);
    expect(reports.flatMap((report) => [...report.retrying, ...report.failed])).toEqual([]);
    const history = await h.engine.getOrderHistory('default', order.number);
    expect(history.shipments).toHaveLength(1);
    expect(history.audit.filter((event) => event.action === 'ship')).toHaveLength(1);
    expect(await h.level('WH-C', 'SKU-1')).toEqual({ on_hand: 8, reserved: 0, available: 8 });
  });
});
