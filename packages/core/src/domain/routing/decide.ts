import { compareCodes } from '../compare-codes.js';
import { DomainError } from '../errors.js';
import { type Allocation, allocate, coverProblem, oneWarehouseForAll } from './allocation.js';
import { type Candidates, candidatesOf } from './candidates.js';
import {
  type DecisionContext,
  Explainer,
  type RoutingDecision,
  type Strategy,
  type WarehouseAssignment,
} from './explanation.js';
import { fewestWarehouses, greedyCover } from './fewest-shipments.js';
import { demandsOf, filtersOf, Screener, type Screening } from './filters.js';
import type { RoutingSnapshot } from './snapshot.js';
import { factsOf, rankOrder, sortPlan, type WarehouseFacts } from './sorts.js';

/** The warehouses a set of allocations uses. */
function usedBy(allocations: readonly Allocation[]): Set<number> {
  const used = new Set<number>();
  for (const allocation of allocations) for (const part of allocation) used.add(part.warehouse);
  return used;
}

/** How the routable demands are placed, and whether the count of warehouses is the fewest. */
interface Placement {
  allocations: Allocation[];
  strategy: Strategy;
  optimal: boolean;
  tried: number;
}

/**
 * The greedy answer: the best-ranked warehouse that can take every demand whole, else each
 * demand to its own best.
 */
function greedy(routable: readonly Candidates[], warehouses: number): Placement {
  const one = oneWarehouseForAll(routable, warehouses);
  if (one !== null)
    return {
      allocations: routable.map((candidates) => [{ warehouse: one, qty: candidates.demand.qty }]),
      strategy: 'set',
      optimal: true,
      tried: 0,
    };
  return {
    allocations: routable.map((candidates) => allocate(candidates, null)),
    strategy: 'each_line',
    optimal: true,
    tried: 0,
  };
}

/** The demands placed within `set`, each to its best members there. */
function within(routable: readonly Candidates[], set: readonly number[], tried: number): Placement {
  const members = new Set(set);
  return {
    allocations: routable.map((candidates) => allocate(candidates, members)),
    strategy: 'set',
    optimal: true,
    tried,
  };
}

/**
 * The fewest warehouses that can take every routable demand, searched up to `max_shipments`
 * (and never past the greedy answers' count: they are covers already). When the search finds
 * none or stops at its bound, the better greedy answer (routing's greedy, or the greedy cover),
 * optimal only when the sizes the search tried whole prove its count the fewest.
 */
function fewestShipments(
  routable: readonly Candidates[],
  warehouses: number,
  snapshot: RoutingSnapshot,
): Placement {
  const eachOwn = greedy(routable, warehouses);
  if (routable.length === 0) return eachOwn;
  const problem = coverProblem(routable, warehouses, snapshot.split_lines);
  const eachOwnCount = usedBy(eachOwn.allocations).size;
  const search = fewestWarehouses(problem, Math.min(snapshot.max_shipments, eachOwnCount));
  if (search.set) return within(routable, search.set, search.tried);
  // The greedy cover, worked out only now: most decisions never need it.
  const covering = within(routable, greedyCover(problem, search.provenAbove + 1), 0);
  const fallback = usedBy(covering.allocations).size < eachOwnCount ? covering : eachOwn;
  const fallbackCount = usedBy(fallback.allocations).size;
  return { ...fallback, optimal: fallbackCount === search.provenAbove + 1, tried: search.tried };
}

function assertSnapshot(snapshot: RoutingSnapshot): void {
  const codes = new Set<string>();
  for (const warehouse of snapshot.warehouses) {
    if (codes.has(warehouse.code))
      throw new DomainError(
        'invalid_request',
        `Routing was given warehouse ${warehouse.code} twice.`,
      );
    codes.add(warehouse.code);
  }
  if (!(Number.isInteger(snapshot.max_shipments) && snapshot.max_shipments >= 1))
    throw new DomainError('invalid_request', 'max_shipments must be an integer >= 1.');
  for (const line of snapshot.lines)
    if (!(Number.isInteger(line.qty) && line.qty > 0))
      throw new DomainError('invalid_request', 'Every line to route needs a positive quantity.');
}

/**
 * Decides where the snapshot's lines go, and why (docs/routing.md). Pure and deterministic: the
 * same snapshot gives the same decision, whatever order its warehouses and stock came in.
 */
export function decideRouting(snapshot: RoutingSnapshot): RoutingDecision {
  assertSnapshot(snapshot);
  const plan = sortPlan(snapshot.rules);
  const filters = filtersOf(snapshot.rules);
  const allFacts = snapshot.warehouses.map((warehouse) => factsOf(warehouse, snapshot.destination));
  // The decision works in rank space: warehouse 0 ranks best under the sorts after
  // `fewest_shipments` (all of them without it), the code breaking ties.
  const order = rankOrder(allFacts, plan.after);
  const ranked = order.map(
    (index) => snapshot.warehouses[index] as (typeof snapshot.warehouses)[number],
  );
  const facts = order.map((index) => allFacts[index] as WarehouseFacts);
  const screener = new Screener(snapshot, filters, ranked);
  const demands = demandsOf(snapshot.lines);
  const options = {
    split: snapshot.split_lines,
    stockRule: filters.includes('stock'),
    routeShort: snapshot.short_lines === 'route',
    before: plan.before,
  };
  const screenings = demands.map((demand) => screener.screen(demand));
  const candidates = demands.map((demand, index) =>
    candidatesOf(demand, screenings[index] as Screening, facts, options),
  );
  const routable = candidates.filter((entry) => entry.routable);
  const placement = plan.fewestShipments
    ? fewestShipments(routable, ranked.length, snapshot)
    : greedy(routable, ranked.length);
  const allocationOf = new Map<Candidates, Allocation>(
    routable.map((entry, index) => [entry, placement.allocations[index] ?? []]),
  );
  const context: DecisionContext = {
    facts,
    plan,
    rules: snapshot.rules,
    strategy: placement.strategy,
    used: usedBy(placement.allocations),
    optimal: placement.optimal,
  };
  const explainer = new Explainer(context);
  const lines = demands.flatMap((demand, index) => {
    const entry = candidates[index] as Candidates;
    const shares = sharesOf(
      demand.lines.map((line) => (snapshot.lines[line] as { qty: number }).qty),
      allocationOf.get(entry) ?? [],
    );
    return demand.lines.map((line, position) =>
      explainer.line({
        line,
        sku: demand.sku,
        qty: (snapshot.lines[line] as { qty: number }).qty,
        candidates: entry,
        screening: screenings[index] as Screening,
        parts: shares[position] ?? [],
      }),
    );
  });
  lines.sort((a, b) => a.line - b.line);
  return {
    assignments: assignmentsOf(lines),
    lines,
    warehouses: [...allFacts].sort((a, b) => compareCodes(a.warehouse_code, b.warehouse_code)),
    destination: snapshot.destination,
    rules: snapshot.rules,
    optimal: placement.optimal,
    sets_tried: placement.tried,
  };
}

/** A demand's allocation shared out to its lines, in their order, each filled before the next. */
function sharesOf(quantities: readonly number[], allocation: Allocation): Allocation[] {
  const parts = allocation.map((part) => ({ ...part }));
  let at = 0;
  return quantities.map((qty) => {
    if (parts.length === 0) return [];
    const share: Allocation = [];
    let left = qty;
    while (left > 0 && at < parts.length) {
      const part = parts[at] as Allocation[number];
      const taken = Math.min(part.qty, left);
      share.push({ warehouse: part.warehouse, qty: taken });
      part.qty -= taken;
      left -= taken;
      if (part.qty === 0) at++;
    }
    return share;
  });
}

/** The fulfillment orders of a decision: one per warehouse, in the order of their first line. */
function assignmentsOf(lines: RoutingDecision['lines']): WarehouseAssignment[] {
  const byWarehouse = new Map<string, WarehouseAssignment>();
  const assignments: WarehouseAssignment[] = [];
  for (const line of lines) {
    for (const part of line.parts) {
      let assignment = byWarehouse.get(part.warehouse_code);
      if (!assignment) {
        assignment = { warehouse_code: part.warehouse_code, lines: [] };
        byWarehouse.set(part.warehouse_code, assignment);
        assignments.push(assignment);
      }
      assignment.lines.push({ line: line.line, qty: part.qty });
    }
  }
  return assignments;
}
