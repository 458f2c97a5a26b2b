import { abandon, cancel, fail, requeue } from '../domain/actions/operator.js';
import type { ActionOutcome } from '../domain/actions/outcome.js';
import type { FailureStage, FulfillmentOrder } from '../domain/types.js';
import { type EngineDeps, operatorActor } from './deps.js';
import { applyToOrder } from './order-actions.js';

/** Operator interventions on one order (DECISIONS §8), each one audited transaction. */

function intervene(
  deps: EngineDeps,
  storeCode: string,
  number: string,
  action: string,
  decide: (order: FulfillmentOrder, now: string) => ActionOutcome,
  actorName = 'operator',
): Promise<FulfillmentOrder> {
  return applyToOrder(
    deps,
    operatorActor(storeCode, actorName),
    action,
    null,
    { order_id: number, body: 'order' },
    (order, { context }) => decide(order, context.now),
  );
}

export function failOrder(
  deps: EngineDeps,
  storeCode: string,
  number: string,
  reason: string,
  stage?: FailureStage,
) {
  return intervene(deps, storeCode, number, 'fail', (order, at) => fail(order, reason, at, stage));
}

export function requeueOrder(deps: EngineDeps, storeCode: string, number: string) {
  return intervene(deps, storeCode, number, 'requeue', requeue);
}

export function abandonOrder(deps: EngineDeps, storeCode: string, number: string) {
  return intervene(deps, storeCode, number, 'abandon', abandon);
}

export function cancelOrder(deps: EngineDeps, storeCode: string, number: string) {
  return intervene(deps, storeCode, number, 'cancel', cancel);
}
