import { splitLine } from '../item-line.js';
import { itemFromSalesLine } from '../new-order.js';
import type { RouteAssignment } from '../routing.js';
import type { SalesOrder } from '../sales-order.js';
import type { Item } from '../types.js';
import type { RoutingDecision } from './explanation.js';

/** One fulfillment order to open: its warehouse and its lines, as items. */
export interface PlannedRoute {
  warehouse_code: string;
  items: Item[];
  /** Each item's line: its index among the sales order's lines. */
  lines: number[];
}

/** A custom router's assignments: whole lines, each to one warehouse. */
export function plannedRoutes(
  order: SalesOrder,
  routes: readonly RouteAssignment[],
): PlannedRoute[] {
  return routes.map((route) => ({
    warehouse_code: route.warehouse_code,
    items: route.lines.map((line) =>
      itemFromSalesLine(order.items[line] as SalesOrder['items'][number], route.warehouse_code),
    ),
    lines: [...route.lines],
  }));
}

/**
 * A decision's fulfillment orders, one per assignment in its order. A line split across
 * warehouses (`split_lines`) becomes one item per part, its line totals shared out by quantity
 * (`splitLine`), so that the parts add up to the line exactly.
 */
export function routeLines(order: SalesOrder, decision: RoutingDecision): PlannedRoute[] {
  const parts = new Map<string, Item>();
  for (const line of decision.lines) {
    const salesLine = order.items[line.line] as SalesOrder['items'][number];
    let rest = itemFromSalesLine(salesLine, '');
    for (const [index, part] of line.parts.entries()) {
      let item = rest;
      if (index < line.parts.length - 1) {
        const split = splitLine(rest, part.qty);
        item = split.kept;
        rest = split.rest;
      }
      parts.set(`${line.line}\u0000${part.warehouse_code}`, {
        ...item,
        warehouse_code: part.warehouse_code,
      });
    }
  }
  return decision.assignments.map((assignment) => ({
    warehouse_code: assignment.warehouse_code,
    items: assignment.lines.map(
      (line) => parts.get(`${line.line}\u0000${assignment.warehouse_code}`) as Item,
    ),
    lines: assignment.lines.map((line) => line.line),
  }));
}
