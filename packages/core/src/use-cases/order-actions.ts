import type * as v from 'valibot';
import type { ApiAction } from '../domain/acl.js';
import { accept } from '../domain/actions/accept.js';
import { allocate } from '../domain/actions/allocate.js';
import { invoice } from '../domain/actions/invoice.js';
import type { ActionContext, ActionOutcome } from '../domain/actions/outcome.js';
import { reject } from '../domain/actions/reject.js';
import { ship } from '../domain/actions/ship.js';
import { presentOrder } from '../domain/present.js';
import type { OrderResource } from '../domain/resources.js';
import type { Actor, FulfillmentOrder, Store } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { parseWith } from '../schemas/parse.js';
import {
  AcceptRequest,
  AllocateRequest,
  InvoiceRequest,
  RejectRequest,
  ShipRequest,
} from '../schemas/requests.js';
import { canSee, type EngineDeps, now, orderNotFound, requireStore } from './deps.js';
import { lockRoutingStock, rerouteLines } from './reroute.js';
import { authorize, type Principal } from './tokens.js';

interface Decision<TInput> {
  tx: RepositoryTx;
  actor: Actor;
  store: Store;
  input: TInput;
  context: ActionContext;
}

/**
 * Applies one decision to one order in one transaction: lock the order, decide (pure), then
 * write the order, its stock effects, the reroutes and the audit event together. A retry of an
 * applied action writes nothing; a rejected request writes nothing either, since the transaction
 * rolls back.
 */
export async function applyToOrder<TInput>(
  deps: EngineDeps,
  actor: Actor,
  action: string,
  input: TInput,
  target: { order_id: string; body: string },
  decide: (
    order: FulfillmentOrder,
    decision: Decision<TInput>,
  ) => ActionOutcome | Promise<ActionOutcome>,
): Promise<FulfillmentOrder> {
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, actor.store_code);
    const order = await tx.lockOrder(store.id, target.order_id);
    if (!order || !canSee(actor, order))
      throw orderNotFound(target.order_id, `${target.body}.order_id`);
    const context = { now: now(deps), settings: store.settings };
    const outcome = await decide(order, { tx, actor, store, input, context });
    if (!outcome.changed) return order;
    const saved = await tx.saveOrder(outcome.order);
    const rejected = rejectedLinesOf(saved, outcome);
    // The reroute reads these skus' stock under its rows' locks: taken before the reject frees
    // one of them, so that the rows are locked in the one order every intake takes them in.
    if (store.settings.reroute && rejected.length > 0) {
      await lockRoutingStock(
        tx,
        store.id,
        rejected.map((item) => item.sku),
      );
    }
    await tx.adjustStock(store.id, outcome.stock);
    const rerouted = await rerouteLines(deps, tx, store, saved, rejected, context.now);
    const details = rerouted.length
      ? {
          ...outcome.details,
          rerouted_to: rerouted.map((created) => created.fulfillment_order_number),
        }
      : outcome.details;
    await tx.appendAudit([
      {
        order_id: saved.id,
        at: context.now,
        actor: actor.name,
        action,
        details,
        request_id: actor.request_id ?? null,
        reason: actor.reason ?? null,
      },
    ]);
    return saved;
  });
}

/** The stored versions (with ids) of the lines the outcome rejected. */
function rejectedLinesOf(saved: FulfillmentOrder, outcome: ActionOutcome) {
  const wanted = new Set(outcome.rejected);
  const positions = outcome.order.items.flatMap((item, index) => (wanted.has(item) ? [index] : []));
  return positions.map((index) => saved.items[index]).filter((item) => item !== undefined);
}

export function publicAction<TSchema extends v.GenericSchema, TInput extends { order_id: string }>(
  action: ApiAction,
  schema: TSchema,
  body: string,
  pick: (parsed: v.InferOutput<TSchema>) => TInput,
  decide: (
    order: FulfillmentOrder,
    decision: Decision<TInput>,
  ) => ActionOutcome | Promise<ActionOutcome>,
) {
  return async (deps: EngineDeps, actor: Principal, request: unknown): Promise<OrderResource> => {
    // Before the body, as the server does: a forbidden request is 403 whatever it sends.
    authorize(deps, actor, action);
    const input = pick(parseWith(schema, request));
    const order = await applyToOrder(
      deps,
      actor,
      action,
      input,
      { order_id: input.order_id, body },
      decide,
    );
    return presentOrder(order, 'whole');
  };
}

/** POST /V1/fulfillmentOrder/accept */
export const acceptOrder = publicAction(
  'accept',
  AcceptRequest,
  'order',
  (body) => body.order,
  (order, { input, context }) => accept(order, input, context),
);

/** POST /V1/fulfillmentOrder/reject */
export const rejectOrder = publicAction(
  'reject',
  RejectRequest,
  'order',
  (body) => body.order,
  (order, { input, context }) => reject(order, input, context),
);

/** POST /V1/fulfillmentOrder/allocate */
export const allocateOrder = publicAction(
  'allocate',
  AllocateRequest,
  'allocation',
  (body) => body.allocation,
  // A scoped token may name only its own warehouses as transfer sources (docs/behaviour.md).
  async (order, { tx, actor, store, input, context }) =>
    allocate(order, input, {
      ...context,
      warehouses: await tx.listWarehouses(store.id, actor.warehouses),
    }),
);

/** POST /V1/fulfillmentOrder/ship */
export const shipOrder = publicAction(
  'ship',
  ShipRequest,
  'shipment',
  (body) => body.shipment,
  (order, { input, context }) => ship(order, input, context),
);

/** POST /V1/fulfillmentOrder/invoice */
export const invoiceOrder = publicAction(
  'invoice',
  InvoiceRequest,
  'invoice',
  (body) => body.invoice,
  (order, { input, context }) => invoice(order, input, context),
);
