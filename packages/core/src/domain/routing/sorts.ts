import { compareCodes } from '../compare-codes.js';
import { remainingCapacity } from './capacity.js';
import { distanceKm } from './distance.js';
import {
  isRoutingFilter,
  type RoutingRule,
  type RoutingSort,
  type WarehouseSort,
} from './rules.js';
import type { Destination, RoutingWarehouse } from './snapshot.js';

/** What the sorts read of a warehouse, worked out once per decision. */
export interface WarehouseFacts {
  warehouse_code: string;
  priority: number;
  /** Whole km to the destination; null when either is not located (it sorts last). */
  km: number | null;
  /** Fulfillment orders it can still take today; null: no limit (it sorts first). */
  remaining_capacity: number | null;
}

export function factsOf(warehouse: RoutingWarehouse, destination: Destination): WarehouseFacts {
  return {
    warehouse_code: warehouse.code,
    priority: warehouse.priority,
    km: distanceKm(warehouse, destination),
    remaining_capacity: remainingCapacity(warehouse),
  };
}

/** A warehouse's key under one sort: lower goes first. Integers or infinities, never noise. */
export function sortKey(sort: WarehouseSort, facts: WarehouseFacts): number {
  switch (sort) {
    case 'priority':
      return -facts.priority;
    case 'distance':
      return facts.km ?? Number.POSITIVE_INFINITY;
    case 'remaining_capacity':
      return facts.remaining_capacity === null
        ? Number.NEGATIVE_INFINITY
        : -facts.remaining_capacity;
  }
}

/** The sorts of a rule list, in its order. */
export function sortsOf(rules: readonly RoutingRule[]): RoutingSort[] {
  return rules.filter((rule): rule is RoutingSort => !isRoutingFilter(rule));
}

/**
 * The sorts split around `fewest_shipments`: `before` restricts each line to its best
 * warehouses by them (they outrank fewer shipments), `after` ranks the warehouses that tie.
 * Without `fewest_shipments`, every sort is `after`.
 */
export interface SortPlan {
  before: WarehouseSort[];
  fewestShipments: boolean;
  after: WarehouseSort[];
}

export function sortPlan(rules: readonly RoutingRule[]): SortPlan {
  const sorts = sortsOf(rules);
  const at = sorts.indexOf('fewest_shipments');
  const ranked = (list: RoutingSort[]) =>
    list.filter((sort): sort is WarehouseSort => sort !== 'fewest_shipments');
  return at === -1
    ? { before: [], fewestShipments: false, after: ranked(sorts) }
    : {
        before: ranked(sorts.slice(0, at)),
        fewestShipments: true,
        after: ranked(sorts.slice(at + 1)),
      };
}

/** Compares two warehouses by `sorts` alone: negative when `a` goes first, 0 on a tie. */
export function compareBy(
  sorts: readonly WarehouseSort[],
  a: WarehouseFacts,
  b: WarehouseFacts,
): number {
  for (const sort of sorts) {
    const difference = sortKey(sort, a) - sortKey(sort, b);
    // Infinity - Infinity is NaN: two unknowns tie.
    if (difference < 0) return -1;
    if (difference > 0) return 1;
  }
  return 0;
}

/**
 * The warehouses' order under `sorts`, the code breaking every tie: a total order, the same in
 * any process whatever order the warehouses came in.
 */
export function rankOrder(
  facts: readonly WarehouseFacts[],
  sorts: readonly WarehouseSort[],
): number[] {
  return facts
    .map((_, index) => index)
    .sort(
      (a, b) =>
        compareBy(sorts, facts[a] as WarehouseFacts, facts[b] as WarehouseFacts) ||
        compareCodes(
          (facts[a] as WarehouseFacts).warehouse_code,
          (facts[b] as WarehouseFacts).warehouse_code,
        ),
    );
}
