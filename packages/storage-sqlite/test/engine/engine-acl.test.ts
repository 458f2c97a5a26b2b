import { type ApiAction, type Principal, resourceOf } from '@fulfil/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { domainError, type Harness, openHarness, salesOrder } from './harness.js';

/**
 * docs/behaviour.md: the embedded engine checks what the server checks. Every public action
 * that takes a principal refuses one without the action's resource, and keeps to its warehouse
 * scope, by itself: an embedding app cannot skip it by forgetting `authorize`.
 */
describe('docs/behaviour.md: every public action checks its principal', () => {
  let h: Harness;
  let order: { number: string; ids: number[] };
  beforeEach(async () => {
    h = await openHarness();
    const [created] = await h.engine.intake(
      'default',
      salesOrder('500', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-A' }),
    );
    order = {
      number: created?.fulfillment_order_number as string,
      ids: created?.items.map((item) => item.id) ?? [],
    };
  });
  afterEach(() => h.engine.close());

  /** Each public action, called with a body it would otherwise accept. */
  const calls: Record<ApiAction, (principal: Principal) => Promise<unknown>> = {
    pending_accept: (p) => h.engine.poll(p, 'pending_accept'),
    pending_allocation: (p) => h.engine.pollDocuments(p, 'pending_allocation'),
    pending_shipment: (p) => h.engine.poll(p, 'pending_shipment'),
    pending_invoice: (p) => h.engine.pollDocuments(p, 'pending_invoice'),
    failed: (p) => h.engine.poll(p, 'failed'),
    accept: (p) =>
      h.engine.accept(p, {
        order: { order_id: order.number, items: [{ item_id: order.ids[0], qty: 1 }] },
      }),
    reject: (p) =>
      h.engine.reject(p, {
        order: { order_id: order.number, items: [{ item_id: order.ids[0], qty: 1 }] },
      }),
    allocate: (p) =>
      h.engine.allocate(p, {
        allocation: { order_id: order.number, items: [{ item_id: order.ids[0] }] },
      }),
    ship: (p) =>
      h.engine.ship(p, {
        shipment: { order_id: order.number, items: [{ item_id: order.ids[0], qty: 1 }] },
      }),
    invoice: (p) =>
      h.engine.invoice(p, {
        invoice: {
          order_id: order.number,
          invoice_number: 'INV-1',
          items: [{ item_id: order.ids[0], qty: 1 }],
        },
      }),
    warehouses: (p) => h.engine.listWarehouses(p),
    stock_items: (p) =>
      h.engine.syncStock(p, { stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 3 }] }),
    stock_adjust: (p) =>
      h.engine.adjustStock(p, {
        adjustment: {
          adjustment_number: 'ACL-1',
          items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', delta: 1, reason: 'found' }],
        },
      }),
    create_sales_order: (p) =>
      h.engine.createSalesOrder(p, {
        sales_order: salesOrder('90001', [{ sku: 'SKU-1', qty: 1 }]),
      }),
    read_sales_orders: (p) => h.engine.pollSalesOrders(p),
    create_return: (p) =>
      h.engine.createReturn(p, {
        return: {
          rma_number: 'RMA-1',
          sales_order_number: '500',
          items: [{ fulfillment_order_number: order.number, item_id: 1, qty: 1, reason: 'other' }],
        },
      }),
    returns_pending_receipt: (p) => h.engine.pollReturns(p, 'pending_receipt'),
    receive_return: (p) =>
      h.engine.receiveReturn(p, {
        receipt: {
          rma_number: 'RMA-1',
          receipt_number: 'R-1',
          items: [{ item_id: 1, qty_restocked: 1 }],
        },
      }),
    returns_pending_credit: (p) => h.engine.pollReturns(p, 'pending_credit'),
    credit_return: (p) =>
      h.engine.creditReturn(p, {
        credit: { rma_number: 'RMA-1', credit_note_number: 'CN-1', items: [{ item_id: 1 }] },
      }),
    cancel_sales_order: (p) =>
      h.engine.cancelSalesOrder(p, {
        cancellation: { sales_order_number: '500', reason: 'customer' },
      }),
    hold_sales_order: (p) =>
      h.engine.holdSalesOrder(p, {
        hold: { sales_order_number: '500', handle: 'h', reason: 'other' },
      }),
    pending_cancellation: (p) => h.engine.poll(p, 'pending_cancellation'),
    accept_cancellation: (p) =>
      h.engine.acceptCancellation(p, { cancellation: { order_id: order.number } }),
    reject_cancellation: (p) =>
      h.engine.rejectCancellation(p, { cancellation: { order_id: order.number, message: 'no' } }),
  };

  it('issue 16: engine.allocate(partner, …) is refused, naming the resource, and changes nothing', async () => {
    await h.engine.accept(h.partnerA, {
      order: { order_id: order.number, items: [{ item_id: order.ids[0], qty: 1 }] },
    });
    const before = await h.snapshot();
    const error = await domainError(calls.allocate(h.partnerA));
    expect(error.code).toBe('forbidden');
    expect(error.parameters).toEqual([{ resources: 'Fulfil_FulfillmentOrder::api_allocate' }]);
    expect(await h.snapshot()).toEqual(before);
    // The ERP, which holds the resource, allocates it.
    expect((await calls.allocate(h.erp)) as { status: string }).toMatchObject({
      status: 'pending_shipment',
    });
  });

  it('each public action refuses a principal that has every resource but its own, before reading the body', async () => {
    const operator = h.engine.operator('default');
    const before = await h.snapshot();
    for (const [action, call] of Object.entries(calls) as [ApiAction, typeof calls.accept][]) {
      const resource = resourceOf(action);
      const lacking = {
        ...operator,
        resources: operator.resources.filter((granted) => granted !== resource),
      };
      const error = await domainError(call(lacking));
      expect({ action, code: error.code, parameters: error.parameters }).toEqual({
        action,
        code: 'forbidden',
        parameters: [{ resources: resource }],
      });
    }
    // Forbidden comes before a bad body, as on the server (403 before 400).
    const lacking = { ...operator, resources: [] };
    expect((await domainError(h.engine.accept(lacking, { nonsense: true }))).code).toBe(
      'forbidden',
    );
    expect(await h.snapshot()).toEqual(before);
  });

  it('a bare actor (no resource list) is granted nothing', async () => {
    const bare = { store_code: 'default', name: 'someone', warehouses: null } as Principal;
    for (const call of Object.values(calls)) {
      expect((await domainError(call(bare))).code).toBe('forbidden');
    }
  });

  it('the operator principal is allowed every action, explicitly', async () => {
    const operator = h.engine.operator('default', 'ops');
    expect(operator).toMatchObject({ store_code: 'default', name: 'ops', warehouses: null });
    for (const action of Object.keys(calls) as ApiAction[]) {
      expect(operator.resources).toContain(resourceOf(action));
    }
    await calls.accept(operator);
    await calls.allocate(operator);
    expect(await h.engine.listWarehouses(operator)).toHaveLength(3);
  });

  it('the warehouse scope holds in every action: out of scope is not found, or a refused field', async () => {
    const before = await h.snapshot();
    // Partner B holds every partner resource, but the order is at WH-A.
    for (const action of ['accept', 'reject', 'ship'] as const) {
      const error = await domainError(calls[action](h.partnerB));
      expect({ action, code: error.code }).toEqual({ action, code: 'not_found' });
    }
    expect(await h.engine.poll(h.partnerB, 'pending_accept')).toEqual([]);
    expect((await h.engine.listWarehouses(h.partnerB)).map((w) => w.code)).toEqual(['WH-B']);
    const stock = await domainError(calls.stock_items(h.partnerB));
    expect(stock.code).toBe('invalid_stock_batch');
    const adjusted = await domainError(calls.stock_adjust(h.partnerB));
    expect(adjusted.code).toBe('invalid_stock_batch');
    expect(await h.snapshot()).toEqual(before);
    // In scope, the same partner resources work.
    expect((await h.engine.poll(h.partnerA, 'pending_accept')).length).toBe(1);
  });
});
