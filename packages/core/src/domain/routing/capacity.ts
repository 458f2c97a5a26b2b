import type { RoutingWarehouse } from './snapshot.js';

/**
 * Fulfillment orders the warehouse can still take in its current local day; null when it has no
 * daily capacity (no limit). A routing decision opens at most one fulfillment order per
 * warehouse, so a warehouse with at least 1 left can take the decision's share.
 */
export function remainingCapacity(warehouse: RoutingWarehouse): number | null {
  return warehouse.daily_capacity === null
    ? null
    : Math.max(0, warehouse.daily_capacity - warehouse.routed_today);
}

/** Whether the warehouse reached its daily capacity (the `capacity` filter). */
export function overCapacity(warehouse: RoutingWarehouse): boolean {
  return remainingCapacity(warehouse) === 0;
}
