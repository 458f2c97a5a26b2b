import {
  canApply,
  ITEM_TRANSITIONS,
  type ItemAction,
  isApplied,
} from '../../state-machine/transitions.js';
import { DomainError, fieldError } from '../errors.js';
import { isLive } from '../item-stage.js';
import { partialItemsEnabled } from '../partials.js';
import type { FulfillmentOrder, Item, StoreSettings } from '../types.js';
import { activeHolds, isHeld } from './holds.js';

export interface Selected<TEntry> {
  entry: TEntry;
  item: Item;
  /** Position of the entry in the request's items[], for field paths. */
  index: number;
}

export interface Selection<TEntry> {
  /** Entries whose items are in the action's stage. */
  pending: Selected<TEntry>[];
  /** Entries whose effect is already applied: a retry. */
  applied: Selected<TEntry>[];
}

/** The checks every action makes before its own: the order is in the flow. */
export function assertInFlow(order: FulfillmentOrder, body: string): void {
  if (order.failure) {
    throw fieldError(
      'order_failed',
      'Order %fieldValue is in the failed queue; no action applies to it until an operator requeues it.',
      `${body}.order_id`,
      order.fulfillment_order_number,
    );
  }
  if (isHeld(order)) {
    const handles = activeHolds(order).map((hold) => `${hold.handle} (${hold.reason})`);
    throw fieldError(
      'order_on_hold',
      `Order %fieldValue is on hold (${handles.join(', ')}); no action applies to it until its holds are released.`,
      `${body}.order_id`,
      order.fulfillment_order_number,
    );
  }
}

/**
 * Resolves the request's entries to the order's items and sorts them into pending and already
 * applied. Throws for an unknown item (spec accept rule 5), for an item in the wrong stage, for
 * an item where a contradicting action was applied, and for a subset when partials are off
 * (spec rule 3).
 *
 * @param body the request's body key (`order`, `allocation`, …), for field paths
 * @param actionOf the action one entry asks for, when it differs from entry to entry (accept with
 *   qty 0 is a reject)
 */
export function selectItems<TEntry extends { item_id: number }>(
  order: FulfillmentOrder,
  entries: readonly TEntry[],
  action: ItemAction,
  body: string,
  settings: StoreSettings,
  actionOf: (entry: TEntry) => ItemAction = () => action,
): Selection<TEntry> {
  const selection: Selection<TEntry> = { pending: [], applied: [] };
  entries.forEach((entry, index) => {
    const wanted = actionOf(entry);
    const field = `${body}.items[${index}].item_id`;
    const item = order.items.find((candidate) => candidate.id === entry.item_id);
    if (!item) {
      throw fieldError(
        'unknown_item',
        'Item %fieldValue does not belong to this order.',
        field,
        entry.item_id,
      );
    }
    if (canApply(wanted, item.status)) selection.pending.push({ entry, item, index });
    else if (isApplied(wanted, item.status)) selection.applied.push({ entry, item, index });
    // A live item short of the stage is early; anything else was already decided otherwise.
    else if (!isLive(item) || wanted === 'reject') {
      throw fieldError(
        'conflicts_with_applied',
        `Item %fieldValue is already ${item.status}, which contradicts ${wanted}.`,
        field,
        entry.item_id,
      );
    } else {
      throw fieldError(
        'wrong_stage',
        `Item %fieldValue is ${item.status}; ${wanted} applies to items in ${ITEM_TRANSITIONS[wanted].from.join(' or ')}.`,
        field,
        entry.item_id,
      );
    }
  });
  if (!partialItemsEnabled(order, settings)) assertCoversStage(order, entries, action, body);
  return selection;
}

function assertCoversStage(
  order: FulfillmentOrder,
  entries: readonly { item_id: number }[],
  action: ItemAction,
  body: string,
): void {
  const listed = new Set(entries.map((entry) => entry.item_id));
  const omitted = order.items.filter(
    (item) => canApply(action, item.status) && !listed.has(item.id),
  );
  if (omitted.length > 0) {
    throw new DomainError(
      'partial_not_allowed',
      'Partial operations are not enabled for this order: %fieldName must list every item, missing %fieldValue.',
      [{ fieldName: `${body}.items`, fieldValue: omitted.map((item) => item.id).join(',') }],
    );
  }
}
