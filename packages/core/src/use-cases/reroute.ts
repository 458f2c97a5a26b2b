import { codFollowsTotal } from '../domain/live-totals.js';
import {
  fulfillmentOrderNumber,
  headerOf,
  openFulfillmentOrder,
  partAmounts,
} from '../domain/new-order.js';
import { byPriority, type RoutingContext, rerouteTarget } from '../domain/routing.js';
import { availableOf } from '../domain/safety-stock.js';
import type { Timestamp } from '../domain/timestamp.js';
import type { FulfillmentOrder, Item, StockLevel, Store, Warehouse } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';

/** Routing facts read from storage: active warehouses by priority and the stock of some skus. */
export async function loadRoutingContext(
  tx: RepositoryTx,
  storeId: number,
  skus: readonly string[],
): Promise<RoutingContext> {
  const warehouses = byPriority(await tx.listWarehouses(storeId));
  const levels = new Map<string, StockLevel>();
  for (const level of await tx.listStock({ store_id: storeId, warehouses: null, skus })) {
    levels.set(`${level.warehouse_code}\u0000${level.sku}`, level);
  }
  const byCode = new Map(warehouses.map((warehouse) => [warehouse.code, warehouse]));
  return {
    warehouses,
    available: (warehouse_code, sku) =>
      availableOf(levels.get(`${warehouse_code}\u0000${sku}`), byCode.get(warehouse_code)),
  };
}

/**
 * Reroutes rejected lines (docs/behaviour.md): each goes, in a new fulfillment order, to the
 * highest-priority other active warehouse that has the stock and has not turned it down; lines
 * sharing a target share the new order. Lines without a target stay rejected.
 */
export async function rerouteLines(
  tx: RepositoryTx,
  store: Store,
  from: FulfillmentOrder,
  rejected: readonly Item[],
  now: Timestamp,
): Promise<FulfillmentOrder[]> {
  if (!store.settings.reroute || rejected.length === 0) return [];
  const context = await loadRoutingContext(
    tx,
    store.id,
    rejected.map((item) => item.sku),
  );
  // Lines rerouted in this call count against the stock they will take, so two lines of one sku
  // never both go to a warehouse that has enough for only one.
  const taken = new Map<string, number>();
  const key = (warehouse: string, sku: string) => `${warehouse}\u0000${sku}`;
  const remaining: RoutingContext = {
    warehouses: context.warehouses,
    available: (warehouse, sku) =>
      context.available(warehouse, sku) - (taken.get(key(warehouse, sku)) ?? 0),
  };
  const groups = new Map<string, { warehouse: Warehouse; items: Item[] }>();
  for (const item of rejected) {
    const target = rerouteTarget(item, remaining);
    if (!target) continue;
    taken.set(key(target.code, item.sku), (taken.get(key(target.code, item.sku)) ?? 0) + item.qty);
    const group = groups.get(target.code) ?? { warehouse: target, items: [] };
    group.items.push(item);
    groups.set(target.code, group);
  }
  const created: FulfillmentOrder[] = [];
  for (const { warehouse, items } of groups.values()) {
    created.push(await openPartAt(tx, store, from, warehouse, items, now));
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
  audit: { actor: string; action: string; request_id?: string | null } = {
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
      },
      request_id: audit.request_id ?? null,
    },
  ]);
  return saved;
}
