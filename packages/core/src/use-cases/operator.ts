import * as v from 'valibot';
import type { OperatorDecision } from '../domain/actions/interventions.js';
import { abandon, cancel, type DecisionSite, fail, requeue } from '../domain/actions/operator.js';
import { unchanged } from '../domain/actions/outcome.js';
import { queueVoids } from '../domain/courier-labels.js';
import { presentOrder } from '../domain/present.js';
import type { OrderResource } from '../domain/resources.js';
import type { Actor, FailureStage, FulfillmentOrder } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { requiredText, STRING_LIMITS } from '../schemas/fields.js';
import { assertWellFormed, parseWith } from '../schemas/parse.js';
import { type EngineDeps, operatorActor } from './deps.js';
import { applyToOrder } from './order-actions.js';

/** Operator interventions on one order (docs/behaviour.md), each one audited transaction. */

const VOIDS_LABELS = new Set(['cancel', 'abandon']);

/**
 * Whether the intervention still applies to the order, asked in its transaction with the order
 * locked (a bulk's filter, admin-interventions.ts).
 */
export type StillApplies = (tx: RepositoryTx, order: FulfillmentOrder) => Promise<boolean>;

/**
 * Applies an operator's decision to one order as `actor`, in one audited transaction; says
 * whether it changed anything (a repeated intervention does not), and whether `stillApplies`
 * held: when it does not, nothing is decided or written.
 */
export async function interveneAs(
  deps: EngineDeps,
  actor: Actor,
  number: string,
  action: string,
  decide: OperatorDecision,
  stillApplies?: StillApplies,
): Promise<{ order: FulfillmentOrder; changed: boolean; applies: boolean }> {
  assertWellFormed({ number });
  let changed = false;
  let applies = true;
  const order = await applyToOrder(
    deps,
    actor,
    action,
    null,
    { order_id: number, body: 'order' },
    async (order, { tx, store, context }) => {
      applies = stillApplies === undefined || (await stillApplies(tx, order));
      if (!applies) return unchanged(order);
      const outcome = decide(order, context.now, await decisionSite(tx, store.id, order, actor));
      changed = outcome.changed;
      // A canceled or abandoned order keeps no label it will not ship with; the dispatcher
      // voids them outside this transaction (docs/couriers.md).
      if (changed && VOIDS_LABELS.has(action))
        await tx.saveLabels(queueVoids(await tx.listLabels(order.id), order, context.now));
      return outcome;
    },
  );
  return { order, changed, applies };
}

/** Where a decision on the order lands: its warehouse's kind, and who decides. */
export async function decisionSite(
  tx: RepositoryTx,
  storeId: number,
  order: FulfillmentOrder,
  actor: Actor,
): Promise<DecisionSite> {
  const [warehouse] = await tx.listWarehouses(storeId, [order.warehouse_code]);
  return { courier: warehouse?.fulfilled_by === 'courier', by: actor.name };
}

async function intervene(
  deps: EngineDeps,
  storeCode: string,
  number: string,
  action: string,
  decide: OperatorDecision,
): Promise<OrderResource> {
  const { order } = await interveneAs(deps, operatorActor(storeCode), number, action, decide);
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
