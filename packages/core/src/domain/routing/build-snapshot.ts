import type { Warehouse } from '../types.js';
import type { RoutingSettings } from './rules.js';
import type { Destination, RoutingLine, RoutingSnapshot, StockFact } from './snapshot.js';

/** What one (warehouse, sku) holds for routing: on hand minus reserved, and its safety stock. */
export interface StockHolding {
  unreserved: number;
  safety_stock: number;
}

/** Everything a routing decision reads, as the use case found it in its transaction. */
export interface SnapshotInput {
  lines: readonly RoutingLine[];
  pinned: string | null;
  destination: Destination;
  /** Every warehouse of the store, active or not: the explanation says why one was left out. */
  warehouses: readonly Warehouse[];
  /** The stock of a sku at a warehouse; a warehouse without a row holds nothing. */
  holding(warehouse: Warehouse, sku: string): StockHolding;
  /** Fulfillment orders routed to the warehouse so far in its current local day. */
  routedToday(warehouse: Warehouse): number;
  settings: RoutingSettings;
  short_lines: RoutingSnapshot['short_lines'];
}

/**
 * The routing snapshot of a store (docs/routing.md): the one way intake, reroute and the preview
 * build what `decideRouting` decides on, so that the three decide alike. Every warehouse gets a
 * stock fact for every sku of the lines (a missing row holds nothing, with the warehouse's
 * safety stock), so the explanation shows what each could promise.
 */
export function routingSnapshot(input: SnapshotInput): RoutingSnapshot {
  const skus = [...new Set(input.lines.map((line) => line.sku))];
  const stock: StockFact[] = [];
  for (const warehouse of input.warehouses)
    for (const sku of skus) {
      const { unreserved, safety_stock } = input.holding(warehouse, sku);
      stock.push({ warehouse_code: warehouse.code, sku, unreserved, safety_stock });
    }
  return {
    lines: input.lines,
    pinned: input.pinned,
    destination: input.destination,
    warehouses: input.warehouses.map((warehouse) => ({
      code: warehouse.code,
      active: warehouse.active,
      priority: warehouse.priority,
      latitude: warehouse.latitude ?? null,
      longitude: warehouse.longitude ?? null,
      countries: warehouse.countries ?? null,
      daily_capacity: warehouse.daily_capacity ?? null,
      routed_today: input.routedToday(warehouse),
    })),
    stock,
    rules: input.settings.routing,
    max_shipments: input.settings.max_shipments,
    split_lines: input.settings.split_lines,
    short_lines: input.short_lines,
  };
}
