import type { DecidingRule, LineDecision, RoutingDecision } from './explanation.js';
import type { ExclusionReason } from './rules.js';
import type { WarehouseFacts } from './sorts.js';

/**
 * A routing decision said in words, for the order's timeline and the console: "Routed to
 * WH-MILAN: closest with stock (312 km); WH-HAMBURG excluded: over daily capacity". Read from
 * the explanation alone, so what it says is what decided.
 */

const EXCLUDED: Record<ExclusionReason, (country: string) => string> = {
  inactive: () => 'inactive',
  pinned_elsewhere: () => "not the order's pinned warehouse",
  not_in_market: (country) => `does not ship to ${country || 'the destination'}`,
  no_stock: () => 'no stock',
  below_safety_stock: () => 'only safety stock left',
  over_capacity: () => 'over daily capacity',
  rejected_before: () => 'rejected it before',
};

/** Warehouse codes named in one clause at most; the rest are counted. */
const NAMED = 5;

function named(codes: readonly string[]): string {
  if (codes.length <= NAMED) return codes.join(', ');
  return `${codes.slice(0, NAMED).join(', ')} and ${codes.length - NAMED} more`;
}

/** Why the line went where it went, by the rule that decided. */
function why(
  rule: DecidingRule | null,
  target: WarehouseFacts | undefined,
  decision: RoutingDecision,
  withStock: boolean,
): string {
  const stock = withStock ? ' with stock' : '';
  switch (rule) {
    case 'fewest_shipments':
      return `fewest shipments (${decision.assignments.length})`;
    case 'one_shipment':
      return 'the whole order in one shipment';
    case 'priority':
      return `highest priority${stock} (${target?.priority})`;
    case 'distance':
      return target?.km === null || target?.km === undefined
        ? `distance unknown for every warehouse${stock}`
        : `closest${stock} (${target.km} km)`;
    case 'remaining_capacity':
      return target?.remaining_capacity === null || target?.remaining_capacity === undefined
        ? `no daily capacity limit${stock}`
        : `most capacity left today${stock} (${target.remaining_capacity})`;
    case 'code':
      return `first by code among equals${stock}`;
    case 'active':
      return 'the only active warehouse';
    case 'pinned':
      return 'pinned by the order';
    case 'market':
      return `the only one shipping to ${decision.destination.country}`;
    case 'stock':
      return 'the only one with stock';
    case 'capacity':
      return 'the only one with capacity left today';
    case 'not_rejected':
      return 'the only one that has not rejected it';
    case null:
      return 'the only warehouse';
  }
}

/** One line's decision in words. */
export function describeLine(decision: RoutingDecision, line: LineDecision): string {
  const factsOf = (code: string) =>
    decision.warehouses.find((warehouse) => warehouse.warehouse_code === code);
  const clauses: string[] = [];
  const [first, ...more] = line.parts;
  if (!first) {
    clauses.push(
      line.short
        ? 'Not routed: no warehouse has the stock'
        : 'Not routed: no warehouse can take it',
    );
  } else {
    const withStock = !line.short && decision.rules.includes('stock');
    const reason = why(line.decided_by, factsOf(first.warehouse_code), decision, withStock);
    if (more.length === 0)
      clauses.push(
        `Routed to ${first.warehouse_code}${line.short ? ', short: no warehouse has the stock;' : ':'} ${reason}`,
      );
    else {
      const parts = line.parts.map((part) => `${part.qty} from ${part.warehouse_code}`);
      const order = line.decided_by === null ? '' : `, ${first.warehouse_code} first: ${reason}`;
      clauses.push(`Split: ${parts.join(', ')}: no warehouse has all of it${order}`);
    }
  }
  if (!line.optimal) clauses.push('fewer shipments not proven (the search stopped)');
  if (decision.rules.includes('distance')) {
    const unknown = line.considered
      .filter((warehouse) => factsOf(warehouse.warehouse_code)?.km === null)
      .map((warehouse) => warehouse.warehouse_code);
    if (unknown.length > 0) clauses.push(`${named(unknown)} sorted last: distance unknown`);
  }
  const byReason = new Map<ExclusionReason, string[]>();
  for (const { warehouse_code, reason } of line.excluded)
    byReason.set(reason, [...(byReason.get(reason) ?? []), warehouse_code]);
  for (const [reason, codes] of byReason)
    clauses.push(`${named(codes)} excluded: ${EXCLUDED[reason](decision.destination.country)}`);
  return clauses.join('; ');
}

/** Every line's decision in words, in the lines' order. */
export function describeDecision(decision: RoutingDecision): string[] {
  return decision.lines.map((line) => describeLine(decision, line));
}
