import {
  byPriority,
  type RoutingContext,
  type RoutingRule,
  type RoutingSnapshot,
  type RoutingWarehouse,
  type StockFact,
  type Warehouse,
} from '../../src/index.js';
import { seededRandom } from '../../src/testing/seeded-random.js';

export { seededRandom };

/**
 * A generated corpus of routing problems, the same on every run (a seeded generator): orders of
 * 1-20 lines of distinct skus over 5-50 warehouses, stock sparse (each warehouse holds each sku
 * with a probability drawn per order between 5 % and 35 %). The routing tests and the routing
 * benchmark share it.
 */
export interface CorpusOrder {
  lines: { sku: string; qty: number }[];
  warehouses: RoutingWarehouse[];
  stock: StockFact[];
}

export interface CorpusShape {
  lines: [number, number];
  warehouses: [number, number];
}

export function generateOrder(
  random: () => number,
  shape: CorpusShape = { lines: [1, 20], warehouses: [5, 50] },
): CorpusOrder {
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const warehouseCount = between(...shape.warehouses);
  const lineCount = between(...shape.lines);
  const density = 0.05 + random() * 0.3;
  const warehouses: RoutingWarehouse[] = Array.from({ length: warehouseCount }, (_, index) => ({
    code: `WH-${String(index).padStart(2, '0')}`,
    active: true,
    priority: between(0, 9),
    latitude: null,
    longitude: null,
    countries: null,
    daily_capacity: null,
    routed_today: 0,
  }));
  const lines = Array.from({ length: lineCount }, (_, index) => ({
    sku: `SKU-${index}`,
    qty: between(1, 3),
  }));
  const stock: StockFact[] = [];
  for (const warehouse of warehouses)
    for (const line of lines)
      if (random() < density)
        stock.push({
          warehouse_code: warehouse.code,
          sku: line.sku,
          unreserved: between(0, 8),
          safety_stock: 0,
        });
  return { lines, warehouses, stock };
}

export function generateCorpus(seed: number, count: number, shape?: CorpusShape): CorpusOrder[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => generateOrder(random, shape));
}

export function snapshotOf(
  order: CorpusOrder,
  rules: readonly RoutingRule[],
  max_shipments = 3,
): RoutingSnapshot {
  return {
    lines: order.lines,
    pinned: null,
    destination: { country: 'IT', point: null, located_by: null },
    warehouses: order.warehouses,
    stock: order.stock,
    rules,
    max_shipments,
    split_lines: false,
    short_lines: 'route',
  };
}

/** The order as the pluggable router sees it: active warehouses by priority, and their stock. */
export function contextOf(order: CorpusOrder): RoutingContext {
  const available = new Map(
    order.stock.map((fact) => [`${fact.warehouse_code}\u0000${fact.sku}`, fact.unreserved]),
  );
  const warehouses: Warehouse[] = order.warehouses.map((warehouse) => ({
    store_id: 1,
    code: warehouse.code,
    name: warehouse.code,
    active: warehouse.active,
    fulfilled_by: 'partner',
    priority: warehouse.priority,
  }));
  return {
    warehouses: byPriority(warehouses),
    available: (code, sku) => available.get(`${code}\u0000${sku}`) ?? 0,
  };
}

/**
 * The fewest warehouses that can take every line of the order, by brute force: iterative
 * deepening over the uncovered line with the fewest warehouses holding it (a different search
 * from the engine's). Lines no warehouse holds go with any warehouse chosen, as a short line
 * does; an order of only such lines needs one.
 */
export function optimumShipments(order: CorpusOrder): number {
  const available = new Map(
    order.stock.map((fact) => [
      `${fact.warehouse_code}\u0000${fact.sku}`,
      fact.unreserved - fact.safety_stock,
    ]),
  );
  const holders = order.lines
    .map((line) =>
      order.warehouses
        .filter(
          (warehouse) => (available.get(`${warehouse.code}\u0000${line.sku}`) ?? 0) >= line.qty,
        )
        .map((warehouse) => warehouse.code),
    )
    .filter((codes) => codes.length > 0);
  if (holders.length === 0) return 1;
  const coverable = (chosen: Set<string>, budget: number): boolean => {
    const open = holders.filter((codes) => !codes.some((code) => chosen.has(code)));
    if (open.length === 0) return true;
    if (budget === 0) return false;
    const narrowest = open.reduce((a, b) => (b.length < a.length ? b : a));
    return narrowest.some((code) => {
      chosen.add(code);
      const found = coverable(chosen, budget - 1);
      chosen.delete(code);
      return found;
    });
  };
  for (let size = 1; ; size++) if (coverable(new Set(), size)) return size;
}
