import {
  acceptCancellation,
  cancelLines,
  rejectCancellation,
} from '../domain/actions/cancellation.js';
import { fieldError } from '../domain/errors.js';
import type { SalesOrderResource } from '../domain/sales-order-resource.js';
import type { Actor } from '../domain/types.js';
import {
  AcceptCancellationRequest,
  CancellationFields,
  CancellationRequestBody,
  type ParsedCancellation,
  RejectCancellationRequest,
} from '../schemas/cancellation.js';
import { assertWellFormed, parseWith } from '../schemas/parse.js';
import { canApply } from '../state-machine/transitions.js';
import type { EngineDeps } from './deps.js';
import { publicAction } from './order-actions.js';
import { actOnSalesOrder, type Decided, type SalesOrderDecision } from './sales-order-actions.js';
import { authorizeStoreWide } from './sales-orders.js';
import type { Principal } from './tokens.js';

/**
 * Cancellation of a sales order, whole or some lines (docs/channel-guide.md), by the rules of
 * cancellation.ts for each of its fulfillment orders, all in one transaction.
 */
function decideCancellation(
  input: ParsedCancellation,
  { orders, actor, now, courier }: SalesOrderDecision,
): Decided[] {
  const how = (order: (typeof orders)[number]) => ({
    by: actor.name,
    reason: input.reason,
    courier: courier(order),
    now,
  });
  const decide = (order: (typeof orders)[number], outcome: Decided['outcome']): Decided => ({
    order,
    outcome,
    action: 'cancel',
    voidLabels: courier(order),
  });
  if (input.items === undefined) {
    const open = orders.filter((order) => order.items.some((i) => canApply('cancel', i.status)));
    if (open.length === 0 && !orders.some((order) => order.status === 'canceled')) {
      throw fieldError(
        'wrong_stage',
        'Sales order %fieldValue has no line left to cancel: a shipped line is returned, not canceled.',
        'cancellation.sales_order_number',
        input.sales_order_number,
      );
    }
    return open.map((order) => decide(order, cancelLines(order, null, how(order))));
  }
  const byNumber = new Map(orders.map((order) => [order.fulfillment_order_number, order]));
  const wanted = new Map<string, { ids: number[]; positions: number[] }>();
  input.items.forEach((entry, index) => {
    if (!byNumber.has(entry.fulfillment_order_number)) {
      throw fieldError(
        'unknown_item',
        `Fulfillment order %fieldValue is not one of sales order ${input.sales_order_number}.`,
        `cancellation.items[${index}].fulfillment_order_number`,
        entry.fulfillment_order_number,
      );
    }
    const lines = wanted.get(entry.fulfillment_order_number) ?? { ids: [], positions: [] };
    lines.ids.push(entry.item_id);
    lines.positions.push(index);
    wanted.set(entry.fulfillment_order_number, lines);
  });
  return [...wanted].map(([number, { ids, positions }]) => {
    const order = byNumber.get(number) as (typeof orders)[number];
    const fieldOf = (at: number) => `cancellation.items[${positions[at]}].item_id`;
    return decide(order, cancelLines(order, ids, how(order), fieldOf));
  });
}

/** Cancels as `actor` (a channel's token, an operator); answers the Sales order view. */
export async function cancelAs(
  deps: EngineDeps,
  actor: Actor,
  cancellation: ParsedCancellation,
): Promise<SalesOrderResource> {
  return actOnSalesOrder(
    deps,
    actor,
    cancellation.sales_order_number,
    'cancellation.sales_order_number',
    (decision) => decideCancellation(cancellation, decision),
    (view) => view,
  );
}

/** An operator's cancellation of the sales order `number`: `CancellationFields` as body. */
export async function cancelByNumber(
  deps: EngineDeps,
  actor: Actor,
  number: string,
  body: unknown,
) {
  assertWellFormed({ sales_order_number: number });
  return cancelAs(deps, actor, {
    ...parseWith(CancellationFields, body),
    sales_order_number: number,
  });
}

/** POST /V1/salesOrder/cancel */
export async function cancelSalesOrder(deps: EngineDeps, actor: Principal, body: unknown) {
  authorizeStoreWide(deps, actor, 'cancel_sales_order');
  return cancelAs(deps, actor, parseWith(CancellationRequestBody, body).cancellation);
}

/** POST /V1/fulfillmentOrder/acceptCancellation */
export const acceptCancellationOf = publicAction(
  'accept_cancellation',
  AcceptCancellationRequest,
  'cancellation',
  (body) => body.cancellation,
  (order, { input, actor, context }) =>
    acceptCancellation(order, input.message ?? null, actor.name, context.now),
);

/** POST /V1/fulfillmentOrder/rejectCancellation */
export const rejectCancellationOf = publicAction(
  'reject_cancellation',
  RejectCancellationRequest,
  'cancellation',
  (body) => body.cancellation,
  (order, { input, actor, context }) =>
    rejectCancellation(order, input.message, actor.name, context.now),
);
