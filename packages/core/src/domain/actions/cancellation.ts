import { canApply } from '../../state-machine/transitions.js';
import { DomainError, fieldError } from '../errors.js';
import { freedReservations } from '../item-stage.js';
import { totalsAudit, withLiveTotals } from '../live-totals.js';
import type { Timestamp } from '../timestamp.js';
import type {
  CancellationReason,
  CancellationRequest,
  FulfillmentOrder,
  Item,
  StockDelta,
} from '../types.js';
import { isHeld, releaseEndedHolds } from './holds.js';
import { assertInFlow } from './item-selection.js';
import { type ActionOutcome, touch, unchanged } from './outcome.js';

/**
 * Cancellation (docs/channel-guide.md, docs/partner-guide.md): a line nobody has accepted is
 * canceled at once; a line a partner has accepted is canceled only when that partner accepts a
 * cancellation request, so that no path cancels behind its back while it may be packing. For
 * each line exactly one of shipped or canceled: a ship of a requested line rejects the request
 * for that line (the others stay requested), and a request whose lines all shipped cannot be
 * accepted.
 */

export interface CancelBy {
  /** Who cancels: the token's or the operator's name. */
  by: string;
  reason: CancellationReason;
  /** The order's warehouse is a courier warehouse: no partner to ask, labels to void. */
  courier: boolean;
  now: Timestamp;
}

/** The order's open cancellation request, if any (always its last). */
export function openRequest(order: Pick<FulfillmentOrder, 'cancellation_requests'>) {
  const last = order.cancellation_requests.at(-1);
  return last?.status === 'open' ? last : undefined;
}

/**
 * How requests are listed: oldest first, then by id, so that the part of a request a ship refused
 * (stored just before the request it was part of, under a later id) comes after it.
 */
export function compareRequests(
  a: Pick<CancellationRequest, 'requested_at' | 'id'>,
  b: Pick<CancellationRequest, 'requested_at' | 'id'>,
): number {
  if (a.requested_at !== b.requested_at) return a.requested_at < b.requested_at ? -1 : 1;
  return a.id - b.id;
}

function releasing(lines: readonly Item[], abandoned: boolean): StockDelta[] {
  // Abandoning already freed the stock of an abandoned order.
  return abandoned ? [] : freedReservations(lines);
}

function withCanceled(order: FulfillmentOrder, ids: ReadonlySet<number>): FulfillmentOrder {
  const items = order.items.map((item) =>
    ids.has(item.id) ? { ...item, status: 'canceled' as const } : item,
  );
  const open = items.some((item) => canApply('cancel', item.status));
  return withLiveTotals({
    ...order,
    items,
    // A failed order with nothing left to do leaves the failed queue: what shipped before still
    // awaits its invoice.
    failure: open ? order.failure : null,
    courier: open ? order.courier : { ...order.courier, next_attempt_at: null },
  });
}

/**
 * The lines `ids` names (null: every line not shipped yet), each checked: a line of another order
 * or one that shipped is 400 at `fieldOf(index)`.
 */
function selectLines(
  order: FulfillmentOrder,
  ids: readonly number[] | null,
  fieldOf: (index: number) => string,
): Item[] {
  if (ids === null) return order.items.filter((item) => canApply('cancel', item.status));
  return ids.map((id, index) => {
    const item = order.items.find((candidate) => candidate.id === id);
    if (!item) {
      throw fieldError(
        'unknown_item',
        `Item %fieldValue is not a line of order ${order.fulfillment_order_number}.`,
        fieldOf(index),
        String(id),
      );
    }
    if (item.status === 'pending_invoice' || item.status === 'invoiced') {
      throw fieldError(
        'wrong_stage',
        'Item %fieldValue has shipped; a shipped line cannot be canceled, only returned.',
        fieldOf(index),
        String(id),
      );
    }
    return item;
  });
}

/**
 * Cancels lines of the order by the rules above. Where no partner can act on the order (a courier
 * warehouse, a failed or held order: none of them can be shipped by a partner now) every line is
 * canceled at once; otherwise lines still awaiting acceptance are, and accepted ones join the
 * order's open cancellation request (made now when there is none). Lines already canceled or
 * already requested change nothing.
 */
export function cancelLines(
  order: FulfillmentOrder,
  ids: readonly number[] | null,
  how: CancelBy,
  fieldOf: (index: number) => string = (index) => `cancellation.items[${index}].item_id`,
): ActionOutcome {
  const selected = selectLines(order, ids, fieldOf).filter((item) =>
    canApply('cancel', item.status),
  );
  if (ids === null && selected.length === 0 && order.status !== 'canceled') {
    throw new DomainError(
      'wrong_stage',
      `Order ${order.fulfillment_order_number} has no line left to cancel.`,
    );
  }
  const partnerCanAct = !how.courier && !order.failure && !isHeld(order);
  const open = openRequest(order);
  const requested = new Set(open?.item_ids ?? []);
  const now = selected.filter((item) => !partnerCanAct || item.status === 'pending_accept');
  const ask = selected.filter(
    (item) => partnerCanAct && item.status !== 'pending_accept' && !requested.has(item.id),
  );
  if (now.length === 0 && ask.length === 0) return unchanged(order);

  let next = withCanceled(order, new Set(now.map((item) => item.id)));
  if (ask.length > 0) {
    const request: CancellationRequest = open
      ? { ...open, item_ids: [...open.item_ids, ...ask.map((item) => item.id)] }
      : {
          id: order.cancellation_requests.length + 1,
          reason: how.reason,
          item_ids: ask.map((item) => item.id),
          requested_by: how.by,
          requested_at: how.now,
          status: 'open',
          message: null,
          answered_by: null,
          answered_at: null,
        };
    next = { ...next, cancellation_requests: replaceLast(next, request, !open) };
  } else {
    next = settleOpenRequest(next, how.by, how.now);
  }
  const ended = releaseEndedHolds(next, how.by, how.now);
  next = ended.order;
  const details: Record<string, unknown> = {
    reason: how.reason,
    items: now.map((item) => item.id),
    ...totalsAudit(order, next),
  };
  if (ask.length > 0) {
    details.cancellation_request = openRequest(next)?.id;
    details.requested = ask.map((item) => item.id);
  }
  if (ended.released.length > 0) details.released_holds = ended.released;
  return {
    order: touch(next, how.now),
    changed: true,
    stock: releasing(now, order.failure?.abandoned === true),
    rejected: [],
    details,
  };
}

function replaceLast(
  order: FulfillmentOrder,
  request: CancellationRequest,
  append: boolean,
): CancellationRequest[] {
  const requests = order.cancellation_requests;
  return append ? [...requests, request] : [...requests.slice(0, -1), request];
}

/**
 * The open request once lines of it were canceled at once (the order being out of its partner's
 * hands, as when held): it no longer asks for those, so that the partner is never asked to
 * cancel a line that is canceled already; when none is left it is closed as accepted, what it
 * asked for being done.
 */
function settleOpenRequest(order: FulfillmentOrder, by: string, now: Timestamp): FulfillmentOrder {
  const open = openRequest(order);
  if (!open) return order;
  const left = open.item_ids.filter((id) =>
    order.items.some((item) => item.id === id && canApply('cancel', item.status)),
  );
  if (left.length === open.item_ids.length) return order;
  const settled =
    left.length === 0
      ? { ...open, status: 'accepted' as const, answered_by: by, answered_at: now }
      : { ...open, item_ids: left };
  return { ...order, cancellation_requests: replaceLast(order, settled, false) };
}

/** Checks an answer may be given: the order is in the flow and not held. */
function assertAnswerable(order: FulfillmentOrder): void {
  assertInFlow(order, 'cancellation');
}

/** What an answer to a request that is not open is: a repeat of `same`, else 400. */
function answered(order: FulfillmentOrder, same: CancellationRequest['status']): ActionOutcome {
  const last = order.cancellation_requests.at(-1);
  if (last?.status === same) return unchanged(order);
  const number = order.fulfillment_order_number;
  if (!last) {
    throw fieldError(
      'wrong_stage',
      'Order %fieldValue has no cancellation request.',
      'cancellation.order_id',
      number,
    );
  }
  const why =
    last.status === 'rejected'
      ? `was rejected${last.message === null ? '' : ` (${last.message})`}`
      : 'was accepted: its lines are canceled';
  throw fieldError(
    'wrong_stage',
    `The cancellation request ${last.id} of order %fieldValue ${why}.`,
    'cancellation.order_id',
    number,
  );
}

/**
 * POST acceptCancellation: the requested lines are canceled and their stock released. A repeat
 * changes nothing; a request whose lines shipped (the ship rejected it) is 400.
 */
export function acceptCancellation(
  order: FulfillmentOrder,
  message: string | null,
  by: string,
  now: Timestamp,
): ActionOutcome {
  assertAnswerable(order);
  const open = openRequest(order);
  if (!open) return answered(order, 'accepted');
  const lines = order.items.filter(
    (item) => open.item_ids.includes(item.id) && canApply('cancel', item.status),
  );
  const closed = {
    ...open,
    status: 'accepted' as const,
    message,
    answered_by: by,
    answered_at: now,
  };
  const canceled = withCanceled(order, new Set(lines.map((item) => item.id)));
  const next = { ...canceled, cancellation_requests: replaceLast(canceled, closed, false) };
  return {
    order: touch(next, now),
    changed: true,
    stock: releasing(lines, false),
    rejected: [],
    details: {
      cancellation_request: open.id,
      items: lines.map((item) => item.id),
      message,
      ...totalsAudit(order, next),
    },
  };
}

/** POST rejectCancellation: the lines stay in the flow. A repeat changes nothing. */
export function rejectCancellation(
  order: FulfillmentOrder,
  message: string,
  by: string,
  now: Timestamp,
): ActionOutcome {
  assertAnswerable(order);
  const open = openRequest(order);
  if (!open) return answered(order, 'rejected');
  const closed = {
    ...open,
    status: 'rejected' as const,
    message,
    answered_by: by,
    answered_at: now,
  };
  return {
    order: touch({ ...order, cancellation_requests: replaceLast(order, closed, false) }, now),
    changed: true,
    stock: [],
    rejected: [],
    details: { cancellation_request: open.id, message },
  };
}

/** The message of a request a ship rejected. */
export const SHIPPED = 'shipped';

/** What a ship did to the open cancellation request, for its timeline entry. */
export interface RejectedByShipment {
  requests: CancellationRequest[];
  /** The open request that named shipped lines, or null when none did. */
  rejected: number | null;
  /** The lines of it that shipped: refused, since the goods left. */
  refused: number[];
  /** The lines of it still requested: the request stays open for them. */
  still_requested: number[];
}

/**
 * The requests after a ship of `shipped` lines, in the ship's own transaction, so that a shipped
 * line can never be canceled as well: the open request is rejected (message `shipped`) for the
 * lines it names that shipped, and stays open for the others, so that accepting it then cancels
 * just those. The refused lines are recorded as a request of their own, answered `rejected`, just
 * before the open one (which keeps its id, and stays the order's last); when every line it names
 * shipped, the request itself is rejected.
 */
export function rejectedByShipment(
  order: FulfillmentOrder,
  shipped: ReadonlySet<number>,
  now: Timestamp,
): RejectedByShipment {
  const open = openRequest(order);
  const refused = open?.item_ids.filter((id) => shipped.has(id)) ?? [];
  if (!open || refused.length === 0) {
    return { requests: order.cancellation_requests, rejected: null, refused, still_requested: [] };
  }
  const rest = open.item_ids.filter((id) => !shipped.has(id));
  const answer = {
    status: 'rejected' as const,
    message: SHIPPED,
    answered_by: null,
    answered_at: now,
  };
  const requests =
    rest.length === 0
      ? replaceLast(order, { ...open, ...answer }, false)
      : [
          ...order.cancellation_requests.slice(0, -1),
          { ...open, ...answer, id: order.cancellation_requests.length + 1, item_ids: refused },
          { ...open, item_ids: rest },
        ];
  return { requests, rejected: open.id, refused, still_requested: rest };
}
