import { MAX_AMOUNT } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';
import { fieldsOf, servedPerDescribe, shipWhole, TOKEN } from './support.js';

/**
 * Amounts (docs/limits.md): at most 4 decimals, refused rather than rounded; at most
 * `MAX_AMOUNT` each, and an order's lines adding up to at most that, refused per batch entry
 * naming the field. An order at the maximum goes through a split, a reject and a cancel.
 */

const SEED = {
  stores: [
    {
      code: 'default',
      settings: { partial_items: true },
      warehouses: [
        { code: 'WH-A', name: 'A', priority: 10 },
        { code: 'WH-B', name: 'B', priority: 5 },
      ],
      stock: [
        { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 50 },
        { warehouse_code: 'WH-B', sku: 'SKU-2', qty: 50 },
      ],
      tokens: [{ name: 'all', token: TOKEN, acl: 'all' }],
    },
  ],
};

/** A sales order whose lines carry exactly the amounts given, shipping 0. */
function order(number: string, lines: { sku: string; total: number; qty?: number }[]) {
  const base = fixtures.salesOrder(
    number,
    lines.map(({ sku, qty = 1 }) => ({ sku, qty })),
  );
  const items = base.items.map((item, index) => {
    const { total, qty = 1 } = lines[index] as { total: number; qty?: number };
    return {
      sku: item.sku,
      name: item.name,
      qty,
      price: total / qty,
      total_price: total,
      total_price_excl_tax: total,
      total_tax_amount: 0,
    };
  });
  const sum = lines.reduce((running, line) => running + line.total, 0);
  return {
    ...base,
    shipping_amount: 0,
    shipping_amount_excl_tax: 0,
    shipping_tax_amount: 0,
    grand_total: sum,
    grand_total_excl_tax: sum,
    tax_amount: 0,
    package_value: sum,
    items,
  };
}

/** The order without the totals it may leave out, so that only its lines speak. */
function withoutTotals<T extends object>(sent: T): T {
  const { grand_total, grand_total_excl_tax, package_value, ...rest } = sent as Record<
    string,
    unknown
  >;
  return rest as T;
}

for (const kind of databaseKinds()) {
  describe(`amounts on ${kind.name}`, () => {
    const served = servedPerDescribe(kind, SEED);

    const fieldOf = (body: { parameters?: { fieldName?: string }[] }) =>
      body.parameters?.[0]?.fieldName;

    it('an amount with more than 4 decimals is refused naming it, not rounded', async () => {
      const before = await served.database.snapshot();
      const sent = order('7001', [{ sku: 'SKU-1', total: 10 }]);
      (sent.items[0] as { price: number }).price = 10.12345;
      const reply = await served.post('/V1/salesOrders', { sales_order: sent });
      expect(reply.status).toBe(400);
      expect(fieldOf(reply.body)).toBe('sales_order.items[0].price');
      expect(reply.body.detail).toContain('at most 4 decimals');
      expect(await served.database.snapshot()).toEqual(before);
    });

    it('a credit of 25.50004 is refused naming the amount, not taken as 25.5', async () => {
      const taken = await served.post('/V1/salesOrders', {
        sales_order: order('7002', [{ sku: 'SKU-1', total: 25.5 }]),
      });
      expect(taken.status).toBe(201);
      const number = '7002-1';
      const items = await shipWhole(served, number);
      const item_id = items[0]?.item_id as number;
      const opened = await served.post('/V1/returns', {
        return: {
          rma_number: 'RMA-7002',
          sales_order_number: '7002',
          items: [{ fulfillment_order_number: number, item_id, qty: 1, reason: 'damaged' }],
        },
      });
      expect(opened.status).toBe(201);
      const received = await served.post('/V1/return/receive', {
        receipt: {
          rma_number: 'RMA-7002',
          receipt_number: 'R-1',
          items: [{ item_id, qty_restocked: 1 }],
        },
      });
      expect(received.status).toBe(200);
      const before = await served.database.snapshot();
      const credit = (amount_incl_tax: number) => ({
        credit: {
          rma_number: 'RMA-7002',
          credit_note_number: 'CN-1',
          items: [{ item_id }],
          amount_incl_tax,
        },
      });
      const refused = await served.post('/V1/return/credit', credit(25.50004));
      expect(refused.status).toBe(400);
      expect(fieldOf(refused.body)).toBe('credit.amount_incl_tax');
      expect(await served.database.snapshot()).toEqual(before);
      expect((await served.post('/V1/return/credit', credit(25.5))).status).toBe(200);
    });

    it('past the maximum amount, or lines adding up past it, only that batch entry is refused', async () => {
      const reply = await served.post('/V1/salesOrders/batch', {
        sales_orders: [
          order('7101', [{ sku: 'SKU-1', total: 12.5 }]),
          order('7102', [{ sku: 'SKU-1', total: MAX_AMOUNT + 1 }]),
          // Each line within the maximum, their sum past it; no order total sent to refuse first.
          withoutTotals(
            order('7103', [
              { sku: 'SKU-1', total: 600_000_000 },
              { sku: 'SKU-2', total: 600_000_000 },
            ]),
          ),
          // Past 900 billion: the sum no longer fitted the integers totals are kept in.
          order('7104', [
            { sku: 'SKU-1', total: 500_000_000_000 },
            { sku: 'SKU-2', total: 500_000_000_000 },
          ]),
          order('7105', [{ sku: 'SKU-1', total: 300, qty: 3 }]),
        ],
      });
      expect(reply.status).toBe(200);
      expect(reply.body.map((entry: { status: number }) => entry.status)).toEqual([
        201, 400, 400, 400, 201,
      ]);
      expect(fieldsOf(reply.body[1].error)).toContain('sales_orders[1].items[0].total_price');
      expect(fieldsOf(reply.body[2].error)).toContain('sales_orders[2].items[1].total_price');
      expect(fieldsOf(reply.body[3].error)).toContain('sales_orders[3].items[0].total_price');
      expect(reply.body[2].error.detail).toContain(`must add up to at most ${MAX_AMOUNT}`);
    });

    it('an order of the maximum amount is split, rejected and canceled without a fault', async () => {
      const half = MAX_AMOUNT / 2;
      const taken = await served.post('/V1/salesOrders', {
        sales_order: order('7201', [
          { sku: 'SKU-1', total: half, qty: 2 },
          { sku: 'SKU-2', total: half },
        ]),
      });
      expect(taken.status).toBe(201);
      const forms = taken.body.fulfillment_orders as { fulfillment_order_number: string }[];
      expect(forms.length).toBe(2);
      const [first, second] = await Promise.all(
        ['7201-1', '7201-2'].map((number) => served.engine.getOrder('default', number)),
      );
      const rejected = await served.post('/V1/fulfillmentOrder/reject', {
        order: { order_id: '7201-2', items: second?.items.map((item) => ({ item_id: item.id })) },
      });
      expect(rejected.status).toBe(200);
      const canceled = await served.post('/V1/salesOrder/cancel', {
        cancellation: {
          sales_order_number: '7201',
          reason: 'customer',
          items: [{ fulfillment_order_number: '7201-1', item_id: first?.items[0]?.id }],
        },
      });
      expect(canceled.status).toBe(200);
    });
  });
}
