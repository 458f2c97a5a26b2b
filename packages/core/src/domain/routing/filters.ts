import { overCapacity } from './capacity.js';
import {
  type ExclusionReason,
  isRoutingFilter,
  type RoutingFilter,
  type RoutingRule,
} from './rules.js';
import type { RoutingLine, RoutingSnapshot, RoutingWarehouse } from './snapshot.js';

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
    // NUL cannot be in a sku or a code (schemas/fields.ts): the key is unambiguous.
    const key = [line.sku, ...rejected_by].join('\u0000');
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

/**
 * What the filters say of every warehouse (by rank) for one demand, an entry per warehouse.
 */
export interface Screening {
  /** The first filter, in the rules' order, that removes it; null when none does. */
  excluded: (ExclusionReason | null)[];
  /** Whether every filter but `stock` lets it through: a short demand may still go there. */
  eligible: boolean[];
  /** Unreserved minus safety stock: what routing may promise from it. */
  available: number[];
}

/** Why the filters that do not depend on the line remove the warehouse, one per filter. */
function staticFailures(
  filters: readonly RoutingFilter[],
  warehouse: RoutingWarehouse,
  snapshot: RoutingSnapshot,
): (ExclusionReason | null)[] {
  return filters.map((filter) => {
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
      default:
        return null;
    }
  });
}

/**
 * Runs the snapshot's filters, in the rules' order, over the warehouses (by rank) for one demand
 * at a time. What does not depend on the demand (active, pinned, market, capacity) is worked out
 * once per warehouse. With `split_lines`, the stock filter keeps any warehouse that can promise
 * one unit: it may take part of the demand.
 */
export class Screener {
  readonly #filters: readonly RoutingFilter[];
  readonly #warehouses: readonly RoutingWarehouse[];
  readonly #static: (ExclusionReason | null)[][];
  /**
   * Per sku, its stock by warehouse rank: unreserved and safety stock side by side. Read once
   * per warehouse per demand, so found by index rather than by code.
   */
  readonly #stock = new Map<string, number[]>();
  readonly #split: boolean;

  constructor(
    snapshot: RoutingSnapshot,
    filters: readonly RoutingFilter[],
    ranked: readonly RoutingWarehouse[],
  ) {
    this.#filters = filters;
    this.#warehouses = ranked;
    this.#static = ranked.map((warehouse) => staticFailures(filters, warehouse, snapshot));
    this.#split = snapshot.split_lines;
    const rankOf = new Map<string, number>();
    for (let rank = 0; rank < ranked.length; rank++)
      rankOf.set((ranked[rank] as RoutingWarehouse).code, rank);
    // A later fact for the same (sku, warehouse) replaces an earlier one.
    for (const fact of snapshot.stock) {
      const rank = rankOf.get(fact.warehouse_code);
      if (rank === undefined) continue;
      let bySku = this.#stock.get(fact.sku);
      if (!bySku) {
        bySku = new Array<number>(ranked.length * 2).fill(0);
        this.#stock.set(fact.sku, bySku);
      }
      bySku[rank * 2] = fact.unreserved;
      bySku[rank * 2 + 1] = fact.safety_stock;
    }
  }

  screen(demand: Demand): Screening {
    const count = this.#warehouses.length;
    const levels = this.#stock.get(demand.sku);
    const needed = this.#split ? 1 : demand.qty;
    const filters = this.#filters;
    const rejected = demand.rejected_by;
    const screening: Screening = {
      excluded: new Array(count),
      eligible: new Array(count),
      available: new Array(count),
    };
    for (let warehouse = 0; warehouse < count; warehouse++) {
      const unreserved = levels === undefined ? 0 : (levels[warehouse * 2] as number);
      const safety = levels === undefined ? 0 : (levels[warehouse * 2 + 1] as number);
      const available = unreserved - safety;
      screening.available[warehouse] = available;
      const fixed = this.#static[warehouse] as (ExclusionReason | null)[];
      let excluded: ExclusionReason | null = null;
      let eligible = true;
      for (let index = 0; index < filters.length; index++) {
        const filter = filters[index] as RoutingFilter;
        let reason: ExclusionReason | null;
        if (filter === 'stock') {
          reason =
            available >= needed ? null : unreserved >= needed ? 'below_safety_stock' : 'no_stock';
        } else if (filter === 'not_rejected') {
          reason =
            rejected.length > 0 &&
            rejected.includes((this.#warehouses[warehouse] as RoutingWarehouse).code)
              ? 'rejected_before'
              : null;
        } else reason = fixed[index] as ExclusionReason | null;
        if (reason === null) continue;
        excluded ??= reason;
        if (filter !== 'stock') {
          eligible = false;
          break;
        }
      }
      screening.excluded[warehouse] = excluded;
      screening.eligible[warehouse] = eligible;
    }
    return screening;
  }
}

/** The filters of a rule list, in its order. */
export function filtersOf(rules: readonly RoutingRule[]): RoutingFilter[] {
  return rules.filter(isRoutingFilter);
}
