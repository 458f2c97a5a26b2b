import { freedReservations } from '../item-stage.js';
import { totalsAudit, withLiveTotals } from '../live-totals.js';
import type { FulfillmentOrder, Item } from '../types.js';
import { assertInFlow, selectItems } from './item-selection.js';
import { type ActionContext, type ActionOutcome, touch, unchanged } from './outcome.js';

/** A reject request's order once parsed: the lines turned down. */
export interface ParsedReject {
  order_id: string;
  items: { item_id: number }[];
}

/** A line turned down by `warehouse`: it remembers so that rerouting never sends it back there. */
export function rejectLine(item: Item, warehouse: string): Item {
  const rejectedBy = item.rejected_by.includes(warehouse)
    ? item.rejected_by
    : [...item.rejected_by, warehouse];
  return { ...item, status: 'rejected', rejected_by: rejectedBy };
}

/** POST reject: the listed lines are turned down, freeing the stock reserved when they were routed. */
export function reject(
  order: FulfillmentOrder,
  input: ParsedReject,
  context: ActionContext,
): ActionOutcome {
  assertInFlow(order, 'order');
  const selection = selectItems(order, input.items, 'reject', 'order', context.settings);
  if (selection.pending.length === 0) return unchanged(order);
  const ids = new Set(selection.pending.map(({ item }) => item.id));
  const items = order.items.map((item) =>
    ids.has(item.id) ? rejectLine(item, order.warehouse_code) : item,
  );
  const rejected = items.filter((item) => ids.has(item.id));
  const freed = freedReservations(order.items.filter((item) => ids.has(item.id)));
  const next = withLiveTotals({ ...order, items });
  return {
    order: touch(next, context.now),
    changed: true,
    stock: freed,
    rejected,
    details: {
      rejected: rejected.map((line) => ({ item_id: line.id, sku: line.sku, qty: line.qty })),
      ...totalsAudit(order, next),
    },
  };
}
