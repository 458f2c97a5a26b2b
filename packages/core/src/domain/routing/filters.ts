import { overCapacity } from './capacity.js';
import {
  type ExclusionReason,
  isRoutingFilter,
  type RoutingFilter,
  type RoutingRule,
} from './rules.js';
import type { RoutingLine, RoutingSnapshot, RoutingWarehouse, StockFact } from './snapshot.js';

/**
 * Lines routed as one: the lines of one sku (that the same warehouses rejected). Their stock is
 * counted once, for their total, so two lines never both count on the same unit; without
 * `split_lines` they go to one warehouse together.
 */
export interface Demand {
  sku: string;
  /** The lines' total quantity. */
  qty: number;
  /** Indexes of its lines in the snapshot, ascending. */
  lines: number[];
  rejected_by: readonly string[];
}

/** The demands of `lines`, in the order of their first line. */
export function demandsOf(lines: readonly RoutingLine[]): Demand[] {
  const byKey = new Map<string, Demand>();
  const demands: Demand[] = [];
  for (const [index, line] of lines.entries()) {
    const rejected_by = [...new Set(line.rejected_by ?? [])].sort();
    const key = JSON.stringify([line.sku, rejected_by]);
    const known = byKey.get(key);
    if (known) {
      known.qty += line.qty;
      known.lines.push(index);
      continue;
    }
    const demand: Demand = { sku: line.sku, qty: line.qty, lines: [index], rejected_by };
    byKey.set(key, demand);
    demands.push(demand);
  }
  return demands;
}

/** What the filters say of one warehouse for one demand. */
export interface Screening {
  /** The first filter, in the rules' order, that removes it; null when none does. */
  excluded: ExclusionReason | null;
  /** Whether every filter but `stock` lets it through: a short demand may still go there. */
  eligible: boolean;
  /** Unreserved minus safety stock: what routing may promise from it. */
  available: number;
}

/** The stock of the snapshot by sku and warehouse, read in constant time. */
export class StockIndex {
  readonly #facts = new Map<string, Map<string, StockFact>>();

  constructor(stock: readonly StockFact[]) {
    for (const fact of stock) {
      const bySku = this.#facts.get(fact.sku) ?? new Map<string, StockFact>();
      bySku.set(fact.warehouse_code, fact);
      this.#facts.set(fact.sku, bySku);
    }
  }

  get(warehouse: string, sku: string): { unreserved: number; safety_stock: number } {
    return this.#facts.get(sku)?.get(warehouse) ?? { unreserved: 0, safety_stock: 0 };
  }
}

type OtherFilter = Exclude<RoutingFilter, 'stock'>;

function failure(
  filter: OtherFilter,
  warehouse: RoutingWarehouse,
  demand: Demand,
  snapshot: RoutingSnapshot,
): ExclusionReason | null {
  switch (filter) {
    case 'active':
      return warehouse.active ? null : 'inactive';
    case 'pinned':
      return snapshot.pinned === null || snapshot.pinned === warehouse.code
        ? null
        : 'pinned_elsewhere';
    case 'market':
      return warehouse.countries === null ||
        warehouse.countries.includes(snapshot.destination.country)
        ? null
        : 'not_in_market';
    case 'capacity':
      return overCapacity(warehouse) ? 'over_capacity' : null;
    case 'not_rejected':
      return demand.rejected_by.includes(warehouse.code) ? 'rejected_before' : null;
  }
}

/**
 * Why the `stock` filter removes the warehouse, or null when it keeps it: it keeps a warehouse
 * that can promise `needed` units. Short of them, `below_safety_stock` when the units are there
 * but kept back as safety stock, `no_stock` otherwise.
 */
function stockFailure(
  stock: { unreserved: number; safety_stock: number },
  needed: number,
): ExclusionReason | null {
  if (stock.unreserved - stock.safety_stock >= needed) return null;
  return stock.unreserved >= needed ? 'below_safety_stock' : 'no_stock';
}

/**
 * Runs the snapshot's filters over one demand and one warehouse. With `split_lines`, the stock
 * filter keeps any warehouse that can promise one unit: it may take part of the demand.
 */
export function screen(
  snapshot: RoutingSnapshot,
  filters: readonly RoutingFilter[],
  stock: StockIndex,
  warehouse: RoutingWarehouse,
  demand: Demand,
): Screening {
  const level = stock.get(warehouse.code, demand.sku);
  let excluded: ExclusionReason | null = null;
  let eligible = true;
  for (const filter of filters) {
    const reason =
      filter === 'stock'
        ? stockFailure(level, snapshot.split_lines ? 1 : demand.qty)
        : failure(filter, warehouse, demand, snapshot);
    if (reason === null) continue;
    excluded ??= reason;
    if (filter !== 'stock') {
      eligible = false;
      break;
    }
  }
  return { excluded, eligible, available: level.unreserved - level.safety_stock };
}

/** The filters of a rule list, in its order. */
export function filtersOf(rules: readonly RoutingRule[]): RoutingFilter[] {
  return rules.filter(isRoutingFilter);
}
