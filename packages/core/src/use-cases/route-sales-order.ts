import { DomainError, fieldError } from '../domain/errors.js';
import { fromMoney } from '../domain/money.js';
import type { LineDecision } from '../domain/routing/explanation.js';
import { type PlannedRoute, plannedRoutes, routeLines } from '../domain/routing/planned-route.js';
import type { RoutingRecord } from '../domain/routing/record.js';
import { describeLine } from '../domain/routing/words.js';
import type { RouteAssignment } from '../domain/routing.js';
import type { SalesOrder } from '../domain/sales-order.js';
import { ITEM_AMOUNT_FIELDS, ORDER_AMOUNT_FIELDS, type Warehouse } from '../domain/types.js';
import type { EngineDeps } from './deps.js';
import type { RoutingFacts } from './routing-facts.js';

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

/** Where a sales order's lines go, and why; decided on the facts, writing nothing. */
export interface RoutedSalesOrder {
  routes: PlannedRoute[];
  routing: RoutingRecord;
  /** A line no warehouse can take (the rules' decision only): intake refuses the order. */
  unrouted: LineDecision | null;
}

/**
 * Routes a sales order on the facts of its transaction: by the engine's custom router when it
 * has one, else by the store's routing rules (docs/routing.md). Intake and the preview both
 * route through it, so that the preview answers exactly what intake would do. A pinned warehouse
 * that is not active, or a store without an active warehouse, is refused here.
 */
export async function routeSalesOrder(
  deps: Pick<EngineDeps, 'router' | 'decide' | 'locate'>,
  facts: RoutingFacts,
  order: SalesOrder,
): Promise<RoutedSalesOrder> {
  const active = facts.active;
  if (order.warehouse_code && !active.some((warehouse) => warehouse.code === order.warehouse_code))
    throw fieldError(
      'invalid_request',
      'Warehouse %fieldValue is not an active warehouse of this store.',
      'warehouse_code',
      order.warehouse_code,
    );
  // Named on the field that chooses a warehouse: no value of it, nor the rules, can find one.
  if (active.length === 0)
    throw fieldError(
      'invalid_request',
      'The store has no active warehouse to route orders to.',
      'warehouse_code',
    );
  await facts.loadStock(order.items.map((item) => item.sku));
  if (deps.router) {
    const routes = deps.router(asSent(order), facts.context());
    assertCompleteRoute(order, routes, active);
    return { routes: plannedRoutes(order, routes), routing: { by: 'router' }, unrouted: null };
  }
  const decision = deps.decide(
    facts.snapshot({
      lines: order.items,
      pinned: order.warehouse_code || null,
      destination: await facts.destination(order.shipping_address, deps.locate),
      short_lines: 'route',
    }),
  );
  return {
    routes: routeLines(order, decision),
    routing: { by: 'rules', decision },
    unrouted: decision.lines.find((line) => line.parts.length === 0) ?? null,
  };
}

/** Why intake refuses an order with a line no warehouse can take, in the decision's words. */
export function unroutedLine(line: LineDecision, decision: RoutingRecord): DomainError {
  const words = decision.by === 'rules' ? `: ${describeLine(decision.decision, line)}` : '';
  return fieldError(
    'invalid_request',
    `No warehouse can take the line of sku %fieldValue${words}.`,
    `items[${line.line}].sku`,
    line.sku,
  );
}
