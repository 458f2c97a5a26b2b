/**
 * A store's routing rules as data (docs/routing.md): an ordered list of filters, which remove
 * warehouses, and sorts, which order the rest lexicographically, each later sort breaking the
 * ties of the ones before it and the warehouse code breaking the last. No weighted sums: a
 * decision is always the first difference in that list, and can be said in words.
 */

/** The filters, each removing the warehouses that cannot take a line. */
export const ROUTING_FILTERS = [
  'active',
  'pinned',
  'market',
  'stock',
  'capacity',
  'not_rejected',
] as const;

/** The sorts, each ordering the warehouses left. */
export const ROUTING_SORTS = [
  'fewest_shipments',
  'priority',
  'distance',
  'remaining_capacity',
] as const;

export type RoutingFilter = (typeof ROUTING_FILTERS)[number];
export type RoutingSort = (typeof ROUTING_SORTS)[number];
export type RoutingRule = RoutingFilter | RoutingSort;

export const ROUTING_RULES: readonly RoutingRule[] = [...ROUTING_FILTERS, ...ROUTING_SORTS];

/** The sorts that rank one warehouse on its own (every sort but `fewest_shipments`). */
export type WarehouseSort = Exclude<RoutingSort, 'fewest_shipments'>;

/**
 * The rules of a store that has none of its own. They decide as routing did before rules were
 * data: the highest-priority warehouse that can take the whole order, otherwise each line to
 * the highest-priority warehouse with its stock. `market` and `capacity` change nothing until a
 * warehouse has `countries` or a `daily_capacity`: setting one takes effect without editing the
 * list.
 */
export const DEFAULT_ROUTING: readonly RoutingRule[] = [
  'active',
  'pinned',
  'not_rejected',
  'market',
  'capacity',
  'stock',
  'priority',
];

/** How many warehouses the `fewest_shipments` search tries at most, by default. */
export const DEFAULT_MAX_SHIPMENTS = 3;

/** Why a filter removed a warehouse for a line. */
export type ExclusionReason =
  | 'inactive'
  | 'pinned_elsewhere'
  | 'not_in_market'
  | 'no_stock'
  | 'below_safety_stock'
  | 'over_capacity'
  | 'rejected_before';

export function isRoutingFilter(rule: RoutingRule): rule is RoutingFilter {
  return (ROUTING_FILTERS as readonly string[]).includes(rule);
}

export function isRoutingRule(name: unknown): name is RoutingRule {
  return typeof name === 'string' && (ROUTING_RULES as readonly string[]).includes(name);
}

/**
 * What intake does with an order a line of which no warehouse has the stock for: `route_anyway`
 * (the best warehouse by the other rules, the line marked short) or `hold` (taken in so, on hold
 * `short-stock` until a stock write makes every line routable).
 */
export const WHEN_SHORT = ['route_anyway', 'hold'] as const;
export type WhenShort = (typeof WHEN_SHORT)[number];

/** A store's routing settings as in effect, each absent one at its default. */
export interface RoutingSettings {
  when_short: WhenShort;
  routing: RoutingRule[];
  /** The most warehouses the `fewest_shipments` search tries (>= 1). */
  max_shipments: number;
  /** Whether one line's quantity may be split across warehouses. */
  split_lines: boolean;
}

export function routingSettings(settings: Partial<RoutingSettings>): RoutingSettings {
  return {
    routing: settings.routing ?? [...DEFAULT_ROUTING],
    max_shipments: settings.max_shipments ?? DEFAULT_MAX_SHIPMENTS,
    split_lines: settings.split_lines ?? false,
    when_short: settings.when_short ?? 'route_anyway',
  };
}
