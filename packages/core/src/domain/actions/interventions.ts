import { isDomainError } from '../errors.js';
import type { Timestamp } from '../timestamp.js';
import type { FulfillmentOrder, ItemStatus } from '../types.js';
import { whyNotHoldable } from './holds.js';
import { abandon, cancel, type DecisionSite, fail, requeue } from './operator.js';
import type { ActionOutcome } from './outcome.js';

/**
 * What an operator may do to one order (docs/admin-api.md), by the name of its admin route;
 * `hold` is its sales order's hold, which takes this order.
 */
export type Intervention =
  | 'fail'
  | 'requeue'
  | 'abandon'
  | 'cancel'
  | 'hold'
  | 'allow_partial'
  | 'move_lines'
  | 'correct_tracks';

export type OperatorDecision = (
  order: FulfillmentOrder,
  now: Timestamp,
  site?: DecisionSite,
) => ActionOutcome;

/**
 * Whether the decision would change the order now: the decision itself answers, so what the
 * console offers and what a bulk dry run counts never drift from what the action then does. A
 * decision that refuses the order's stage, or would leave it as it is, does not apply.
 */
export function applies(
  decide: OperatorDecision,
  order: FulfillmentOrder,
  now: Timestamp,
): boolean {
  try {
    return decide(order, now).changed;
  } catch (error) {
    if (isDomainError(error) && error.code === 'wrong_stage') return false;
    throw error;
  }
}

/** The decisions of the order-level interventions; failing is tested with a stand-in reason. */
export const OPERATOR_DECISIONS = {
  fail: (order, now) => fail(order, 'operator', now),
  requeue,
  abandon,
  cancel,
} satisfies Record<string, OperatorDecision>;

/** Lines a partial-shipment override still matters to: not shipped yet. */
const UNSHIPPED: readonly ItemStatus[] = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
];

/** The interventions that apply to the order as it stands, in the order of the type. */
export function interventionsFor(order: FulfillmentOrder, now: Timestamp): Intervention[] {
  const decided = (Object.keys(OPERATOR_DECISIONS) as (keyof typeof OPERATOR_DECISIONS)[]).filter(
    (name) => applies(OPERATOR_DECISIONS[name], order, now),
  );
  const others: [Intervention, boolean][] = [
    ['hold', whyNotHoldable(order) === null],
    ['allow_partial', order.items.some((item) => UNSHIPPED.includes(item.status))],
    ['move_lines', order.items.some((item) => item.status === 'pending_accept')],
    ['correct_tracks', order.shipments.length > 0],
  ];
  return [...decided, ...others.filter(([, open]) => open).map(([name]) => name)];
}
