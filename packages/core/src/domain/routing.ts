import { compareCodes } from './compare-codes.js';
import { fieldError } from './errors.js';
import { decideRouting } from './routing/decide.js';
import { DEFAULT_MAX_SHIPMENTS, DEFAULT_ROUTING } from './routing/rules.js';
import type { RoutingSnapshot } from './routing/snapshot.js';
import type { SalesOrder } from './sales-order.js';
import type { Item, Warehouse } from './types.js';

/** Where the lines of a sales order go: one fulfillment order per assignment. */
export interface RouteAssignment {
  warehouse_code: string;
  /** Indexes into the sales order's items. */
  lines: number[];
}

export interface RoutingContext {
  /** Active warehouses, highest priority first. */
  warehouses: readonly Warehouse[];
  /** On hand minus reserved minus safety stock (may be negative). */
  available(warehouse_code: string, sku: string): number;
}

/**
 * Splits a sales order into fulfillment orders. Pluggable: pass your own to `createEngine`.
 * It must assign every line exactly once, to warehouses of the context.
 */
export type Router = (order: SalesOrder, context: RoutingContext) => RouteAssignment[];

/** Active warehouses, highest priority first, code breaking ties. */
export function byPriority(warehouses: readonly Warehouse[]): Warehouse[] {
  return warehouses
    .filter((warehouse) => warehouse.active)
    .sort((a, b) => b.priority - a.priority || compareCodes(a.code, b.code));
}

/**
 * The snapshot the default router and `rerouteTarget` decide on: the context's warehouses and
 * their stock, under the default rules, nothing else (no markets, capacities nor distances),
 * so they decide exactly as routing did before rules were data.
 */
function contextSnapshot(
  lines: RoutingSnapshot['lines'],
  context: RoutingContext,
  pinned: string | null,
  short_lines: RoutingSnapshot['short_lines'],
): RoutingSnapshot {
  const skus = [...new Set(lines.map((line) => line.sku))];
  return {
    lines,
    pinned,
    destination: { country: '', point: null, located_by: null },
    warehouses: context.warehouses.map((warehouse) => ({
      code: warehouse.code,
      active: warehouse.active,
      priority: warehouse.priority,
      latitude: null,
      longitude: null,
      countries: null,
      daily_capacity: null,
      routed_today: 0,
    })),
    stock: context.warehouses.flatMap((warehouse) =>
      skus.map((sku) => ({
        warehouse_code: warehouse.code,
        sku,
        unreserved: context.available(warehouse.code, sku),
        safety_stock: 0,
      })),
    ),
    rules: DEFAULT_ROUTING,
    max_shipments: DEFAULT_MAX_SHIPMENTS,
    split_lines: false,
    short_lines,
  };
}

/**
 * The default router: the routing engine under the default rules (docs/routing.md). A pinned
 * `warehouse_code` takes every line; otherwise the highest-priority warehouse that can fill the
 * whole order from available stock; otherwise each line goes to the highest-priority warehouse
 * that can fill it, and lines no one can fill to the highest-priority warehouse of all. Lines
 * of one sku count on the stock of their total.
 */
export const defaultRouter: Router = (order, context) => {
  const pinned = order.warehouse_code || null;
  if (pinned && !context.warehouses.some((warehouse) => warehouse.code === pinned))
    throw fieldError(
      'invalid_request',
      'Warehouse %fieldValue is not an active warehouse of this store.',
      'warehouse_code',
      pinned,
    );
  // Named on the field that chooses a warehouse: no value of it, nor the router, can find one.
  if (context.warehouses.length === 0)
    throw fieldError(
      'invalid_request',
      'The store has no active warehouse to route orders to.',
      'warehouse_code',
    );
  const decision = decideRouting(contextSnapshot(order.items, context, pinned, 'route'));
  return decision.assignments.map((assignment) => ({
    warehouse_code: assignment.warehouse_code,
    lines: assignment.lines.map((line) => line.line),
  }));
};

/**
 * Where a rejected line goes (docs/behaviour.md): the highest-priority other active warehouse with
 * enough available stock that has not already rejected it; null when there is none.
 */
export function rerouteTarget(item: Item, context: RoutingContext): Warehouse | null {
  const decision = decideRouting(contextSnapshot([item], context, null, 'leave'));
  const [assignment] = decision.assignments;
  return (
    context.warehouses.find((warehouse) => warehouse.code === assignment?.warehouse_code) ?? null
  );
}
