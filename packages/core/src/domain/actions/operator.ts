import { canApply } from '../../state-machine/transitions.js';
import { DomainError } from '../errors.js';
import { holdsReservation, isLive } from '../item-stage.js';
import { totalsAudit, withLiveTotals } from '../live-totals.js';
import type { Timestamp } from '../timestamp.js';
import type { FailureStage, FulfillmentOrder, StockDelta } from '../types.js';
import { type ActionOutcome, touch, unchanged } from './outcome.js';

/** Operator interventions (docs/behaviour.md): failing, requeueing, abandoning, canceling an order. */

/** The stage an order fails in, read from its least advanced live line. */
export function currentFailureStage(order: FulfillmentOrder): FailureStage {
  const live = order.items.filter(isLive).map((item) => item.status);
  if (live.includes('pending_accept') || live.includes('pending_allocation')) return 'allocation';
  if (live.includes('pending_shipment')) return 'shipment';
  return 'invoice';
}

function releaseReservations(order: FulfillmentOrder): StockDelta[] {
  return order.items
    .filter((item) => holdsReservation(item.status))
    .map((item) => ({
      warehouse_code: item.warehouse_code,
      sku: item.sku,
      on_hand: 0,
      reserved: -item.qty,
    }));
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
    stock: releaseReservations(order),
    rejected: [],
    details: {},
  };
}

/**
 * Cancels every line that has not shipped yet and frees the stock it held. A failed order leaves
 * the failed queue this way too: what shipped before still awaits its invoice.
 */
export function cancel(order: FulfillmentOrder, now: Timestamp): ActionOutcome {
  const open = order.items.filter((item) => canApply('cancel', item.status));
  if (open.length === 0) {
    if (order.status === 'canceled') return unchanged(order);
    throw new DomainError(
      'wrong_stage',
      `Order ${order.fulfillment_order_number} has no line left to cancel.`,
    );
  }
  const items = order.items.map((item) =>
    canApply('cancel', item.status) ? { ...item, status: 'canceled' as const } : item,
  );
  const next = withLiveTotals({
    ...order,
    items,
    failure: null,
    courier: { ...order.courier, next_attempt_at: null },
  });
  return {
    order: touch(next, now),
    changed: true,
    // Abandoning already freed the stock of an abandoned order.
    stock: order.failure?.abandoned ? [] : releaseReservations(order),
    rejected: [],
    details: { items: open.map((item) => item.id), ...totalsAudit(order, next) },
  };
}
