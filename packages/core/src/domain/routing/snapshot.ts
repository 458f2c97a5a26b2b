import type { RoutingRule } from './rules.js';

/**
 * What a routing decision reads: everything the use case reads in its transaction, as plain
 * data, so that the decision is a pure function of it (the same snapshot, the same decision, on
 * any database and in any process) and a preview decides exactly as an intake would.
 */
export interface RoutingSnapshot {
  /** The lines to route, in the sales order's order (or the rejected lines, when rerouting). */
  lines: readonly RoutingLine[];
  /** The order's `warehouse_code`, when it names one (the `pinned` rule). */
  pinned: string | null;
  destination: Destination;
  /** The store's warehouses, each code once, in any order. */
  warehouses: readonly RoutingWarehouse[];
  /** Stock of the lines' skus; a (warehouse, sku) missing here has none. */
  stock: readonly StockFact[];
  rules: readonly RoutingRule[];
  /** The most warehouses the `fewest_shipments` search tries (>= 1). */
  max_shipments: number;
  /** Whether one line's quantity may be split across warehouses. */
  split_lines: boolean;
  /**
   * What happens to a line no warehouse has the stock for: `route` sends it to the best
   * warehouse by the other rules, marked short (intake, the default); `leave` leaves it
   * unassigned, marked short (reroute: the line stays rejected).
   */
  short_lines: 'route' | 'leave';
}

export interface RoutingLine {
  sku: string;
  /** A positive integer. */
  qty: number;
  /** Warehouses that rejected the line before (the `not_rejected` rule). */
  rejected_by?: readonly string[];
}

export interface GeoPoint {
  latitude: number;
  longitude: number;
}

/** How a destination's point was found, from the most precise. */
export type LocatedBy = 'address' | 'postcode' | 'city' | 'country';

export interface Destination {
  /** The shipping address's country, ISO 3166-1 alpha-2 (the `market` rule). */
  country: string;
  /** Where it is (the `distance` rule); null when nothing located it. */
  point: GeoPoint | null;
  /** How `point` was found; null with it. */
  located_by: LocatedBy | null;
}

export interface RoutingWarehouse {
  code: string;
  active: boolean;
  /** Higher goes first under the `priority` rule. */
  priority: number;
  /** Null: unknown, the warehouse sorts last under `distance`. */
  latitude: number | null;
  longitude: number | null;
  /** ISO 3166-1 alpha-2 codes it ships to; null: every country. */
  countries: readonly string[] | null;
  /** Fulfillment orders it takes per local day; null: no limit. */
  daily_capacity: number | null;
  /** Fulfillment orders routed to it so far in its current local day. */
  routed_today: number;
}

/** One (warehouse, sku)'s stock: what routing may promise is `unreserved - safety_stock`. */
export interface StockFact {
  warehouse_code: string;
  sku: string;
  /** On hand minus reserved (may be negative). */
  unreserved: number;
  /** Kept back from routing (>= 0). */
  safety_stock: number;
}
