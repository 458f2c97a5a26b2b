import type { SalesOrder } from '../schemas/sales-order.js';
import { compareCodes } from './compare-codes.js';
import { DomainError } from './errors.js';
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
  /** On hand minus reserved. */
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
 * The default router: a pinned `warehouse_code` takes every line; otherwise the highest-priority
 * warehouse that can fill the whole order from available stock; otherwise each line goes to the
 * highest-priority warehouse that can fill it, and lines no one can fill to the highest-priority
 * warehouse of all.
 */
export const defaultRouter: Router = (order, context) => {
  const lines = order.items.map((_, index) => index);
  if (order.warehouse_code) return [{ warehouse_code: order.warehouse_code, lines }];
  const [first] = context.warehouses;
  if (!first)
    throw new DomainError(
      'invalid_request',
      'The store has no active warehouse to route orders to.',
    );
  const canFill = (warehouse: Warehouse, index: number) => {
    const item = order.items[index] as SalesOrder['items'][number];
    return context.available(warehouse.code, item.sku) >= item.qty;
  };
  const whole = context.warehouses.find((warehouse) =>
    lines.every((index) => canFill(warehouse, index)),
  );
  if (whole) return [{ warehouse_code: whole.code, lines }];
  const assignments = new Map<string, number[]>();
  for (const index of lines) {
    const target = context.warehouses.find((warehouse) => canFill(warehouse, index)) ?? first;
    assignments.set(target.code, [...(assignments.get(target.code) ?? []), index]);
  }
  return [...assignments].map(([warehouse_code, assigned]) => ({
    warehouse_code,
    lines: assigned,
  }));
};

/**
 * Where a rejected line goes (docs/behaviour.md): the highest-priority other active warehouse with
 * enough available stock that has not already rejected it; null when there is none.
 */
export function rerouteTarget(item: Item, context: RoutingContext): Warehouse | null {
  return (
    context.warehouses.find(
      (warehouse) =>
        !item.rejected_by.includes(warehouse.code) &&
        context.available(warehouse.code, item.sku) >= item.qty,
    ) ?? null
  );
}
