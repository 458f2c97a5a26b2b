import * as v from 'valibot';
import { abandon, cancel, fail, requeue } from '../domain/actions/operator.js';
import type { ActionOutcome } from '../domain/actions/outcome.js';
import { presentOrder } from '../domain/present.js';
import type { FailureStage, FulfillmentOrder } from '../domain/types.js';
import { requiredText, STRING_LIMITS } from '../schemas/fields.js';
import { parseWith } from '../schemas/parse.js';
import type { OrderResource } from '../schemas/resources.js';
import { type EngineDeps, operatorActor } from './deps.js';
import { applyToOrder } from './order-actions.js';

/** Operator interventions on one order (docs/behaviour.md), each one audited transaction. */

async function intervene(
  deps: EngineDeps,
  storeCode: string,
  number: string,
  action: string,
  decide: (order: FulfillmentOrder, now: string) => ActionOutcome,
  actorName = 'operator',
): Promise<OrderResource> {
  const order = await applyToOrder(
    deps,
    operatorActor(storeCode, actorName),
    action,
    null,
    { order_id: number, body: 'order' },
    (order, { context }) => decide(order, context.now),
  );
  return presentOrder(order, 'whole');
}

const FailInput = v.object({
  reason: requiredText(STRING_LIMITS.note),
  stage: v.optional(v.picklist(['allocation', 'shipment', 'invoice'])),
});

export async function failOrder(
  deps: EngineDeps,
  storeCode: string,
  number: string,
  reason: string,
  stage?: FailureStage,
) {
  const input = parseWith(FailInput, { reason, stage });
  return intervene(deps, storeCode, number, 'fail', (order, at) =>
    fail(order, input.reason, at, input.stage),
  );
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
