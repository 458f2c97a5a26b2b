import type { Candidates } from './candidates.js';
import type { CoverProblem } from './fewest-shipments.js';

/** Where one demand goes: warehouses (by rank) and the quantity each takes, best first. */
export type Allocation = { warehouse: number; qty: number }[];

/**
 * A demand's share of `set` (warehouses by rank; every warehouse when null). Tier by tier (the
 * sorts before `fewest_shipments`), the best-ranked warehouse that can take what is left whole,
 * else (with `split_lines`) what each can take, best-ranked first, until it is all placed. A
 * short demand goes whole to the best-ranked fallback. Empty when the set cannot take it.
 */
export function allocate(candidates: Candidates, set: ReadonlySet<number> | null): Allocation {
  const within = (warehouse: number) => set === null || set.has(warehouse);
  const members = candidates.kept.filter((member) => within(member.warehouse) && member.amount > 0);
  const allocation: Allocation = [];
  let left = candidates.demand.qty;
  let at = 0;
  while (left > 0 && at < members.length) {
    const tier = (members[at] as (typeof members)[number]).tier;
    let end = at;
    while (end < members.length && (members[end] as (typeof members)[number]).tier === tier) end++;
    const group = members.slice(at, end);
    at = end;
    const whole = group.find((member) => member.amount >= left);
    if (whole) {
      allocation.push({ warehouse: whole.warehouse, qty: left });
      left = 0;
      break;
    }
    for (const member of group) {
      const qty = Math.min(member.amount, left);
      allocation.push({ warehouse: member.warehouse, qty });
      left -= qty;
      if (left === 0) break;
    }
  }
  if (left === 0) return allocation;
  const fallback = candidates.fallback.find(within);
  return fallback === undefined ? [] : [{ warehouse: fallback, qty: candidates.demand.qty }];
}

/**
 * The greedy answer's first step, as routing decided before rules were data: the best-ranked
 * warehouse that can take every demand whole, when none is short; null when there is none (then
 * each demand goes its own way, `allocate` over every warehouse).
 */
export function oneWarehouseForAll(
  routable: readonly Candidates[],
  warehouses: number,
): number | null {
  if (routable.length === 0 || routable.some((candidates) => candidates.short)) return null;
  // How many demands each warehouse can take whole: the answer can take them all.
  const takes = new Int32Array(warehouses);
  for (const candidates of routable)
    for (const member of candidates.kept)
      if (member.amount >= candidates.demand.qty)
        takes[member.warehouse] = (takes[member.warehouse] as number) + 1;
  const best = takes.indexOf(routable.length);
  return best === -1 ? null : best;
}

/** The routable demands as a cover problem over `warehouses` ranks (see fewest-shipments.ts). */
export function coverProblem(
  routable: readonly Candidates[],
  warehouses: number,
  split: boolean,
): CoverProblem {
  const gives: { demand: number; amount: number }[][] = Array.from(
    { length: warehouses },
    () => [],
  );
  const needs: number[] = [];
  for (const [index, candidates] of routable.entries()) {
    // Without splitting a warehouse gives a demand all of it or nothing: 1 of 1.
    const need = split && !candidates.short ? candidates.demand.qty : 1;
    needs.push(need);
    for (const { warehouse, amount } of candidates.kept)
      gives[warehouse]?.push({ demand: index, amount: split ? amount : need });
    for (const warehouse of candidates.fallback)
      gives[warehouse]?.push({ demand: index, amount: need });
  }
  return { needs, gives };
}
