import { codFollowsTotal } from '../domain/live-totals.js';
import {
  fulfillmentOrderNumber,
  headerOf,
  openFulfillmentOrder,
  partAmounts,
} from '../domain/new-order.js';
import type { RoutingDecision } from '../domain/routing/explanation.js';
import { explainEach, type RoutingExplanation } from '../domain/routing/record.js';
import type { ShippingAddress } from '../domain/sales-order.js';
import { parseTimestamp, type Timestamp } from '../domain/timestamp.js';
import type { FulfillmentOrder, Item, StockLevel, Store, Warehouse } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import type { EngineDeps } from './deps.js';
import { decideCounted, RoutingFacts } from './routing-facts.js';

/**
 * The stock of these skus at every warehouse, read to route: locked until the transaction ends,
 * in warehouse, sku order. A transaction that writes some of these rows and then routes must
 * take this first: a row written before, out of that order, could deadlock with an intake.
 */
export function lockRoutingStock(
  tx: RepositoryTx,
  storeId: number,
  skus: readonly string[],
): Promise<StockLevel[]> {
  return tx.listStock({
    store_id: storeId,
    warehouses: null,
    skus: [...new Set(skus)].sort(),
    lock: true,
  });
}

/**
 * Where the rejected lines' sales order ships to. The fulfillment order carries the address
 * without coordinates; the sales order as received has them, read only when the rules sort by
 * distance.
 */
async function destinationOf(
  deps: EngineDeps,
  tx: RepositoryTx,
  facts: RoutingFacts,
  from: FulfillmentOrder,
) {
  let address: ShippingAddress = from.shipping_address;
  if (facts.settings.routing.includes('distance')) {
    const [record] = await tx.findSalesOrders(facts.store.id, [from.sales_order_number]);
    if (record?.received) address = record.received.shipping_address;
  }
  return facts.destination(address, deps.locate);
}

/**
 * Reroutes rejected lines (docs/routing.md): each, in turn, is decided by the store's routing
 * rules with the warehouses that rejected it before left out and the stock the lines before it
 * took counted in; lines sharing a warehouse share its new fulfillment order. A line no
 * warehouse can take stays rejected. Lines are decided one at a time, as rerouting always has:
 * a rejected line goes to its own best warehouse, not to one chosen to ship the others with it.
 */
export async function rerouteLines(
  deps: EngineDeps,
  tx: RepositoryTx,
  store: Store,
  from: FulfillmentOrder,
  rejected: readonly Item[],
  now: Timestamp,
): Promise<FulfillmentOrder[]> {
  if (!store.settings.reroute || rejected.length === 0) return [];
  const facts = await RoutingFacts.read(tx, store, parseTimestamp(now) ?? new Date());
  await facts.loadStock(rejected.map((item) => item.sku));
  const destination = await destinationOf(deps, tx, facts, from);
  const groups = new Map<
    string,
    { warehouse: Warehouse; items: Item[]; decisions: RoutingDecision[] }
  >();
  for (const item of rejected) {
    const decision = await decideCounted(
      deps,
      facts,
      {
        lines: [{ sku: item.sku, qty: item.qty, rejected_by: item.rejected_by }],
        pinned: null,
        destination,
        short_lines: 'leave',
      },
      new Set(groups.keys()),
    );
    const [line] = decision.lines;
    const [part] = line?.parts ?? [];
    const warehouse = part && facts.warehouse(part.warehouse_code);
    if (!line || !warehouse) continue;
    // The stock this line will take, so the lines after it never count on the same units.
    facts.apply([
      { warehouse_code: warehouse.code, sku: item.sku, on_hand: 0, reserved: item.qty },
    ]);
    const group = groups.get(warehouse.code) ?? { warehouse, items: [], decisions: [] };
    group.items.push(item);
    group.decisions.push(decision);
    groups.set(warehouse.code, group);
  }
  const created: FulfillmentOrder[] = [];
  for (const { warehouse, items, decisions } of groups.values()) {
    created.push(
      await openPartAt(tx, store, from, warehouse, items, now, {
        actor: 'system',
        action: 'reroute',
        routing: explainEach(decisions),
      }),
    );
  }
  return created;
}

/**
 * Opens a new fulfillment order of `from`'s sales order at `warehouse` for `items` (lines taken
 * out of `from`), with its stock effects and its first timeline entry; rerouting and an
 * operator's move of lines share it.
 */
export async function openPartAt(
  tx: RepositoryTx,
  store: Store,
  from: FulfillmentOrder,
  warehouse: Warehouse,
  items: readonly Item[],
  now: Timestamp,
  audit: {
    actor: string;
    action: string;
    request_id?: string | null;
    /** Why the lines went there, when routing chose the warehouse. */
    routing?: RoutingExplanation;
  } = {
    actor: 'system',
    action: 'reroute',
  },
): Promise<FulfillmentOrder> {
  const sequence = await tx.nextFulfillmentSequence(store.id, from.sales_order_number);
  const { order, stock } = openFulfillmentOrder({
    header: headerOf(from, store.id),
    number: fulfillmentOrderNumber(from.sales_order_number, sequence),
    warehouse,
    items: [...items],
    amounts: partAmounts([...items], null, codFollowsTotal(from.amounts)),
    now,
    storeCalendar: store.settings.calendar,
  });
  const saved = await tx.insertOrder(order);
  await tx.adjustStock(store.id, stock);
  await tx.appendAudit([
    {
      order_id: saved.id,
      at: now,
      actor: audit.actor,
      action: audit.action,
      details: {
        from: from.fulfillment_order_number,
        items: items.map((item) => ({ sku: item.sku, qty: item.qty })),
        ...(audit.routing ? { routing: audit.routing } : {}),
      },
      request_id: audit.request_id ?? null,
    },
  ]);
  return saved;
}
