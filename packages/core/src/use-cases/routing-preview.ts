import { type DomainError, renderMessage } from '../domain/errors.js';
import type { RoutingDecision } from '../domain/routing/explanation.js';
import { describeLine } from '../domain/routing/words.js';
import type { SalesOrder } from '../domain/sales-order.js';
import type { Store } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { parseWith } from '../schemas/parse.js';
import { SalesOrderInput } from '../schemas/sales-order.js';
import { readStore } from './admin-access.js';
import type { EngineDeps } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';
import { routeSalesOrder, unroutedLine } from './route-sales-order.js';
import { RoutingFacts } from './routing-facts.js';

/** What intake would do with a sales order now (docs/routing.md, Preview). */
export interface RoutingPreview {
  /** `rules`: the store's routing rules decide; `router`: the engine's custom router does. */
  by: 'rules' | 'router';
  /** Whether intake would take it in; when not, `refusal` says why (a line nobody can take). */
  taken_in: boolean;
  refusal: string | null;
  /** The fulfillment orders intake would open, in order, with each one's lines. */
  fulfillment_orders: {
    warehouse_code: string;
    items: { line: number; sku: string; qty: number }[];
  }[];
  /** The rules' decision, every line explained (`rules` only; null for a custom router). */
  decision: RoutingDecision | null;
  /** Each line's decision in words, in the lines' order. */
  words: string[];
}

const refusalOf = (error: DomainError) => renderMessage(error.message, error.parameters);

/**
 * Routes a sales order as intake would at this moment, on the same facts (the store's rules,
 * its warehouses, stock and safety stock, today's counts against the daily capacities) and
 * through the same code, writing nothing.
 */
export async function previewWithin(
  deps: EngineDeps,
  tx: RepositoryTx,
  store: Store,
  order: SalesOrder,
): Promise<RoutingPreview> {
  const facts = await RoutingFacts.read(tx, store, deps.clock.now(), { lockStock: false });
  const { routes, routing, unrouted } = await routeSalesOrder(deps, facts, order);
  const decision = routing.by === 'rules' ? routing.decision : null;
  return {
    by: routing.by,
    taken_in: unrouted === null,
    refusal: unrouted ? refusalOf(unroutedLine(unrouted, routing)) : null,
    fulfillment_orders: routes.map((route) => ({
      warehouse_code: route.warehouse_code,
      items: route.items.map((item, index) => ({
        line: route.lines[index] as number,
        sku: item.sku,
        qty: item.qty,
      })),
    })),
    decision,
    words: decision
      ? decision.lines.map((line) => describeLine(decision, line))
      : routes.flatMap((route) =>
          route.items.map(() => `Routed to ${route.warehouse_code} by the custom router`),
        ),
  };
}

/** `POST /admin/api/stores/{store}/routing/preview`: the body a sales order, as intake takes it. */
export async function previewRouting(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  body: unknown,
): Promise<RoutingPreview> {
  const order = parseWith(SalesOrderInput, body);
  return readStore(deps, operator, storeCode, (tx, store) => previewWithin(deps, tx, store, order));
}
