import { DomainError } from '../errors.js';
import { freedReservations, isLive } from '../item-stage.js';
import type { Timestamp } from '../timestamp.js';
import type { FailureStage, FulfillmentOrder } from '../types.js';
import { cancelLines } from './cancellation.js';
import { type ActionOutcome, touch, unchanged } from './outcome.js';

/** Operator interventions (docs/behaviour.md): failing, requeueing, abandoning, canceling an order. */

/** The stage an order fails in, read from its least advanced live line. */
export function currentFailureStage(order: FulfillmentOrder): FailureStage {
  const live = order.items.filter(isLive).map((item) => item.status);
  if (live.includes('pending_accept') || live.includes('pending_allocation')) return 'allocation';
  if (live.includes('pending_shipment')) return 'shipment';
  return 'invoice';
}

/** Takes the order out of the active queues into the failed queue. Failing a failed order is a no-op. */
export function fail(
  order: FulfillmentOrder,
  reason: string,
  now: Timestamp,
  stage: FailureStage = currentFailureStage(order),
): ActionOutcome {
  if (order.failure) return unchanged(order);
  if (order.status === 'invoiced' || order.status === 'rejected' || order.status === 'canceled') {
    throw new DomainError(
      'wrong_stage',
      `Order ${order.fulfillment_order_number} is ${order.status}; it has left the flow.`,
    );
  }
  const failure = { stage, reason, abandoned: false, failed_at: now };
  return {
    order: touch({ ...order, failure }, now),
    changed: true,
    stock: [],
    rejected: [],
    details: { stage, reason },
  };
}

function assertFailed(order: FulfillmentOrder): NonNullable<FulfillmentOrder['failure']> {
  if (!order.failure) {
    throw new DomainError('wrong_stage', `Order ${order.fulfillment_order_number} is not failed.`);
  }
  if (order.failure.abandoned) {
    throw new DomainError(
      'wrong_stage',
      `Order ${order.fulfillment_order_number} was abandoned; it stays failed.`,
    );
  }
  return order.failure;
}

/** Puts a failed order back into the active queues its items are in; the courier tries afresh. */
export function requeue(order: FulfillmentOrder, now: Timestamp): ActionOutcome {
  assertFailed(order);
  const dueForCourier =
    order.courier.attempts > 0 && order.items.some((item) => item.status === 'pending_shipment');
  const courier = dueForCourier
    ? { attempts: 0, last_error: null, next_attempt_at: now }
    : order.courier;
  return {
    order: touch({ ...order, failure: null, courier }, now),
    changed: true,
    stock: [],
    rejected: [],
    details: {},
  };
}

/** Leaves a failed order failed for good and frees the stock it held. */
export function abandon(order: FulfillmentOrder, now: Timestamp): ActionOutcome {
  const failure = assertFailed(order);
  return {
    order: touch(
      {
        ...order,
        failure: { ...failure, abandoned: true },
        courier: { ...order.courier, next_attempt_at: null },
      },
      now,
    ),
    changed: true,
    stock: freedReservations(order.items),
    rejected: [],
    details: {},
  };
}

/** Where an operator's decision lands: whether the order's warehouse is a courier's, and who decides. */
export interface DecisionSite {
  courier: boolean;
  by: string;
}

/**
 * Cancels every line that has not shipped yet by the rules every cancellation follows
 * (cancellation.ts): lines a partner has accepted are requested of it, not canceled behind its
 * back. A failed order leaves the failed queue this way: what shipped before still awaits its
 * invoice.
 */
export function cancel(
  order: FulfillmentOrder,
  now: Timestamp,
  site: DecisionSite = { courier: false, by: 'operator' },
): ActionOutcome {
  return cancelLines(order, null, { ...site, reason: 'other', now });
}
