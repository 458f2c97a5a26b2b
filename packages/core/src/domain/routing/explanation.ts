import { compareCodes } from '../compare-codes.js';
import type { Allocation } from './allocation.js';
import type { Candidates } from './candidates.js';
import type { Screening } from './filters.js';
import {
  type ExclusionReason,
  ROUTING_SORTS,
  type RoutingRule,
  type RoutingSort,
  type WarehouseSort,
} from './rules.js';
import type { Destination } from './snapshot.js';
import { type SortPlan, sortKey, type WarehouseFacts } from './sorts.js';

/**
 * A routing decision with its reasons (docs/routing.md): what goes where, and per line the rule
 * that decided, every warehouse considered with its rank under each sort, every other one with
 * the reason a filter removed it. Built by the code that decides, as it decides.
 */
export interface RoutingDecision {
  /** The fulfillment orders to open: one per warehouse, in the order of their first line. */
  assignments: WarehouseAssignment[];
  /** Per line of the snapshot, in its order. */
  lines: LineDecision[];
  /** What the sorts read of each warehouse, by code. */
  warehouses: WarehouseFacts[];
  destination: Destination;
  rules: readonly RoutingRule[];
  /**
   * False only when `fewest_shipments` could not prove its count the fewest: its search
   * stopped at its bound, or found no set of at most `max_shipments` warehouses, and the greedy
   * answer was taken.
   */
  optimal: boolean;
  /** Sets of warehouses the `fewest_shipments` search tried. */
  sets_tried: number;
}

export interface WarehouseAssignment {
  warehouse_code: string;
  /** Lines by index into the snapshot, ascending, with the quantity this warehouse takes. */
  lines: { line: number; qty: number }[];
}

/**
 * What decided a line: a rule of the list, `one_shipment` (without `fewest_shipments`, the
 * whole order went to the one warehouse that could take it all), or `code` (the warehouses tied
 * under every sort). Null when the line is not routed, or no other warehouse was there.
 */
export type DecidingRule = RoutingRule | 'one_shipment' | 'code';

export interface LineDecision {
  line: number;
  sku: string;
  qty: number;
  /** Where it goes: one warehouse, or several with `split_lines`; empty when not routed. */
  parts: { warehouse_code: string; qty: number }[];
  decided_by: DecidingRule | null;
  /** No warehouse had its stock: it went to the best by the other rules, or nowhere. */
  short: boolean;
  optimal: boolean;
  /** Warehouses every filter let through, best first; for a short line, all but `stock`. */
  considered: ConsideredWarehouse[];
  /** The others, by code, each with the first filter that removed it. */
  excluded: ExcludedWarehouse[];
}

export interface ConsideredWarehouse {
  warehouse_code: string;
  /** 1 is first; equal keys share a rank. `fewest_shipments`: 1 in the chosen set, else 2. */
  ranks: Partial<Record<RoutingSort, number>>;
  /** What routing may promise of the line's sku there (unreserved minus safety stock). */
  available: number;
}

export interface ExcludedWarehouse {
  warehouse_code: string;
  reason: ExclusionReason;
  available: number;
}

/** How the warehouses of a decision were chosen, which says what each line's key is. */
export type Strategy =
  /** The fewest-shipments search, or the whole order at one warehouse: the set counts. */
  | 'set'
  /** Each line on its own. */
  | 'each_line';

/** The per-line facts the explanation reads, in the decision's rank space. */
export interface LineContext {
  line: number;
  sku: string;
  qty: number;
  candidates: Candidates;
  screening: Screening;
  /** This line's share of its demand's allocation. */
  parts: Allocation;
}

export interface DecisionContext {
  facts: readonly WarehouseFacts[];
  plan: SortPlan;
  rules: readonly RoutingRule[];
  strategy: Strategy;
  /** The warehouses the decision uses, by rank. */
  used: ReadonlySet<number>;
  optimal: boolean;
}

const FILTER_OF: Record<ExclusionReason, RoutingRule> = {
  inactive: 'active',
  pinned_elsewhere: 'pinned',
  not_in_market: 'market',
  no_stock: 'stock',
  below_safety_stock: 'stock',
  over_capacity: 'capacity',
  rejected_before: 'not_rejected',
};

/**
 * Explains the lines of one decision. What does not depend on the line is worked out once: each
 * warehouse's key, in the order the rules compare them (the sorts before `fewest_shipments`,
 * whether it is in the chosen set when a set was chosen, then its rank, which is its order
 * under the sorts after and the code), and its key under each sort, for the ranks.
 */
export class Explainer {
  readonly #context: DecisionContext;
  /** The rule that chose the set, when a set was chosen. */
  readonly #setRule: DecidingRule | null;
  /** Per warehouse (by rank): its keys under the sorts before `fewest_shipments`, then its rank. */
  readonly #keys: number[][];
  /** Warehouses by code. */
  readonly #byCode: number[];
  /** Each warehouse's code, by rank. */
  readonly #codes: string[];
  /** Per sort of the rules, each warehouse's key under it. */
  readonly #sortKeys: SortLevels[];
  /**
   * Every warehouse in the order the rules put them in for any line ({@link #compare}): a line's
   * considered warehouses are these, filtered, rather than sorted line by line. Null when a key
   * is infinite (an unknown distance or an unlimited capacity among the sorts before
   * `fewest_shipments`): two such keys compare as NaN, the order is then not total, and each
   * line's own sort, from its warehouses by code, decides as it always has.
   */
  readonly #ordered: number[] | null;

  constructor(context: DecisionContext) {
    this.#context = context;
    const { plan, facts } = context;
    this.#setRule =
      context.strategy === 'set'
        ? plan.fewestShipments
          ? 'fewest_shipments'
          : 'one_shipment'
        : null;
    this.#keys = facts.map((warehouseFacts, warehouse) => [
      ...plan.before.map((sort) => sortKey(sort, warehouseFacts)),
      warehouse,
    ]);
    this.#codes = facts.map((warehouseFacts) => warehouseFacts.warehouse_code);
    this.#byCode = facts
      .map((_, warehouse) => warehouse)
      .sort((a, b) =>
        compareCodes(
          (facts[a] as WarehouseFacts).warehouse_code,
          (facts[b] as WarehouseFacts).warehouse_code,
        ),
      );
    this.#sortKeys = context.rules
      .filter((rule): rule is WarehouseSort => rule !== 'fewest_shipments' && isSort(rule))
      .map((sort) => levelsOf(sort, facts));
    this.#ordered = this.#keys.every((keys) => keys.every(Number.isFinite))
      ? facts.map((_, warehouse) => warehouse).sort((a, b) => this.#compare(a, b))
      : null;
  }

  /** The order the rules put two warehouses in for a line: the set first, then the keys. */
  #compare(a: number, b: number): number {
    const { used } = this.#context;
    if (this.#setRule !== null && used.has(a) !== used.has(b)) return used.has(a) ? -1 : 1;
    const ours = this.#keys[a] as number[];
    const theirs = this.#keys[b] as number[];
    for (let index = 0; index < ours.length; index++) {
      const difference = (ours[index] as number) - (theirs[index] as number);
      if (difference !== 0) return difference;
    }
    return 0;
  }

  /**
   * The rule that decided between the line's warehouse and the runner-up: the first sort (then
   * the code) where the line's warehouse goes first. Where the runner-up would go first, the
   * chosen set decided: it was left out to ship in fewer parcels.
   */
  #decidingRule(winner: number, runnerUp: number): DecidingRule {
    const ours = this.#keys[winner] as number[];
    const theirs = this.#keys[runnerUp] as number[];
    const { plan, facts } = this.#context;
    for (let index = 0; index < ours.length; index++) {
      const difference = (ours[index] as number) - (theirs[index] as number);
      if (difference > 0) return this.#setRule ?? 'code';
      if (difference === 0) continue;
      if (index < plan.before.length) return plan.before[index] as DecidingRule;
      // The rank: the first sort after where they differ, else the code.
      for (const sort of plan.after)
        if (
          sortKey(sort, facts[winner] as WarehouseFacts) !==
          sortKey(sort, facts[runnerUp] as WarehouseFacts)
        )
          return sort;
      return 'code';
    }
    return 'code';
  }

  /** The last filter, in the rules' order, that removed a warehouse for the line. */
  #narrowingFilter(excluded: readonly ExcludedWarehouse[]): RoutingRule | null {
    const { rules } = this.#context;
    let last = -1;
    for (const { reason } of excluded) last = Math.max(last, rules.indexOf(FILTER_OF[reason]));
    return last === -1 ? null : (rules[last] as RoutingRule);
  }

  /** One line's explanation. */
  line(line: LineContext): LineDecision {
    const { candidates, screening } = line;
    const { used } = this.#context;
    const codes = this.#codes;
    const routedShort = candidates.short && candidates.fallback.length > 0;
    const isConsidered = (warehouse: number) =>
      routedShort
        ? screening.eligible[warehouse] === true
        : !candidates.short && screening.excluded[warehouse] === null;
    const excluded: ExcludedWarehouse[] = [];
    for (const warehouse of this.#byCode) {
      if (isConsidered(warehouse)) continue;
      excluded.push({
        warehouse_code: codes[warehouse] as string,
        reason: screening.excluded[warehouse] ?? 'no_stock',
        available: screening.available[warehouse] as number,
      });
    }
    const considered: number[] = [];
    for (const warehouse of this.#ordered ?? this.#byCode)
      if (isConsidered(warehouse)) considered.push(warehouse);
    if (this.#ordered === null) considered.sort((a, b) => this.#compare(a, b));
    const [first] = line.parts;
    const runnerUp = considered.find(
      (warehouse) => !line.parts.some((part) => part.warehouse === warehouse),
    );
    let decided_by: DecidingRule | null = null;
    if (first !== undefined)
      decided_by =
        runnerUp === undefined
          ? this.#narrowingFilter(excluded)
          : this.#decidingRule(first.warehouse, runnerUp);
    const ranks = this.#sortKeys.map((levels) => ({
      sort: levels.sort,
      rankOf: denseRanks(levels, considered),
    }));
    return {
      line: line.line,
      sku: line.sku,
      qty: line.qty,
      parts: line.parts.map(({ warehouse, qty }) => ({
        warehouse_code: codes[warehouse] as string,
        qty,
      })),
      decided_by,
      short: candidates.short,
      optimal: this.#context.optimal,
      considered: considered.map((warehouse, index) => {
        const rankOf: Partial<Record<RoutingSort, number>> = {};
        if (this.#context.plan.fewestShipments)
          rankOf.fewest_shipments = used.has(warehouse) ? 1 : 2;
        for (const entry of ranks) rankOf[entry.sort] = entry.rankOf[index] as number;
        return {
          warehouse_code: codes[warehouse] as string,
          ranks: rankOf,
          available: screening.available[warehouse] as number,
        };
      }),
      excluded,
    };
  }
}

function isSort(rule: RoutingRule): rule is RoutingSort {
  return (ROUTING_SORTS as readonly string[]).includes(rule);
}

/**
 * The distinct keys of one sort over a decision's warehouses, in order, and the level of each
 * warehouse's key among them: ranks among any warehouses are then counted, never sorted.
 */
interface SortLevels {
  sort: WarehouseSort;
  /** Per warehouse (by rank), the index of its key among the distinct keys. */
  levelOf: number[];
  /** How many distinct keys there are. */
  levels: number;
  /** Scratch for {@link denseRanks}, one entry per level, reused line after line. */
  rankAt: number[];
}

function levelsOf(sort: WarehouseSort, facts: readonly WarehouseFacts[]): SortLevels {
  const keys = facts.map((warehouseFacts) => sortKey(sort, warehouseFacts));
  // Compared, never subtracted: two infinities are equal, not NaN.
  const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let levels = 0;
  for (let at = 0; at < sorted.length; at++)
    if (at === 0 || sorted[at] !== sorted[levels - 1]) sorted[levels++] = sorted[at] as number;
  sorted.length = levels;
  const levelOf: number[] = [];
  for (const key of keys) {
    // The key's index among the distinct keys, by bisection.
    let low = 0;
    let high = levels - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((sorted[middle] as number) < key) low = middle + 1;
      else high = middle;
    }
    levelOf.push(low);
  }
  return { sort, levelOf, levels, rankAt: new Array<number>(levels).fill(0) };
}

/** Dense ranks (1 = first) of `members` under one sort: equal keys share a rank. */
function denseRanks(sort: SortLevels, members: readonly number[]): number[] {
  const rankAt = sort.rankAt.fill(0);
  for (const member of members) rankAt[sort.levelOf[member] as number] = 1;
  let rank = 0;
  for (let level = 0; level < sort.levels; level++) if (rankAt[level] === 1) rankAt[level] = ++rank;
  return members.map((member) => rankAt[sort.levelOf[member] as number] as number);
}
