import type { Demand, Screening } from './filters.js';
import type { WarehouseSort } from './rules.js';
import { compareBy, type WarehouseFacts } from './sorts.js';

/** A warehouse that may take a demand: how much of it, and its tier (0 is the best). */
export interface Member {
  warehouse: number;
  amount: number;
  tier: number;
}

/**
 * Where one demand may go, in the decision's rank space: warehouses are numbered by their rank
 * (0 ranks best under the sorts after `fewest_shipments`, the code last), and every list here
 * is in that order.
 */
export interface Candidates {
  demand: Demand;
  /**
   * The warehouses that may take it, best first: by their tier under the sorts before
   * `fewest_shipments`, then by rank. `amount` is what each can take of it (at most all of it);
   * without `split_lines`, every one can take all of it.
   */
  kept: Member[];
  /** It is short: no warehouse, nor (with `split_lines`) any set of them, has its stock. */
  short: boolean;
  /**
   * Short and routed anyway: the warehouses every filter but `stock` lets through (the best
   * tier of them), by rank. Empty when not short, or when short lines are left unassigned.
   */
  fallback: number[];
  /** Whether any warehouse can take it at all: an unroutable demand is left unassigned. */
  routable: boolean;
}

/**
 * The best of `members` under the sorts ranked before `fewest_shipments`, each with its tier (0
 * is the best): the first tier, or more tiers, best first, until `enough` says they can take
 * the demand. With no such sort, all of them, in one tier.
 */
function bestTiers(
  members: readonly number[],
  before: readonly WarehouseSort[],
  facts: readonly WarehouseFacts[],
  enough: (taken: readonly Member[]) => boolean,
): Member[] {
  if (before.length === 0) return members.map((warehouse) => ({ warehouse, amount: 0, tier: 0 }));
  const factsAt = (warehouse: number) => facts[warehouse] as WarehouseFacts;
  // Stable: within a tier, members keep their rank order.
  const sorted = [...members].sort((a, b) => compareBy(before, factsAt(a), factsAt(b)));
  const kept: Member[] = [];
  let tier = 0;
  let at = 0;
  while (at < sorted.length) {
    const first = sorted[at] as number;
    while (
      at < sorted.length &&
      compareBy(before, factsAt(first), factsAt(sorted[at] as number)) === 0
    ) {
      kept.push({ warehouse: sorted[at] as number, amount: 0, tier });
      at++;
    }
    if (enough(kept)) break;
    tier++;
  }
  return kept;
}

/**
 * The candidates of one demand from its screening (by rank), the sorts before
 * `fewest_shipments` narrowing each list to the best warehouses under them.
 */
export function candidatesOf(
  demand: Demand,
  screening: Screening,
  facts: readonly WarehouseFacts[],
  options: {
    split: boolean;
    stockRule: boolean;
    routeShort: boolean;
    before: readonly WarehouseSort[];
  },
): Candidates {
  const passing: number[] = [];
  let anyEligible = false;
  for (let warehouse = 0; warehouse < screening.excluded.length; warehouse++) {
    if (screening.eligible[warehouse]) anyEligible = true;
    if (screening.excluded[warehouse] === null) passing.push(warehouse);
  }
  const amount = (warehouse: number) =>
    options.stockRule ? Math.min(demand.qty, screening.available[warehouse] as number) : demand.qty;
  const covers = (taken: readonly Member[]) => {
    if (!options.split) return taken.length > 0;
    let sum = 0;
    for (const member of taken) sum += amount(member.warehouse);
    return sum >= demand.qty;
  };
  const kept = bestTiers(passing, options.before, facts, covers);
  const covered = covers(kept);
  // Short: the stock filter, and only it, leaves no way to take the demand.
  const short = !covered && options.stockRule && anyEligible;
  let fallback: number[] = [];
  if (short && options.routeShort) {
    // Worked out only for a short demand routed anyway: the warehouses all but `stock` keep.
    const eligible: number[] = [];
    for (let warehouse = 0; warehouse < screening.excluded.length; warehouse++)
      if (screening.eligible[warehouse]) eligible.push(warehouse);
    fallback = bestTiers(eligible, options.before, facts, (taken) => taken.length > 0)
      .map((member) => member.warehouse)
      .sort((a, b) => a - b);
  }
  if (covered) for (const member of kept) member.amount = amount(member.warehouse);
  return {
    demand,
    kept: covered ? kept : [],
    short,
    fallback,
    routable: covered || fallback.length > 0,
  };
}
