import type { RoutingContext, Warehouse } from '../../src/index.js';

/**
 * Routing as it was before rules were data, kept word for word as the oracle the engine's
 * default rules are checked against, and as the floor of the routing benchmark: the
 * highest-priority warehouse that can fill the whole order, otherwise each line to the
 * highest-priority warehouse that can fill it, and lines no one can fill to the highest-priority
 * warehouse of all. `context.warehouses` are the active ones, highest priority first.
 */
export function greedyRouter(
  items: readonly { sku: string; qty: number }[],
  warehouseCode: string | null,
  context: RoutingContext,
): { warehouse_code: string; lines: number[] }[] {
  const lines = items.map((_, index) => index);
  if (warehouseCode) return [{ warehouse_code: warehouseCode, lines }];
  const [first] = context.warehouses;
  if (!first) throw new Error('The store has no active warehouse to route orders to.');
  const canFill = (warehouse: Warehouse, index: number) => {
    const item = items[index] as { sku: string; qty: number };
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
}

/** Rerouting as it was: the highest-priority other warehouse with the stock, not a rejecter. */
export function greedyRerouteTarget(
  item: { sku: string; qty: number; rejected_by: readonly string[] },
  context: RoutingContext,
): Warehouse | null {
  return (
    context.warehouses.find(
      (warehouse) =>
        !item.rejected_by.includes(warehouse.code) &&
        context.available(warehouse.code, item.sku) >= item.qty,
    ) ?? null
  );
}
