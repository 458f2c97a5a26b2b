import { describe, expect, it } from 'vitest';
import {
  accept,
  cancel,
  type Invoice,
  type Item,
  liveTotalsUpgrade,
  type OrderAmounts,
  partAmounts,
  reject,
  toMoney,
  totalsOfLiveLines,
} from '../src/index.js';
import { context, LATER, line, NOW, order } from './support/order.js';

/** Amounts as the shop writes them, in ten-thousandths as the engine keeps them. */
function money(amounts: Record<string, number>): OrderAmounts {
  return Object.fromEntries(
    Object.entries(amounts).map(([field, amount]) => [field, toMoney(amount)]),
  );
}

/** A line with explicit totals (price and tax as a shop with its own rounding sends them). */
function priced(id: number, total: number, excl: number, tax: number, status?: Item['status']) {
  const base = line(id, { qty: 1 });
  return {
    ...base,
    status: status ?? base.status,
    amounts: {
      ...base.amounts,
      total_price: toMoney(total),
      total_price_excl_tax: toMoney(excl),
      total_tax_amount: toMoney(tax),
    },
  };
}

// The demo's 100005001: two lines and shipping 6.90; every figure as the shop sent it.
const SALES = money({
  shipping_amount: 6.9,
  shipping_amount_excl_tax: 5.66,
  shipping_tax_amount: 1.24,
  shipping_tax_rate: 22,
  grand_total: 60.8,
  grand_total_excl_tax: 49.84,
  tax_amount: 10.96,
  cod_amount: 0,
  package_value: 53.9,
});

describe('docs/behaviour.md: totals follow the live lines', () => {
  it('package_value is the live lines, grand_total that plus shipping, excl. tax and tax likewise', () => {
    const lines = [priced(1, 29.9, 24.51, 5.39), priced(2, 24, 19.67, 4.33, 'rejected')];
    expect(totalsOfLiveLines(SALES, lines)).toEqual({
      ...SALES,
      package_value: toMoney(29.9),
      grand_total: toMoney(36.8),
      grand_total_excl_tax: toMoney(30.17),
      tax_amount: toMoney(6.63),
    });
  });

  it('sums exactly in minor units: ten lines of 0.1 are 1, not 0.9999999999999999', () => {
    const lines = Array.from({ length: 11 }, (_, index) =>
      priced(index + 1, 0.1, 0.082, 0.018, index === 10 ? 'canceled' : 'pending_allocation'),
    );
    const totals = totalsOfLiveLines(money({ shipping_amount: 0.7 }), lines);
    expect(totals.package_value).toBe(10_000);
    expect(totals.grand_total).toBe(17_000);
    expect(totals.grand_total_excl_tax).toBe(8_200);
    expect(totals.tax_amount).toBe(1_800);
  });

  it('no live line left: package_value 0, grand_total the shipping the order carries', () => {
    const lines = [
      priced(1, 29.9, 24.51, 5.39, 'rejected'),
      priced(2, 24, 19.67, 4.33, 'canceled'),
    ];
    expect(totalsOfLiveLines(SALES, lines)).toMatchObject({
      package_value: 0,
      grand_total: toMoney(6.9),
      grand_total_excl_tax: toMoney(5.66),
      tax_amount: toMoney(1.24),
    });
  });

  it('a non-zero cod_amount that equalled grand_total follows it; a zero or a partial one stays', () => {
    const lines = [priced(1, 29.9, 24.51, 5.39), priced(2, 24, 19.67, 4.33, 'rejected')];
    const full = totalsOfLiveLines({ ...SALES, cod_amount: toMoney(60.8) }, lines);
    expect(full.cod_amount).toBe(toMoney(36.8));
    // Applying it again changes nothing: the cod still equals the total it follows.
    expect(totalsOfLiveLines(full, lines)).toEqual(full);
    expect(totalsOfLiveLines(SALES, lines).cod_amount).toBe(0);
    expect(totalsOfLiveLines({ ...SALES, cod_amount: toMoney(20) }, lines).cod_amount).toBe(
      toMoney(20),
    );
  });

  it('a total no line carries an amount for stays as it was; the lines never change', () => {
    const bare = [
      { ...line(1), amounts: {} },
      { ...line(2), amounts: {}, status: 'rejected' as const },
    ];
    expect(totalsOfLiveLines(SALES, bare)).toEqual(SALES);
    const lines = [priced(1, 29.9, 24.51, 5.39), priced(2, 24, 19.67, 4.33, 'rejected')];
    const copy = structuredClone(lines);
    totalsOfLiveLines(SALES, lines);
    expect(lines).toEqual(copy);
  });

  it('a new order of some lines counts them all, rejected where they came from or not', () => {
    const rerouted = [priced(2, 24, 19.67, 4.33, 'rejected')];
    expect(partAmounts(rerouted, null)).toMatchObject({
      shipping_amount: 0,
      package_value: toMoney(24),
      grand_total: toMoney(24),
      tax_amount: toMoney(4.33),
    });
    expect(partAmounts(rerouted, null, true).cod_amount).toBe(toMoney(24));
    expect(partAmounts(rerouted, null).cod_amount).toBeUndefined();
  });
});

describe('docs/behaviour.md: every action that drops lines applies it', () => {
  const twoLines = () =>
    order([priced(1, 20, 16.4, 3.6), priced(2, 10, 8.2, 1.8)], {
      amounts: money({
        shipping_amount: 5,
        shipping_amount_excl_tax: 4.1,
        shipping_tax_amount: 0.9,
        grand_total: 35,
        grand_total_excl_tax: 28.7,
        tax_amount: 6.3,
        cod_amount: 35,
        package_value: 30,
      }),
    });

  it('accept with qty 0: the totals drop the line, the audit records before and after', () => {
    const outcome = accept(
      twoLines(),
      {
        order_id: '100001-1',
        items: [
          { item_id: 1, qty: 1 },
          { item_id: 2, qty: 0 },
        ],
      },
      context({ partial_items: true }),
    );
    expect(outcome.order.amounts).toMatchObject(
      money({
        package_value: 20,
        grand_total: 25,
        grand_total_excl_tax: 20.5,
        tax_amount: 4.5,
        cod_amount: 25,
      }),
    );
    expect(outcome.details.totals).toEqual({
      before: {
        package_value: 30,
        grand_total: 35,
        grand_total_excl_tax: 28.7,
        tax_amount: 6.3,
        cod_amount: 35,
      },
      after: {
        package_value: 20,
        grand_total: 25,
        grand_total_excl_tax: 20.5,
        tax_amount: 4.5,
        cod_amount: 25,
      },
    });
  });

  it('accept in full keeps the totals as the shop gave them, even when they are not the sum', () => {
    const given = twoLines();
    given.amounts = { ...given.amounts, grand_total: toMoney(33) }; // a discount
    const outcome = accept(
      given,
      {
        order_id: '100001-1',
        items: [
          { item_id: 1, qty: 1 },
          { item_id: 2, qty: 1 },
        ],
      },
      context(),
    );
    expect(outcome.order.amounts).toEqual(given.amounts);
    expect(outcome.details).not.toHaveProperty('totals');
  });

  it('reject and cancel drop the lines they take out', () => {
    const rejected = reject(
      twoLines(),
      { order_id: '100001-1', items: [{ item_id: 2 }] },
      context({ partial_items: true }),
    );
    expect(rejected.order.amounts.package_value).toBe(toMoney(20));
    expect(rejected.order.amounts.grand_total).toBe(toMoney(25));

    const canceled = cancel(twoLines(), LATER);
    expect(canceled.order.amounts).toMatchObject(
      money({
        package_value: 0,
        grand_total: 5,
        grand_total_excl_tax: 4.1,
        tax_amount: 0.9,
        cod_amount: 5,
      }),
    );
    expect(canceled.details.totals).toBeDefined();
  });
});

describe('docs/operations.md: an upgrade brings older orders to the rule', () => {
  // As the release before left an order whose line 2 was rejected: its totals still count it.
  const leftAsItWas = () =>
    order(
      [priced(1, 29.9, 24.51, 5.39, 'pending_allocation'), priced(2, 24, 19.67, 4.33, 'rejected')],
      {
        amounts: SALES,
      },
    );

  it('an order not invoiced gets the totals of its live lines, updated now, and the audit says what changed', () => {
    const upgraded = liveTotalsUpgrade(leftAsItWas(), LATER);
    expect(upgraded?.order.amounts).toEqual(totalsOfLiveLines(SALES, leftAsItWas().items));
    expect(upgraded?.order.amounts.grand_total).toBe(toMoney(36.8));
    expect(upgraded?.order.updated_at).toBe(LATER);
    expect(upgraded?.order.items).toEqual(leftAsItWas().items);
    expect(upgraded?.details.totals.before).toMatchObject({
      grand_total: 60.8,
      package_value: 53.9,
    });
    expect(upgraded?.details.totals.after).toMatchObject({
      grand_total: 36.8,
      package_value: 29.9,
    });
  });

  it('leaves an order with an invoice, one whose lines are all live, and one already following them', () => {
    const invoice: Invoice = {
      id: 1,
      invoice_number: 'INV-1',
      item_ids: [1],
      shipping_amount_incl_tax: toMoney(6.9),
      invoice_time: null,
      additional_data: null,
      doc_binary: null,
      created_at: NOW,
    };
    const invoiced = order(leftAsItWas().items, { amounts: SALES, invoices: [invoice] });
    expect(liveTotalsUpgrade(invoiced, LATER)).toBeNull();
    const allLive = order([priced(1, 29.9, 24.51, 5.39), priced(2, 24, 19.67, 4.33)], {
      amounts: { ...SALES, grand_total: toMoney(99) },
    });
    expect(liveTotalsUpgrade(allLive, LATER)).toBeNull();
    const upgraded = liveTotalsUpgrade(leftAsItWas(), LATER)?.order;
    expect(upgraded && liveTotalsUpgrade(upgraded, LATER)).toBeNull();
  });
});
