import { createEngine, type OperatorPrincipal } from '@fulfil/core';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRepository, type SqliteRepository } from '../../src/index.js';
import { domainError, type Harness, openHarness, salesOrder } from './harness.js';

/**
 * Returns in the engine (docs/channel-guide.md, Returns): opened for shipped lines only, received
 * at the receiving warehouse (restocked on hand in the same transaction, quarantined apart),
 * credited like an invoice.
 */

interface Shipped {
  number: string;
  items: { id: number; sku: string }[];
}

/** Sales order `number` taken in, accepted, allocated and shipped whole at WH-A. */
async function shipped(h: Harness, number: string, lines = [{ sku: 'SKU-1', qty: 3 }]) {
  const [order] = await h.engine.intake(
    'default',
    salesOrder(number, lines, { warehouse_code: 'WH-A' }),
  );
  const order_id = order?.fulfillment_order_number as string;
  const items = order?.items.map((item) => ({ id: item.id, sku: item.sku, qty: item.qty })) ?? [];
  await h.engine.accept(h.partnerA, {
    order: { order_id, items: items.map((item) => ({ item_id: item.id, qty: item.qty })) },
  });
  await h.engine.allocate(h.erp, {
    allocation: { order_id, items: items.map((item) => ({ item_id: item.id })) },
  });
  await h.engine.ship(h.partnerA, {
    shipment: { order_id, items: items.map((item) => ({ item_id: item.id, qty: item.qty })) },
  });
  return { number: order_id, items } satisfies Shipped;
}

describe('returns in the engine', () => {
  let h: Harness;
  let channel: Awaited<ReturnType<Harness['engine']['operator']>>;
  beforeEach(async () => {
    h = await openHarness();
    channel = h.engine.operator('default', 'shop');
  });
  afterEach(() => h.engine.close());

  const open = (order: Shipped, qty: number, rma = 'RMA-1') =>
    h.engine.createReturn(channel, {
      return: {
        rma_number: rma,
        sales_order_number: order.number.split('-')[0],
        items: [
          {
            fulfillment_order_number: order.number,
            item_id: order.items[0]?.id,
            qty,
            reason: 'damaged',
          },
        ],
      },
    });

  it('takes back at most what shipped less what other returns take, receives in parts, credits like an invoice', async () => {
    const order = await shipped(h, '700');
    const item = order.items[0]?.id as number;
    expect((await h.level('WH-A', 'SKU-1')).on_hand).toBe(7);

    const first = await open(order, 2);
    expect(first.outcome).toBe('created');
    expect(first.return).toMatchObject({ status: 'pending_receipt', warehouse_code: 'WH-A' });
    // The same rma number and content again: the same return; other content: 409.
    expect((await open(order, 2)).outcome).toBe('exists');
    expect((await domainError(open(order, 1))).code).toBe('already_exists');
    // Shipped 3, 2 returned: one more unit at most.
    const over = await domainError(open(order, 2, 'RMA-2'));
    expect(over.code).toBe('qty_mismatch');
    expect(over.parameters).toEqual([{ fieldName: 'return.items[0].qty', fieldValue: '2' }]);
    expect(over.message).toContain('at most 1');

    const receipt = {
      receipt: {
        rma_number: 'RMA-1',
        receipt_number: 'RCV-1',
        items: [{ item_id: item, qty_restocked: 1 }],
      },
    };
    const partial = await h.engine.receiveReturn(h.partnerA, receipt);
    expect(partial.status).toBe('pending_receipt');
    expect((await h.level('WH-A', 'SKU-1')).on_hand).toBe(8);
    // A retry changes nothing; the number with other lines is 400.
    expect(await h.engine.receiveReturn(h.partnerA, receipt)).toEqual(partial);
    expect((await h.level('WH-A', 'SKU-1')).on_hand).toBe(8);
    // In both queues at once after a partial receipt.
    expect((await h.engine.pollReturns(h.partnerA, 'pending_receipt')).documents).toHaveLength(1);
    expect((await h.engine.pollReturns(h.erp, 'pending_credit')).documents).toHaveLength(1);
    // Partner B's warehouse is not the receiving one: the return does not exist for it.
    expect((await h.engine.pollReturns(h.partnerB, 'pending_receipt')).documents).toEqual([]);
    expect((await domainError(h.engine.receiveReturn(h.partnerB, receipt))).code).toBe('not_found');

    const beyond = await domainError(
      h.engine.receiveReturn(h.partnerA, {
        receipt: {
          rma_number: 'RMA-1',
          receipt_number: 'RCV-2',
          items: [{ item_id: item, qty_quarantined: 2 }],
        },
      }),
    );
    expect(beyond.code).toBe('qty_mismatch');
    const whole = await h.engine.receiveReturn(h.partnerA, {
      receipt: {
        rma_number: 'RMA-1',
        receipt_number: 'RCV-2',
        items: [{ item_id: item, qty_quarantined: 1 }],
      },
    });
    expect(whole.status).toBe('pending_credit');
    // Quarantined goods are not on hand.
    expect((await h.level('WH-A', 'SKU-1')).on_hand).toBe(8);

    const mismatch = await domainError(
      h.engine.creditReturn(h.erp, {
        credit: {
          rma_number: 'RMA-1',
          credit_note_number: 'CN-1',
          items: [{ item_id: item }],
          shipping_refund_incl_tax: 6,
          amount_incl_tax: 20,
        },
      }),
    );
    expect(mismatch.code).toBe('credit_mismatch');
    expect(mismatch.errors.map((e) => [e.parameters[0]?.fieldName, e.message])).toEqual([
      [
        'credit.shipping_refund_incl_tax',
        '%fieldName must be at most 5.0000: the shipping the sales order paid less what its credits refunded.',
      ],
      ['credit.amount_incl_tax', '%fieldName must be 25.0000.'],
    ]);
    const credit = {
      credit: {
        rma_number: 'RMA-1',
        credit_note_number: 'CN-1',
        items: [{ item_id: item }],
        shipping_refund_incl_tax: 5,
        amount_incl_tax: 25,
      },
    };
    const credited = await h.engine.creditReturn(h.erp, credit);
    expect(credited).toMatchObject({
      status: 'credited',
      credits: [{ credit_note_number: 'CN-1', amount_incl_tax: 25, shipping_refund_incl_tax: 5 }],
    });
    expect(await h.engine.creditReturn(h.erp, credit)).toEqual(credited);
    expect((await h.engine.pollReturns(h.erp, 'pending_credit')).documents).toEqual([]);

    // The sales order view lists it; the order's timeline records each step.
    const view = await h.engine.getSalesOrder(channel, '700');
    expect(
      view.returns.map((r: { rma_number: string; status: string }) => [r.rma_number, r.status]),
    ).toEqual([['RMA-1', 'credited']]);
    const history = await h.engine.getOrderHistory('default', order.number);
    expect(history.audit.map((e) => e.action).filter((a) => a.startsWith('return_'))).toEqual([
      'return_open',
      'return_receive',
      'return_receive',
      'return_credit',
    ]);
  });

  it("a return credited in two notes refunds the sales order's shipping once, counting its own first note", async () => {
    const order = await shipped(h, '710');
    const item = order.items[0]?.id as number;
    await open(order, 2);
    const receive = (receipt_number: string) =>
      h.engine.receiveReturn(h.partnerA, {
        receipt: {
          rma_number: 'RMA-1',
          receipt_number,
          items: [{ item_id: item, qty_restocked: 1 }],
        },
      });
    const credit = (credit_note_number: string, shipping_refund_incl_tax: number) =>
      h.engine.creditReturn(h.erp, {
        credit: {
          rma_number: 'RMA-1',
          credit_note_number,
          items: [{ item_id: item }],
          shipping_refund_incl_tax,
        },
      });
    await receive('RCV-1');
    await credit('CN-1', 2.5);
    await receive('RCV-2');
    // 5 of shipping paid, 2.5 refunded by CN-1: 5 more would refund 7.5.
    const over = await domainError(credit('CN-2', 5));
    expect(over.code).toBe('credit_mismatch');
    expect(over.errors.map((e) => e.message)).toEqual([
      '%fieldName must be at most 2.5000: the shipping the sales order paid less what its credits refunded.',
    ]);
    const second = await credit('CN-2', 2.5);
    expect(second.credits.map((c) => c.shipping_refund_incl_tax)).toEqual([2.5, 2.5]);
  });

  it('refuses lines that did not ship, and every refusal changes nothing', async () => {
    const [order] = await h.engine.intake('default', salesOrder('701', [{ sku: 'SKU-1', qty: 1 }]));
    const before = await h.snapshot();
    const error = await domainError(
      open(
        {
          number: order?.fulfillment_order_number as string,
          items: [{ id: order?.items[0]?.id as number, sku: 'SKU-1' }],
        },
        1,
      ),
    );
    expect(error.code).toBe('unknown_item');
    expect(error.parameters).toEqual([
      { fieldName: 'return.items[0].item_id', fieldValue: String(order?.items[0]?.id) },
    ]);
    expect(error.message).toContain('has not shipped');
    expect(await h.snapshot()).toEqual(before);
  });

  it('a return with every unit missing is closed; a canceled one takes back nothing', async () => {
    const order = await shipped(h, '702', [{ sku: 'SKU-2', qty: 2 }]);
    const item = order.items[0]?.id as number;
    await open(order, 2);
    const operator: OperatorPrincipal = {
      name: 'oscar',
      role: 'operator',
      store_code: null,
      request_id: null,
    };
    const canceled = await h.engine.admin.cancelReturn(operator, 'default', 'RMA-1', {});
    expect(canceled.status).toBe('canceled');
    expect((await h.engine.pollReturns(h.partnerA, 'pending_receipt')).documents).toEqual([]);
    const again = await open(order, 2, 'RMA-2');
    expect(again.return.status).toBe('pending_receipt');
    const closed = await h.engine.receiveReturn(h.partnerA, {
      receipt: {
        rma_number: 'RMA-2',
        receipt_number: 'R',
        items: [{ item_id: item, qty_missing: 2 }],
      },
    });
    expect(closed.status).toBe('closed');
    // Received goods cannot be un-received by a cancel.
    expect(
      (await domainError(h.engine.admin.cancelReturn(operator, 'default', 'RMA-2', {}))).code,
    ).toBe('wrong_stage');
  });
});

describe('stock and the reservation check know returns', () => {
  let repository: SqliteRepository;
  afterEach(() => repository.close());

  it('counts quarantined goods apart and against the receipts, the fix sets them right, a stock sync stays absolute', async () => {
    repository = await openSqliteRepository(':memory:');
    const engine = createEngine({ repository });
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          warehouses: [{ code: 'WH-A', name: 'A' }],
          stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 }],
        },
      ],
    });
    const op = engine.operator('default');
    const [order] = await engine.intake('default', salesOrder('800', [{ sku: 'SKU-1', qty: 2 }]));
    const order_id = order?.fulfillment_order_number as string;
    const item_id = order?.items[0]?.id as number;
    await engine.accept(op, { order: { order_id, items: [{ item_id, qty: 2 }] } });
    await engine.allocate(op, { allocation: { order_id, items: [{ item_id }] } });
    await engine.ship(op, { shipment: { order_id, items: [{ item_id, qty: 2 }] } });
    await engine.createReturn(op, {
      return: {
        rma_number: 'RMA-9',
        sales_order_number: '800',
        items: [{ fulfillment_order_number: order_id, item_id, qty: 2, reason: 'wrong_item' }],
      },
    });
    await engine.receiveReturn(op, {
      receipt: {
        rma_number: 'RMA-9',
        receipt_number: 'R-1',
        items: [{ item_id, qty_restocked: 1, qty_quarantined: 1 }],
      },
    });
    const operator: OperatorPrincipal = {
      name: 'oscar',
      role: 'operator',
      store_code: null,
      request_id: 'r-2',
    };
    expect(await engine.admin.checkReservations(operator, 'default')).toEqual({
      mismatches: [],
      quarantine: [],
    });
    await sql`update return_quarantine set qty = 5`.execute(repository.db);
    const drift = [{ warehouse_code: 'WH-A', sku: 'SKU-1', quarantined: 5, expected: 1 }];
    expect((await engine.admin.checkReservations(operator, 'default')).quarantine).toEqual(drift);
    expect(await engine.admin.fixReservations(operator, 'default', {})).toEqual({
      fixed: [],
      quarantine_fixed: drift,
    });
    expect((await engine.admin.checkReservations(operator, 'default')).quarantine).toEqual([]);
    // On hand: 10 - 2 shipped + 1 restocked; the quarantined unit apart, on the stock page.
    expect((await engine.listStock('default')).map((row) => row.on_hand)).toEqual([9]);
    const page = await engine.admin.listStock(operator, 'default', {});
    expect(page.items).toEqual([
      {
        warehouse_code: 'WH-A',
        sku: 'SKU-1',
        on_hand: 9,
        reserved: 0,
        safety_stock: 0,
        available: 9,
        quarantined: 1,
      },
    ]);
    // A stock sync still sets on hand absolutely: it neither adds to a restock nor counts quarantine.
    await engine.syncStock(op, { stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 4 }] });
    expect((await engine.admin.listStock(operator, 'default', {})).items).toEqual([
      {
        warehouse_code: 'WH-A',
        sku: 'SKU-1',
        on_hand: 4,
        reserved: 0,
        safety_stock: 0,
        available: 4,
        quarantined: 1,
      },
    ]);
    expect((await engine.admin.checkReservations(operator, 'default')).quarantine).toEqual([]);
  });
});
