import {
  type CourierFailure,
  carrierDetails,
  describeCourierFailure,
} from '../../ports/courier.js';
import { later } from '../courier-labels.js';
import type { Timestamp } from '../timestamp.js';
import type { CourierState, FulfillmentOrder, Track } from '../types.js';
import { fail } from './operator.js';
import type { ActionContext, ActionOutcome } from './outcome.js';
import { ship } from './ship.js';

/** Courier dispatch for orders the service ships itself (docs/behaviour.md), as pure decisions. */

export interface CourierPolicy {
  max_attempts: number;
  /** Wait before the second attempt; doubles after each failure. */
  retry_base_ms: number;
  /** How long one dispatcher holds an order while its courier call is under way. */
  lease_ms: number;
  /**
   * How long before the lease runs out every carrier call of the attempt is given up: a call
   * still under way then could land after another dispatcher took over.
   */
  call_margin_ms: number;
}

/** How long the carrier calls of one attempt may take in all. */
export function callDeadlineMs(policy: Pick<CourierPolicy, 'lease_ms' | 'call_margin_ms'>): number {
  return Math.max(0, policy.lease_ms - policy.call_margin_ms);
}

/**
 * The courier state as an operator reads it: the last error is the order's state only while the
 * courier is still at it (lines await shipment) or the order failed at it; once the order has
 * moved past it (shipped, its lines canceled, failed elsewhere) the error is history, kept on the
 * timeline (`courier_retry`, `fail`) alone.
 */
export function currentCourierState(order: FulfillmentOrder): CourierState {
  const current = order.failure
    ? order.failure.stage === 'shipment'
    : order.items.some((item) => item.status === 'pending_shipment');
  return current ? order.courier : { ...order.courier, last_error: null, next_attempt_at: null };
}

/** Whether the courier is due for this order now: allocated lines wait and no one holds the lease. */
export function isCourierDue(order: FulfillmentOrder, now: Timestamp): boolean {
  return (
    order.failure === null &&
    order.courier.next_attempt_at !== null &&
    order.courier.next_attempt_at <= now &&
    order.items.some((item) => item.status === 'pending_shipment')
  );
}

/**
 * Claims the next attempt: pushes `next_attempt_at` past the lease so that every other
 * dispatcher (another worker, another process) leaves the order alone while this one calls the
 * courier. A dispatcher that dies mid-call is replaced once the lease runs out.
 */
export function claimCourierAttempt(
  order: FulfillmentOrder,
  now: Timestamp,
  leaseMs: number,
): FulfillmentOrder {
  return {
    ...order,
    courier: {
      ...order.courier,
      attempts: order.courier.attempts + 1,
      next_attempt_at: later(now, leaseMs),
    },
  };
}

/**
 * Whether the claim made as `claimed` still holds: nobody settled, canceled, failed or re-claimed
 * the order while its courier call was under way. Only then may the answer be recorded.
 */
export function isClaimHeld(order: FulfillmentOrder, claimed: FulfillmentOrder): boolean {
  return (
    order.failure === null &&
    order.courier.attempts === claimed.courier.attempts &&
    order.courier.next_attempt_at === claimed.courier.next_attempt_at &&
    order.items.some((item) => item.status === 'pending_shipment')
  );
}

/**
 * The courier's idempotency key for the next shipment of the order: the same for every attempt
 * at it (a retry, or another dispatcher taking over from one that died mid-call), so a courier
 * that honours it never books that shipment twice.
 */
export function courierShipmentKey(order: FulfillmentOrder): string {
  return `${order.fulfillment_order_number}/shipment-${order.shipments.length + 1}`;
}

/** The courier booked the shipment: every allocated line ships with its tracks. */
export function courierShipped(
  order: FulfillmentOrder,
  tracks: Track[],
  context: ActionContext,
): ActionOutcome {
  const items = order.items
    .filter((item) => item.status === 'pending_shipment')
    .map((item) => ({ item_id: item.id, qty: item.qty }));
  const outcome = ship(order, { order_id: order.fulfillment_order_number, items, tracks }, context);
  return { ...outcome, details: { ...outcome.details, courier: true } };
}

/**
 * The courier refused or did not answer: retry later with backoff (at least the carrier's wait),
 * or fail the order once attempts run out. A rate limit (`throttled`) gives the attempt back: 429s
 * alone never send an order to the failed queue.
 */
export function courierFailed(
  order: FulfillmentOrder,
  failure: CourierFailure,
  now: Timestamp,
  policy: CourierPolicy,
): ActionOutcome {
  const error = describeCourierFailure(failure);
  const throttled = failure.kind === 'retriable' && failure.throttled === true;
  const attempts = throttled ? Math.max(0, order.courier.attempts - 1) : order.courier.attempts;
  const carrier = carrierDetails(failure);
  if (!throttled && attempts >= policy.max_attempts) {
    const failed = fail(
      { ...order, courier: { ...order.courier, last_error: error, next_attempt_at: null } },
      `courier: ${error}`,
      now,
      'shipment',
    );
    return { ...failed, details: { ...failed.details, attempts, error, carrier } };
  }
  const carrierWait = failure.kind === 'retriable' ? (failure.wait_ms ?? 0) : 0;
  // A 429 gives its attempt back, so nothing else bounds how soon it comes again: at least 1 s.
  const wait = throttled
    ? Math.max(carrierWait, 1000)
    : Math.max(policy.retry_base_ms * 2 ** (attempts - 1), carrierWait);
  return {
    order: {
      ...order,
      courier: { attempts, last_error: error, next_attempt_at: later(now, wait) },
    },
    changed: true,
    stock: [],
    rejected: [],
    details: { attempts, error, carrier, retry_at: later(now, wait) },
  };
}
