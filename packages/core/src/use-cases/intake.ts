import { DomainError, fieldError } from '../domain/errors.js';
import { fromMoney } from '../domain/money.js';
import {
  fulfillmentOrderNumber,
  headerOf,
  itemFromSalesLine,
  openFulfillmentOrder,
  partAmounts,
  salesOrderAmounts,
} from '../domain/new-order.js';
import { presentOrder } from '../domain/present.js';
import type { RouteAssignment } from '../domain/routing.js';
import {
  type FulfillmentOrder,
  ITEM_AMOUNT_FIELDS,
  ORDER_AMOUNT_FIELDS,
  type Warehouse,
} from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { parseWith } from '../schemas/parse.js';
import type { OrderResource } from '../schemas/resources.js';
import { type SalesOrder, SalesOrderInput } from '../schemas/sales-order.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import { loadRoutingContext } from './reroute.js';

function assertCompleteRoute(
  order: SalesOrder,
  routes: readonly RouteAssignment[],
  warehouses: readonly Warehouse[],
) {
  const assigned = routes.flatMap((route) => route.lines).sort((a, b) => a - b);
  const complete =
    assigned.length === order.items.length && assigned.every((line, index) => line === index);
  const unknown = routes.find(
    (route) => !warehouses.some((warehouse) => warehouse.code === route.warehouse_code),
  );
  if (!complete || unknown || routes.some((route) => route.lines.length === 0)) {
    throw new DomainError(
      'invalid_request',
      'The router must assign every line of the sales order once, to an active warehouse.',
    );
  }
}

/** The given amount fields of `record`, from exact ten-thousandths back to API units. */
function inApiUnits<T extends object>(record: T, fields: readonly (keyof T)[]): Partial<T> {
  const shown: Partial<T> = {};
  for (const field of fields) {
    const amount = record[field];
    if (typeof amount === 'number') shown[field] = fromMoney(amount) as T[keyof T];
  }
  return shown;
}

/** The sales order as the shop sent it, amounts in API units: what a custom router is given. */
function asSent(order: SalesOrder): SalesOrder {
  return {
    ...order,
    ...inApiUnits(order, ORDER_AMOUNT_FIELDS),
    items: order.items.map((item) => ({ ...item, ...inApiUnits(item, ITEM_AMOUNT_FIELDS) })),
  };
}

/** Whether a sales order was already taken in (its first fulfillment order exists). */
export async function isSalesOrderKnown(
  tx: RepositoryTx,
  storeId: number,
  salesOrderNumber: string,
): Promise<boolean> {
  return (await tx.findOrder(storeId, fulfillmentOrderNumber(salesOrderNumber, 1))) !== null;
}

/** Intake within an open transaction; `intakeSalesOrder` and the seed loader share it. */
export async function intakeWithin(
  deps: EngineDeps,
  tx: RepositoryTx,
  storeCode: string,
  order: SalesOrder,
  actorName: string,
): Promise<FulfillmentOrder[]> {
  const store = await requireStore(tx, storeCode);
  // Claiming the sales order's first number is the guard: the sequence is atomic, so of two
  // intakes racing on one sales order exactly one gets 1 (a lookup of "<n>-1" would let both in).
  const first = await tx.nextFulfillmentSequence(store.id, order.sales_order_number);
  if (first !== 1) {
    throw fieldError(
      'already_exists',
      'Sales order %fieldValue was already taken in.',
      'sales_order_number',
      order.sales_order_number,
    );
  }
  const context = await loadRoutingContext(
    tx,
    store.id,
    order.items.map((item) => item.sku),
  );
  if (
    order.warehouse_code &&
    !context.warehouses.some((warehouse) => warehouse.code === order.warehouse_code)
  ) {
    throw fieldError(
      'invalid_request',
      'Warehouse %fieldValue is not an active warehouse of this store.',
      'warehouse_code',
      order.warehouse_code,
    );
  }
  const routes = deps.router(asSent(order), context);
  assertCompleteRoute(order, routes, context.warehouses);
  const at = now(deps);
  const created: FulfillmentOrder[] = [];
  for (const [position, route] of routes.entries()) {
    const warehouse = context.warehouses.find(
      (candidate) => candidate.code === route.warehouse_code,
    ) as Warehouse;
    const items = route.lines.map((line) =>
      itemFromSalesLine(order.items[line] as SalesOrder['items'][number], warehouse.code),
    );
    const sequence =
      position === 0 ? first : await tx.nextFulfillmentSequence(store.id, order.sales_order_number);
    const { order: opened, stock } = openFulfillmentOrder({
      header: headerOf(order, store.id),
      number: fulfillmentOrderNumber(order.sales_order_number, sequence),
      warehouse,
      items,
      // One fulfillment order takes the sales order's amounts as they are; a split shares them out.
      amounts:
        routes.length === 1
          ? salesOrderAmounts(order)
          : partAmounts(items, position === 0 ? salesOrderAmounts(order) : null),
      now: at,
    });
    const saved = await tx.insertOrder(opened);
    await tx.adjustStock(store.id, stock);
    await tx.appendAudit([
      {
        order_id: saved.id,
        at,
        actor: actorName,
        action: 'intake',
        details: { sales_order_number: order.sales_order_number, warehouse_code: warehouse.code },
      },
    ]);
    created.push(saved);
  }
  return created;
}

/**
 * Takes in a sales order from the shop: routes its lines (a pinned `warehouse_code` wins) into
 * one or more fulfillment orders, numbered `<sales_order_number>-<n>`, in one transaction.
 */
export async function intakeSalesOrder(
  deps: EngineDeps,
  storeCode: string,
  salesOrder: unknown,
  actorName = 'operator',
): Promise<OrderResource[]> {
  const order = parseWith(SalesOrderInput, salesOrder);
  const created = await deps.repository.transaction((tx) =>
    intakeWithin(deps, tx, storeCode, order, actorName),
  );
  return created.map((fulfillment) => presentOrder(fulfillment, 'whole'));
}
