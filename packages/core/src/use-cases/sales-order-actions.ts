import type { ActionOutcome } from '../domain/actions/outcome.js';
import { queueVoids } from '../domain/courier-labels.js';
import { fieldError } from '../domain/errors.js';
import type { SalesOrderResource } from '../domain/sales-order-resource.js';
import type { Timestamp } from '../domain/timestamp.js';
import type { Actor, FulfillmentOrder, Store } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import { viewsOf } from './sales-orders.js';

/** What deciding on the fulfillment orders of one sales order needs. */
export interface SalesOrderDecision {
  tx: RepositoryTx;
  store: Store;
  actor: Actor;
  now: Timestamp;
  /** Every fulfillment order of the sales order, locked, by id. */
  orders: FulfillmentOrder[];
  /** Whether the order's warehouse is a courier's. */
  courier: (order: FulfillmentOrder) => boolean;
}

/** One fulfillment order's decision: the outcome to write, and the timeline's action name. */
export interface Decided {
  order: FulfillmentOrder;
  outcome: ActionOutcome;
  action: string;
  /** The courier's labels of the order are voided (a canceled courier order keeps none). */
  voidLabels?: boolean;
}

/**
 * Applies decisions to the fulfillment orders of one sales order in one transaction: every one of
 * them locked (in id order, as every path that locks several does), decided on (pure), then each
 * change written with its stock, its labels' voids and its one timeline entry. Answers what
 * `answer` makes of the sales order view read after the writes in the same transaction. A refused
 * decision writes nothing at all.
 */
export async function actOnSalesOrder<T>(
  deps: EngineDeps,
  actor: Actor,
  number: string,
  field: string,
  decide: (decision: SalesOrderDecision) => Promise<Decided[]> | Decided[],
  answer: (view: SalesOrderResource) => T,
): Promise<T> {
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, actor.store_code);
    const [record] = await tx.findSalesOrders(store.id, [number]);
    if (!record) {
      throw fieldError('not_found', 'Sales order %fieldValue does not exist.', field, number);
    }
    const listed = await tx.listSalesOrderFulfillments(store.id, [number]);
    const orders: FulfillmentOrder[] = [];
    for (const { id } of listed) {
      const order = await tx.lockOrderById(id);
      if (order) orders.push(order);
    }
    const warehouses = await tx.listWarehouses(store.id, [
      ...new Set(orders.map((order) => order.warehouse_code)),
    ]);
    const couriers = new Set(
      warehouses.filter((w) => w.fulfilled_by === 'courier').map((w) => w.code),
    );
    const at = now(deps);
    const decided = await decide({
      tx,
      store,
      actor,
      now: at,
      orders,
      courier: (order) => couriers.has(order.warehouse_code),
    });
    for (const { order, outcome, action, voidLabels } of decided) {
      if (!outcome.changed) continue;
      const saved = await tx.saveOrder(outcome.order);
      await tx.adjustStock(store.id, outcome.stock);
      if (voidLabels) await tx.saveLabels(queueVoids(await tx.listLabels(order.id), order, at));
      await tx.appendAudit([
        {
          order_id: saved.id,
          at,
          actor: actor.name,
          action,
          details: outcome.details,
          request_id: actor.request_id ?? null,
          reason: actor.reason ?? null,
        },
      ]);
    }
    const view = (await viewsOf(tx, store.id, [record])).get(number) as SalesOrderResource;
    return answer(view);
  });
}
