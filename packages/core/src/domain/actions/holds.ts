import type { Timestamp } from '../timestamp.js';
import type { FulfillmentOrder, HoldReason, OrderHold, OrderStatus } from '../types.js';
import { type ActionOutcome, touch, unchanged } from './outcome.js';

/**
 * Holds (docs/channel-guide.md): a held fulfillment order is in no queue and takes no action
 * until its last hold is released. Only an order no line of which has been allocated yet can be
 * held: past that, the goods may already be on their way.
 */

const HOLDABLE: readonly OrderStatus[] = [
  'pending_accept',
  'partially_accepted',
  'pending_allocation',
];

export function activeHolds(order: Pick<FulfillmentOrder, 'holds'>): OrderHold[] {
  return order.holds.filter((hold) => hold.released_at === null);
}

export function isHeld(order: Pick<FulfillmentOrder, 'holds'>): boolean {
  return order.holds.some((hold) => hold.released_at === null);
}

/** Why the order cannot be held now, or null when it can. */
export function whyNotHoldable(order: FulfillmentOrder): string | null {
  if (order.failure) return 'failed';
  if (!HOLDABLE.includes(order.status)) return order.status;
  return null;
}

export interface NewHold {
  handle: string;
  reason: HoldReason;
  note: string | null;
}

/** Places the hold; a handle the order already knows (active or released) changes nothing. */
export function placeHold(
  order: FulfillmentOrder,
  hold: NewHold,
  by: string,
  now: Timestamp,
): ActionOutcome {
  if (order.holds.some((known) => known.handle === hold.handle)) return unchanged(order);
  const placed: OrderHold = {
    ...hold,
    placed_by: by,
    placed_at: now,
    released_by: null,
    released_at: null,
  };
  return {
    order: touch({ ...order, holds: [...order.holds, placed] }, now),
    changed: true,
    stock: [],
    rejected: [],
    details: { handle: hold.handle, reason: hold.reason, note: hold.note },
  };
}

/**
 * Releases the hold of this handle; one released already, or one the order never had, changes
 * nothing. With no active hold left the order is back in its queues (queues.ts).
 */
export function releaseHold(
  order: FulfillmentOrder,
  handle: string,
  by: string,
  now: Timestamp,
): ActionOutcome {
  const active = order.holds.find((hold) => hold.handle === handle && hold.released_at === null);
  if (!active) return unchanged(order);
  const holds = order.holds.map((hold) =>
    hold === active ? { ...hold, released_by: by, released_at: now } : hold,
  );
  const next = touch({ ...order, holds }, now);
  return {
    order: next,
    changed: true,
    stock: [],
    rejected: [],
    details: { handle, still_held: activeHolds(next).map((hold) => hold.handle) },
  };
}
