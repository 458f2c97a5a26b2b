import { isLive } from './item-stage.js';
import { fromMoney } from './money.js';
import type { Timestamp } from './timestamp.js';
import type { FulfillmentOrder, Item, ItemAmounts, OrderAmounts } from './types.js';

/**
 * Totals follow the live lines (docs/behaviour.md): an order's totals are what its live lines
 * charge, plus the shipping it carries, so the fulfillment orders of one sales order never add up
 * to more than the sales order. The lines' own amounts never change.
 */

type Total = 'package_value' | 'grand_total' | 'grand_total_excl_tax' | 'tax_amount';

const TOTALS: readonly {
  total: Total;
  line: keyof ItemAmounts;
  shipping?: keyof OrderAmounts;
}[] = [
  { total: 'package_value', line: 'total_price' },
  { total: 'grand_total', line: 'total_price', shipping: 'shipping_amount' },
  {
    total: 'grand_total_excl_tax',
    line: 'total_price_excl_tax',
    shipping: 'shipping_amount_excl_tax',
  },
  { total: 'tax_amount', line: 'total_tax_amount', shipping: 'shipping_tax_amount' },
];

/**
 * The amounts of an order whose lines are `lines`, given what it charged so far: each total is
 * the sum of the live lines' amount (plus the order's shipping for the grand totals and tax), and
 * a non-zero `cod_amount` that equalled `grand_total` follows it. A total none of the lines
 * carries an amount for stays as it was: nothing says what it should become. `live` says which
 * lines count; a new order's lines all do, whatever the order they come from made of them.
 */
export function totalsOfLiveLines(
  amounts: OrderAmounts,
  lines: readonly Item[],
  live: (item: Item) => boolean = isLive,
): OrderAmounts {
  const next: OrderAmounts = { ...amounts };
  const counted = lines.filter(live);
  for (const { total, line, shipping } of TOTALS) {
    if (lines.every((item) => item.amounts[line] === undefined)) continue;
    // Integer minor units: the sum is exact, whatever the number of lines.
    let sum = counted.reduce((running, item) => running + (item.amounts[line] ?? 0), 0);
    if (shipping) sum += amounts[shipping] ?? 0;
    next[total] = sum;
  }
  if (codFollowsTotal(amounts)) next.cod_amount = next.grand_total;
  return next;
}

/** The order with its totals following its live lines: for every action that drops lines. */
export function withLiveTotals(order: FulfillmentOrder): FulfillmentOrder {
  return { ...order, amounts: totalsOfLiveLines(order.amounts, order.items) };
}

/** Whether cash on delivery covers the whole order, so that it follows the goods it pays for. */
export function codFollowsTotal(amounts: OrderAmounts): boolean {
  return (
    amounts.cod_amount !== undefined &&
    amounts.cod_amount !== 0 &&
    amounts.cod_amount === amounts.grand_total
  );
}

type Shown = Record<string, number | null>;

/**
 * An order taken in before totals followed the live lines, whose totals still count lines it
 * dropped, brought to the rule (docs/operations.md, "Upgrades"): the order with the totals of its
 * live lines and `updated_at` at `now`, and what the audit event records (`totals` before and
 * after). Null when nothing is to change: it has an invoice (fiscal history, never rewritten),
 * all its lines are live (then its totals never follow them), or its totals follow them already.
 */
export function liveTotalsUpgrade(
  order: FulfillmentOrder,
  now: Timestamp,
): { order: FulfillmentOrder; details: { totals: { before: Shown; after: Shown } } } | null {
  if (order.invoices.length > 0 || order.items.every(isLive)) return null;
  const live = withLiveTotals(order);
  const { totals } = totalsAudit(order, live);
  return totals ? { order: { ...live, updated_at: now }, details: { totals } } : null;
}

/**
 * For the audit trail of an action that dropped lines: the totals that changed, before and
 * after, in the API's units; nothing when none did.
 */
export function totalsAudit(
  before: FulfillmentOrder,
  after: FulfillmentOrder,
): { totals?: { before: Shown; after: Shown } } {
  const fields = [...TOTALS.map(({ total }) => total), 'cod_amount' as const].filter(
    (field) => before.amounts[field] !== after.amounts[field],
  );
  if (fields.length === 0) return {};
  const shown = (amounts: OrderAmounts): Shown =>
    Object.fromEntries(
      fields.map((field) => {
        const amount = amounts[field];
        return [field, amount === undefined ? null : fromMoney(amount)];
      }),
    );
  return { totals: { before: shown(before.amounts), after: shown(after.amounts) } };
}
