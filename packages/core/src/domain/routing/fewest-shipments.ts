/**
 * The exact search behind `fewest_shipments`: the fewest warehouses that together can take
 * every line. It is set cover, hard in general but small here: it proves the smallest size up
 * to `max_shipments`, then picks, among the sets of that size, the one whose best warehouse
 * ranks best, then its second, and so on. Past {@link SEARCH_BOUND} sets tried it stops, and
 * the caller falls back to a greedy answer, saying the count is not proven the fewest.
 */

/**
 * How many sets the search tries at most for one decision (as Salesforce Order Management caps
 * its fewest-splits search at 10^6 iterations). A decision of 20 lines over 50 warehouses with
 * `max_shipments` 3 typically tries about a hundred, rarely more than a few thousand.
 */
export const SEARCH_BOUND = 1_000_000;

/**
 * Trying a set reads every demand still open, so an order of many lines also bounds the sets
 * tried by this much reading: its search costs at most about as much as one of 20 lines, however
 * many lines it has.
 */
export const SEARCH_WORK_BOUND = 20_000_000;

/** Where the greedy cover starts from, at most: the best-ranked of the warehouses it tries. */
const GREEDY_STARTS = 8;

/** The sets a search over `demands` demands may try. */
export function searchBound(demands: number): number {
  return Math.max(1, Math.min(SEARCH_BOUND, Math.floor(SEARCH_WORK_BOUND / Math.max(1, demands))));
}

/**
 * The warehouses (by rank: 0 ranks best) and what each can give to each demand. A demand is
 * covered once the amounts of the chosen warehouses reach its need: without `split_lines` a
 * warehouse gives a demand all of it or nothing.
 */
export interface CoverProblem {
  needs: readonly number[];
  /** Per warehouse, by rank: the demands it can serve and how much of each. */
  gives: readonly (readonly { demand: number; amount: number }[])[];
}

export interface CoverSearch {
  /** The chosen warehouses, by rank ascending; null when none of at most `maxSize` was found. */
  set: number[] | null;
  /** Every size up to this one was tried whole and has no cover. */
  provenAbove: number;
  /** Whether the search stopped at its bound. */
  cutShort: boolean;
  /** Sets tried. */
  tried: number;
}

/**
 * A cover problem's gives laid flat, warehouse after warehouse: the search reads them over and
 * over, and flat arrays of numbers keep that reading free of allocation. (Plain arrays: typed
 * arrays of more than a few entries keep their data off the heap, which costs every minor
 * collection more than it saves here.)
 */
interface FlatGives {
  /** Where each warehouse's gives start in `demand` and `amount`; one more entry at the end. */
  start: number[];
  demand: number[];
  amount: number[];
}

function flatten(problem: CoverProblem): FlatGives {
  const count = problem.gives.length;
  const start = new Array<number>(count + 1).fill(0);
  for (let warehouse = 0; warehouse < count; warehouse++)
    start[warehouse + 1] =
      (start[warehouse] as number) + (problem.gives[warehouse] as readonly unknown[]).length;
  const demand = new Array<number>(start[count] as number).fill(0);
  const amount = new Array<number>(start[count] as number).fill(0);
  for (let warehouse = 0; warehouse < count; warehouse++) {
    let at = start[warehouse] as number;
    for (const give of problem.gives[warehouse] as readonly { demand: number; amount: number }[]) {
      demand[at] = give.demand;
      amount[at] = give.amount;
      at++;
    }
  }
  return { start, demand, amount };
}

/** The coverage of the sets being tried, updated as warehouses join and leave. */
class Coverage {
  readonly remaining: Float64Array;
  uncovered: number;

  constructor(
    problem: CoverProblem,
    private readonly flat: FlatGives,
  ) {
    this.remaining = Float64Array.from(problem.needs);
    this.uncovered = problem.needs.filter((need) => need > 0).length;
  }

  /** Whether the warehouse gives anything to a demand not yet covered. */
  helps(warehouse: number): boolean {
    const { start, demand } = this.flat;
    if (warehouse < 0 || warehouse >= start.length - 1) return false;
    for (let at = start[warehouse] as number; at < (start[warehouse + 1] as number); at++)
      if ((this.remaining[demand[at] as number] as number) > 0) return true;
    return false;
  }

  add(warehouse: number): void {
    const { start, demand, amount } = this.flat;
    if (warehouse < 0 || warehouse >= start.length - 1) return;
    for (let at = start[warehouse] as number; at < (start[warehouse + 1] as number); at++) {
      const index = demand[at] as number;
      const before = this.remaining[index] as number;
      const after = before - (amount[at] as number);
      this.remaining[index] = after;
      if (before > 0 && after <= 0) this.uncovered--;
    }
  }

  remove(warehouse: number): void {
    const { start, demand, amount } = this.flat;
    if (warehouse < 0 || warehouse >= start.length - 1) return;
    for (let at = start[warehouse] as number; at < (start[warehouse + 1] as number); at++) {
      const index = demand[at] as number;
      const before = this.remaining[index] as number;
      const after = before + (amount[at] as number);
      this.remaining[index] = after;
      if (before <= 0 && after > 0) this.uncovered++;
    }
  }
}

/**
 * The smallest set of at most `maxSize` warehouses covering every demand, the best-ranked among
 * the smallest; the search tries at most `bound` sets ({@link searchBound} by default).
 *
 * First the size: can the demands still open be covered by `budget` more warehouses? Branch on
 * the open demand the fewest warehouses can serve, each of them in turn (any cover holds one),
 * for budgets 1, 2, … Then the set, member by member: the best-ranked warehouse with which the
 * rest can still be covered by warehouses ranked after it.
 */
export function fewestWarehouses(
  problem: CoverProblem,
  maxSize: number,
  bound: number = searchBound(problem.needs.length),
): CoverSearch {
  const count = problem.gives.length;
  const servers: { warehouse: number; amount: number }[][] = problem.needs.map(() => []);
  for (const [warehouse, gives] of problem.gives.entries())
    for (const { demand, amount } of gives) servers[demand]?.push({ warehouse, amount });
  const coverage = new Coverage(problem, flatten(problem));
  const inSet = new Uint8Array(count);
  let tried = 0;
  let cutShort = false;

  function join(warehouse: number): void {
    inSet[warehouse] = 1;
    coverage.add(warehouse);
  }
  function leave(warehouse: number): void {
    inSet[warehouse] = 0;
    coverage.remove(warehouse);
  }

  /** Whether at most `budget` more warehouses ranked `from` or after cover what is open. */
  function coverable(budget: number, from: number): boolean {
    if (coverage.uncovered === 0) return true;
    if (budget === 0) return false;
    let narrowest: { warehouse: number; amount: number }[] | null = null;
    let width = Number.POSITIVE_INFINITY;
    for (let demand = 0; demand < servers.length; demand++) {
      if ((coverage.remaining[demand] as number) <= 0) continue;
      let open = 0;
      for (const server of servers[demand] as { warehouse: number }[])
        if (server.warehouse >= from && inSet[server.warehouse] === 0) open++;
      if (open === 0) return false;
      if (open < width) {
        width = open;
        narrowest = servers[demand] as { warehouse: number; amount: number }[];
      }
    }
    for (const { warehouse } of narrowest ?? []) {
      if (warehouse < from || inSet[warehouse] === 1) continue;
      if (++tried > bound) {
        cutShort = true;
        return false;
      }
      join(warehouse);
      const found = coverable(budget - 1, from);
      leave(warehouse);
      if (found) return true;
      if (cutShort) return false;
    }
    return false;
  }

  let size = 0;
  for (let budget = 1; budget <= maxSize && size === 0; budget++) {
    if (coverable(budget, 0)) size = budget;
    else if (cutShort) return { set: null, provenAbove: budget - 1, cutShort, tried };
  }
  if (size === 0) return { set: null, provenAbove: maxSize, cutShort, tried };
  const set: number[] = [];
  for (let from = 0; set.length < size && from < count; from++) {
    if (!coverage.helps(from)) continue;
    if (++tried > bound) return { set: null, provenAbove: size - 1, cutShort: true, tried };
    join(from);
    if (coverable(size - set.length - 1, from + 1)) set.push(from);
    else leave(from);
    if (cutShort) return { set: null, provenAbove: size - 1, cutShort, tried };
  }
  return { set, provenAbove: size - 1, cutShort, tried };
}

/**
 * A greedy cover, where the exact search cannot go: the classic greedy (the warehouse that
 * completes the most demands still open, then gives the most units to them, then ranks best,
 * again and again until every demand is covered), after which any choice the later ones made
 * needless is dropped, and any two that one other warehouse can replace are replaced. Run from
 * each warehouse that can serve the demand the fewest can (every cover holds one of them; the
 * best-ranked eight at most), the smallest cover kept, the best-ranked among equals; it stops at
 * a cover of `fewest`, known to be the least there is. No proof of optimality, but close to it.
 */
export function greedyCover(problem: CoverProblem, fewest = 1): number[] {
  const serving: number[][] = problem.needs.map(() => []);
  for (const [warehouse, gives] of problem.gives.entries())
    for (const { demand } of gives) serving[demand]?.push(warehouse);
  const open = serving.filter((_, demand) => (problem.needs[demand] as number) > 0);
  const starts = open.reduce<number[] | null>(
    (narrowest, warehouses) =>
      narrowest === null || warehouses.length < narrowest.length ? warehouses : narrowest,
    null,
  );
  const flat = flatten(problem);
  let best: number[] | null = null;
  for (const start of (starts ?? [-1]).slice(0, GREEDY_STARTS)) {
    const cover = greedyCoverFrom(problem, flat, start, serving);
    if (
      best === null ||
      cover.length < best.length ||
      (cover.length === best.length && ranksBetter(cover, best))
    )
      best = cover;
    // No cover is smaller than `fewest`: the starts still to try cannot do better.
    if (best.length <= fewest) break;
  }
  return best ?? [];
}

/** Whether one set (by rank, ascending) ranks better than another of the same size. */
function ranksBetter(a: readonly number[], b: readonly number[]): boolean {
  for (const [index, warehouse] of a.entries()) {
    const other = b[index] as number;
    if (warehouse !== other) return warehouse < other;
  }
  return false;
}

/** The greedy cover with `start` chosen first (none when -1). */
function greedyCoverFrom(
  problem: CoverProblem,
  flat: FlatGives,
  start: number,
  serving: readonly (readonly number[])[],
): number[] {
  const coverage = new Coverage(problem, flat);
  const chosen: number[] = [];
  const taken = new Uint8Array(problem.gives.length);
  if (start !== -1) {
    taken[start] = 1;
    chosen.push(start);
    coverage.add(start);
  }
  while (coverage.uncovered > 0) {
    let best = -1;
    let bestCompleted = 0;
    let bestUnits = 0;
    for (let warehouse = 0; warehouse < problem.gives.length; warehouse++) {
      if (taken[warehouse] === 1) continue;
      let completed = 0;
      let units = 0;
      for (
        let at = flat.start[warehouse] as number;
        at < (flat.start[warehouse + 1] as number);
        at++
      ) {
        const remaining = coverage.remaining[flat.demand[at] as number] as number;
        if (remaining <= 0) continue;
        const amount = flat.amount[at] as number;
        units += Math.min(amount, remaining);
        if (amount >= remaining) completed++;
      }
      if (completed > bestCompleted || (completed === bestCompleted && units > bestUnits)) {
        best = warehouse;
        bestCompleted = completed;
        bestUnits = units;
      }
    }
    if (best === -1) break;
    taken[best] = 1;
    chosen.push(best);
    coverage.add(best);
  }
  // An early choice may have become needless once later ones covered its demands: drop it,
  // worst-ranked first.
  chosen.sort((a, b) => b - a);
  for (const warehouse of [...chosen]) {
    coverage.remove(warehouse);
    if (coverage.uncovered === 0) chosen.splice(chosen.indexOf(warehouse), 1);
    else coverage.add(warehouse);
  }
  while (replacePairByOne(coverage, chosen, taken, serving)) {}
  return chosen.sort((a, b) => a - b);
}

/**
 * One step of local search on a cover: two chosen warehouses that one other can replace are
 * replaced by it (the best-ranked such). Returns whether it found such a pair.
 */
function replacePairByOne(
  coverage: Coverage,
  chosen: number[],
  taken: Uint8Array,
  serving: readonly (readonly number[])[],
): boolean {
  chosen.sort((a, b) => a - b);
  for (let i = 0; i < chosen.length; i++) {
    for (let j = i + 1; j < chosen.length; j++) {
      const first = chosen[i] as number;
      const second = chosen[j] as number;
      coverage.remove(first);
      coverage.remove(second);
      if (coverage.uncovered === 0) {
        // Later swaps made both needless.
        chosen.splice(j, 1);
        chosen.splice(i, 1);
        taken[first] = 0;
        taken[second] = 0;
        return true;
      }
      // The one replacing them serves the first demand they leave open, among others.
      let open = 0;
      while ((coverage.remaining[open] as number) <= 0) open++;
      for (const other of serving[open] ?? []) {
        if (taken[other] === 1) continue;
        coverage.add(other);
        if (coverage.uncovered === 0) {
          chosen.splice(j, 1);
          chosen.splice(i, 1, other);
          taken[first] = 0;
          taken[second] = 0;
          taken[other] = 1;
          return true;
        }
        coverage.remove(other);
      }
      coverage.add(first);
      coverage.add(second);
    }
  }
  return false;
}
