import { errorTypeOf, Probe, type SpanAttributes } from './probe.js';

/** What the `fulfil:action` channel tells of a use case (and its span's attributes). */
export interface ActionMessage {
  /** The engine method: `accept`, `intake`, `admin.dashboard`, … */
  action: string;
  /** The store's code, when the use case names one. */
  store?: string;
  /** The warehouse, when the caller's scope is one warehouse. */
  warehouse?: string;
}

export const actionProbe = new Probe<ActionMessage>({
  channel: 'fulfil:action',
  scope: '@fulfil/core',
  kind: 'internal',
  spanName: (message) => `fulfil ${message.action}`,
  attributes: (message) => ({
    'fulfil.action': message.action,
    'fulfil.store': message.store,
    'fulfil.warehouse': message.warehouse,
  }),
});

/**
 * The engine's members that are no use case: reads of its setup, plain synchronous checks, and
 * the check of a request's token, which every request makes before its use case (a span of its
 * own would be a third of an accept's; a slow statement of it is in the server span still).
 */
export type Untraced =
  | 'authenticate'
  | 'authorize'
  | 'operator'
  | 'now'
  | 'changeStamp'
  | 'onQueueChange'
  | 'onTokenChange'
  | 'close';

/**
 * The surface `traceUseCases` takes: every function member not named in `Untraced` answers with
 * a promise. A use case that answers synchronously is a type error here, not a span that ends
 * before its work.
 */
export type TraceableUseCases<Surface> = {
  [Key in keyof Surface]: Key extends Untraced
    ? Surface[Key]
    : Surface[Key] extends (...args: never[]) => infer Answer
      ? Answer extends Promise<unknown>
        ? Surface[Key]
        : never
      : Surface[Key];
};

const UNTRACED: ReadonlySet<string> = new Set<Untraced>([
  'authenticate',
  'authorize',
  'operator',
  'now',
  'changeStamp',
  'onQueueChange',
  'onTokenChange',
  'close',
]);

/** Who acts and where: the engine's use cases name their store first (a code or a principal). */
interface Scope {
  store?: string;
  warehouse?: string;
}

function scopeOf(first: unknown): Scope {
  if (typeof first === 'string') return { store: first };
  if (typeof first !== 'object' || first === null) return {};
  const { store_code: store, warehouses } = first as { store_code?: unknown; warehouses?: unknown };
  if (typeof store !== 'string') return {};
  const [only, ...others] = Array.isArray(warehouses) ? warehouses : [];
  return typeof only === 'string' && others.length === 0 ? { store, warehouse: only } : { store };
}

function isOrder(value: unknown): value is { warehouse_code: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { fulfillment_order_number?: unknown }).fulfillment_order_number ===
      'string' &&
    typeof (value as { warehouse_code?: unknown }).warehouse_code === 'string'
  );
}

/** The fulfillment orders an answer carries: itself, its items, or their `fulfillment_orders`. */
function ordersOf(answer: unknown): { warehouse_code: string }[] {
  const orders: { warehouse_code: string }[] = [];
  const look = (value: unknown) => {
    if (isOrder(value)) orders.push(value);
    else if (typeof value === 'object' && value !== null) {
      const { fulfillment_orders: nested } = value as { fulfillment_orders?: unknown };
      if (Array.isArray(nested)) for (const order of nested) if (isOrder(order)) orders.push(order);
    }
  };
  if (Array.isArray(answer)) for (const entry of answer) look(entry);
  else look(answer);
  return orders;
}

/**
 * The outcome of an answer (`created`, `exists`, … where it says one, else `ok`), how many
 * fulfillment orders it carries, and their warehouse when they share one.
 */
export function summaryOf(answer: unknown): SpanAttributes {
  const said = (answer as { outcome?: unknown } | null | undefined)?.outcome;
  const orders = ordersOf(answer);
  const warehouses = new Set(orders.map((order) => order.warehouse_code));
  const [warehouse] = warehouses;
  return {
    'fulfil.outcome': typeof said === 'string' ? said : 'ok',
    'fulfil.order_count': orders.length,
    ...(warehouses.size === 1 ? { 'fulfil.warehouse': warehouse } : {}),
  };
}

const settle = {
  result: summaryOf,
  error: (error: unknown): SpanAttributes => ({ 'fulfil.outcome': errorTypeOf(error) }),
};

/**
 * `surface` with each use case wrapped in a span of the `fulfil:action` probe: `prefix` + its
 * name as the action, its store and warehouse scope from its first argument (with `scoped`),
 * and its outcome and order count from its answer. No other argument is looked at: bodies,
 * secrets and names never reach a span. Members that are not functions are kept as they are.
 */
export function traceUseCases<Surface extends object>(
  surface: Surface & TraceableUseCases<Surface>,
  options: { prefix?: string; scoped?: boolean } = {},
): Surface {
  const { prefix = '', scoped = true } = options;
  const traced: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(surface)) {
    if (typeof member !== 'function' || UNTRACED.has(name)) {
      traced[name] = member;
      continue;
    }
    const action = `${prefix}${name}`;
    const useCase = member as (...args: unknown[]) => Promise<unknown>;
    // Nobody listening (the usual case): the use case itself, no closure made.
    traced[name] = (...args: unknown[]) =>
      actionProbe.enabled
        ? actionProbe.trace(
            () => ({ action, ...(scoped ? scopeOf(args[0]) : {}) }),
            () => useCase(...args),
            settle,
          )
        : useCase(...args);
  }
  return traced as Surface;
}
