import { canApply } from '../../state-machine/transitions.js';
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

/**
 * An order with no line left to accept, allocate or ship (all canceled, rejected or shipped) is
 * held by nothing: a hold holds back what could still move, and a canceled order must not read as
 * on hold anywhere. Its active holds are released, by `by` at `now`, in the action that ended it.
 * Returns the order (the same object when nothing changes) and the handles released.
 */
export function releaseEndedHolds(
  order: FulfillmentOrder,
  by: string,
  now: Timestamp,
): { order: FulfillmentOrder; released: string[] } {
  const active = activeHolds(order);
  if (active.length === 0 || order.items.some((item) => canApply('cancel', item.status))) {
    return { order, released: [] };
  }
  const holds = order.holds.map((hold) =>
    hold.released_at === null ? { ...hold, released_by: by, released_at: now } : hold,
  );
  return { order: { ...order, holds }, released: active.map((hold) => hold.handle) };
}

/** What the upgrade writes on the timeline of an order it released holds of, and why. */
export const ENDED_HOLDS_UPGRADE = {
  actor: 'system',
  reason:
    'upgrade: a canceled order is held by nothing (migration 0022_label_carriers_and_ended_holds)',
} as const;

/**
 * An order canceled (or rejected) by a release before holds ended with it, still on hold, brought
 * to the rule (docs/operations.md, "Upgrades"): its holds released by the upgrade, `updated_at`
 * at `now`, one `release` entry per handle as a release writes it. Null when nothing changes.
 */
export function endedHoldsUpgrade(
  order: FulfillmentOrder,
  now: Timestamp,
): { order: FulfillmentOrder; details: Record<string, unknown>[] } | null {
  const { order: released, released: handles } = releaseEndedHolds(
    order,
    ENDED_HOLDS_UPGRADE.actor,
    now,
  );
  if (handles.length === 0) return null;
  return {
    order: { ...released, updated_at: now },
    details: handles.map((handle, index) => ({ handle, still_held: handles.slice(index + 1) })),
  };
}
