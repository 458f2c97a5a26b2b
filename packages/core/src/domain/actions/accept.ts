import { fieldError } from '../errors.js';
import { splitLine } from '../item-line.js';
import { freedReservations } from '../item-stage.js';
import { totalsAudit, withLiveTotals } from '../live-totals.js';
import { partialQtyEnabled } from '../partials.js';
import type { FulfillmentOrder, Item } from '../types.js';
import { assertInFlow, selectItems } from './item-selection.js';
import { type ActionContext, type ActionOutcome, touch, unchanged } from './outcome.js';
import { rejectLine } from './reject.js';

/** An accept request's order once parsed: the quantity to accept of each listed line. */
export interface ParsedAccept {
  order_id: string;
  items: { item_id: number; qty: number }[];
}

/**
 * POST accept (spec accept rules 1–5, docs/behaviour.md): qty > 0 accepts that quantity (reserved
 * since the line was routed), qty = 0 rejects the line, a smaller qty (with partial quantities)
 * accepts part and rejects the rest as a new line; what is rejected frees its reservation.
 */
export function accept(
  order: FulfillmentOrder,
  input: ParsedAccept,
  context: ActionContext,
): ActionOutcome {
  assertInFlow(order, 'order');
  const selection = selectItems(order, input.items, 'accept', 'order', context.settings, (entry) =>
    entry.qty === 0 ? 'reject' : 'accept',
  );
  for (const { entry, item, index } of selection.applied) {
    if (entry.qty > 0 && entry.qty !== item.qty) {
      throw fieldError(
        'conflicts_with_applied',
        `Item ${item.id} was already accepted with qty ${item.qty}; %fieldName cannot change it.`,
        `order.items[${index}].qty`,
        entry.qty,
      );
    }
  }
  if (selection.pending.length === 0) return unchanged(order);

  const partialQty = partialQtyEnabled(order, context.settings);
  const decided = new Map<number, Item[]>();
  const rejected: Item[] = [];
  const accepted: { item_id: number; qty: number }[] = [];
  for (const { entry, item, index } of selection.pending) {
    if (entry.qty === 0) {
      const line = rejectLine(item, order.warehouse_code);
      decided.set(item.id, [line]);
      rejected.push(line);
      continue;
    }
    if (entry.qty > item.qty || (entry.qty < item.qty && !partialQty)) {
      throw fieldError(
        'qty_mismatch',
        entry.qty > item.qty
          ? `%fieldName exceeds the ordered qty ${item.qty} of item ${item.id}.`
          : `%fieldName must equal the ordered qty ${item.qty} of item ${item.id}: partial quantities are not enabled for this order.`,
        `order.items[${index}].qty`,
        entry.qty,
      );
    }
    const { kept, rest } =
      entry.qty < item.qty ? splitLine(item, entry.qty) : { kept: item, rest: null };
    const lines: Item[] = [{ ...kept, status: 'pending_allocation' }];
    if (rest) {
      const line = rejectLine(rest, order.warehouse_code);
      lines.push(line);
      rejected.push(line);
    }
    decided.set(item.id, lines);
    accepted.push({ item_id: item.id, qty: entry.qty });
  }

  const items = order.items.flatMap((item) => decided.get(item.id) ?? [item]);
  // Only lines that stop being live move the totals: otherwise they stay as the shop gave them.
  const next = rejected.length ? withLiveTotals({ ...order, items }) : { ...order, items };
  return {
    order: touch(next, context.now),
    changed: true,
    // The lines as they were routed: what is turned down frees the reservation they held.
    stock: freedReservations(rejected.map((line) => ({ ...line, status: 'pending_accept' }))),
    rejected,
    details: {
      accepted,
      rejected: rejected.map((line) => ({
        item_id: line.id || null,
        sku: line.sku,
        qty: line.qty,
      })),
      ...totalsAudit(order, next),
    },
  };
}
