import { appendAll } from '../domain/append-all.js';
import { DomainError, fieldError } from '../domain/errors.js';
import { fromMoney } from '../domain/money.js';
import {
  fulfillmentOrderNumber,
  headerOf,
  itemFromSalesLine,
  openFulfillmentOrder,
  partAmounts,
  salesOrderAmounts,
} from '../domain/new-order.js';
import { byPriority, type RouteAssignment, type RoutingContext } from '../domain/routing.js';
import { availableOf } from '../domain/safety-stock.js';
import type { SalesOrder } from '../domain/sales-order.js';
import type { SalesOrderRecord } from '../domain/sales-order-view.js';
import type { Timestamp } from '../domain/timestamp.js';
import {
  type FulfillmentOrder,
  ITEM_AMOUNT_FIELDS,
  ORDER_AMOUNT_FIELDS,
  type StockDelta,
  type Store,
  type Warehouse,
} from '../domain/types.js';
import type { NewAuditEvent, RepositoryTx } from '../ports/repository.js';
import { type EngineDeps, now, requireStore } from './deps.js';

function assertCompleteRoute(
  order: SalesOrder,
  routes: readonly RouteAssignment[],
  warehouses: readonly Warehouse[],
) {
  const assigned = routes.flatMap((route) => route.lines).sort((a, b) => a - b);
  const complete =
    assigned.length === order.items.length && assigned.every((line, index) => line === index);
  const unknown = routes.find(
    (route) => !warehouses.some((warehouse) => warehouse.code === route.warehouse_code),
  );
  if (!complete || unknown || routes.some((route) => route.lines.length === 0)) {
    throw new DomainError(
      'invalid_request',
      'The router must assign every line of the sales order once, to an active warehouse.',
    );
  }
}

/** The given amount fields of `record`, from exact ten-thousandths back to API units. */
function inApiUnits<T extends object>(record: T, fields: readonly (keyof T)[]): Partial<T> {
  const shown: Partial<T> = {};
  for (const field of fields) {
    const amount = record[field];
    if (typeof amount === 'number') shown[field] = fromMoney(amount) as T[keyof T];
  }
  return shown;
}

/** The sales order as the shop sent it, amounts in API units: what a custom router is given. */
function asSent(order: SalesOrder): SalesOrder {
  return {
    ...order,
    ...inApiUnits(order, ORDER_AMOUNT_FIELDS),
    items: order.items.map((item) => ({ ...item, ...inApiUnits(item, ITEM_AMOUNT_FIELDS) })),
  };
}

/** Where a sales order's lines go, decided before anything is written. */
export interface IntakePlan {
  order: SalesOrder;
  routes: RouteAssignment[];
}

/**
 * Intake of one or many sales orders inside one open transaction. The store, its active
 * warehouses and the stock of the skus met so far are read once per session, not once per
 * order; the stock this session reserves itself (courier lines) is counted in as it goes. The
 * orders claimed are written together by `flush`, a few multi-row statements for the lot.
 */
export interface IntakeSession {
  readonly store: Store;
  /**
   * Routes the sales order without writing anything: a DomainError here (a pinned warehouse
   * that is not active, a router that leaves lines out) leaves the transaction untouched.
   */
  plan(order: SalesOrder): Promise<IntakePlan>;
  /**
   * Builds the sales order's fulfillment orders, numbered `<n>-1`, `<n>-2`, …, reserves their
   * stock in the session, and keeps them for `flush`. Writes nothing. Fails with
   * `already_exists` when the session already holds that sales order.
   */
  claim(plan: IntakePlan): void;
  /**
   * Claims the sequences of every sales order kept since the last flush (one set-based write),
   * then writes their orders, the sales orders as taken in, stock effects and audit events.
   * Fails with `already_exists` when one of them was taken in meanwhile by a racing transaction:
   * its sequence was claimed by now, so the transaction must then be rolled back. Returns, per
   * claim in the order claimed, the sales order stored and the fulfillment orders created.
   */
  flush(): Promise<ClaimWritten[]>;
}

/** What `IntakeSession.flush` wrote of one claimed sales order. */
export interface ClaimWritten {
  record: SalesOrderRecord;
  orders: FulfillmentOrder[];
}

export function alreadyTakenIn(salesOrderNumber: string): DomainError {
  return fieldError(
    'already_exists',
    'Sales order %fieldValue was already taken in.',
    'sales_order_number',
    salesOrderNumber,
  );
}

/** A sales order kept by `claim`, with its new orders, until `flush` writes them. */
interface ClaimedSalesOrder {
  sales_order_number: string;
  order: SalesOrder;
  at: Timestamp;
  orders: FulfillmentOrder[];
}

const stockKey = (warehouse: string, sku: string) => `${warehouse}\u0000${sku}`;

export async function openIntakeSession(
  deps: EngineDeps,
  tx: RepositoryTx,
  storeCode: string,
  actorName: string,
): Promise<IntakeSession> {
  const store = await requireStore(tx, storeCode);
  const warehouses = byPriority(await tx.listWarehouses(store.id));
  const byCode = new Map(warehouses.map((warehouse) => [warehouse.code, warehouse]));
  const available = new Map<string, number>();
  const loadedSkus = new Set<string>();
  let claimed: ClaimedSalesOrder[] = [];
  /** Sales orders claimed in this session, flushed or not: each may be taken in once. */
  const claimedNumbers = new Set<string>();
  let stock: StockDelta[] = [];

  async function loadStock(skus: readonly string[]): Promise<void> {
    const missing = [...new Set(skus)].filter((sku) => !loadedSkus.has(sku));
    if (missing.length === 0) return;
    for (const level of await tx.listStock({ store_id: store.id, warehouses: null, skus: missing }))
      available.set(
        stockKey(level.warehouse_code, level.sku),
        availableOf(level, byCode.get(level.warehouse_code)),
      );
    for (const sku of missing) loadedSkus.add(sku);
  }

  function reserve(deltas: readonly StockDelta[]): void {
    for (const delta of deltas) {
      const key = stockKey(delta.warehouse_code, delta.sku);
      const before = available.get(key) ?? availableOf(undefined, byCode.get(delta.warehouse_code));
      available.set(key, before + delta.on_hand - delta.reserved);
    }
    appendAll(stock, deltas);
  }

  const context: RoutingContext = {
    warehouses,
    available: (warehouse, sku) =>
      available.get(stockKey(warehouse, sku)) ?? availableOf(undefined, byCode.get(warehouse)),
  };

  return {
    store,
    async plan(order) {
      if (
        order.warehouse_code &&
        !warehouses.some((warehouse) => warehouse.code === order.warehouse_code)
      ) {
        throw fieldError(
          'invalid_request',
          'Warehouse %fieldValue is not an active warehouse of this store.',
          'warehouse_code',
          order.warehouse_code,
        );
      }
      await loadStock(order.items.map((item) => item.sku));
      const routes = deps.router(asSent(order), context);
      assertCompleteRoute(order, routes, warehouses);
      return { order, routes };
    },
    claim({ order, routes }) {
      const number = order.sales_order_number;
      if (claimedNumbers.has(number)) throw alreadyTakenIn(number);
      const at = now(deps);
      const orders: FulfillmentOrder[] = [];
      for (const [position, route] of routes.entries()) {
        const warehouse = warehouses.find(
          (candidate) => candidate.code === route.warehouse_code,
        ) as Warehouse;
        const items = route.lines.map((line) =>
          itemFromSalesLine(order.items[line] as SalesOrder['items'][number], warehouse.code),
        );
        const opened = openFulfillmentOrder({
          header: headerOf(order, store.id),
          // The sequence claimed at flush must start at 1 (a sales order never taken in), so
          // the numbers are known now; flush fails the whole transaction otherwise.
          number: fulfillmentOrderNumber(number, position + 1),
          warehouse,
          items,
          // One fulfillment order takes the sales order's amounts as they are; a split shares them out.
          amounts:
            routes.length === 1
              ? salesOrderAmounts(order)
              : partAmounts(items, position === 0 ? salesOrderAmounts(order) : null),
          now: at,
          storeCalendar: store.settings.calendar,
        });
        reserve(opened.stock);
        orders.push(opened.order);
      }
      claimedNumbers.add(number);
      claimed.push({ sales_order_number: number, order, at, orders });
    },
    async flush() {
      const batch = claimed;
      const deltas = stock;
      claimed = [];
      stock = [];
      // Claiming each sales order's first number is the guard: the sequence is atomic, so of two
      // intakes racing on one sales order exactly one gets 1 (a lookup of "<n>-1" would let both in).
      const firsts = batch.length
        ? await tx.claimFulfillmentSequences(
            store.id,
            batch.map((entry) => ({
              sales_order_number: entry.sales_order_number,
              count: entry.orders.length,
            })),
          )
        : [];
      const raced = batch.findIndex((_, index) => firsts[index] !== 1);
      if (raced !== -1)
        throw alreadyTakenIn((batch[raced] as ClaimedSalesOrder).sales_order_number);
      const saved = await tx.insertOrders(batch.flatMap((entry) => entry.orders));
      const records = await tx.insertSalesOrders(
        batch.map((entry) => ({
          id: 0,
          store_id: store.id,
          sales_order_number: entry.sales_order_number,
          sales_order_id: entry.order.sales_order_id,
          received: entry.order,
          created_at: entry.at,
        })),
      );
      if (deltas.length) await tx.adjustStock(store.id, deltas);
      const audit: NewAuditEvent[] = saved.map((order) => ({
        order_id: order.id,
        at: order.created_at,
        actor: actorName,
        action: 'intake',
        details: {
          sales_order_number: order.sales_order_number,
          warehouse_code: order.warehouse_code,
        },
      }));
      if (audit.length) await tx.appendAudit(audit);
      let next = 0;
      return batch.map((entry, index) => {
        const orders = saved.slice(next, next + entry.orders.length);
        next += entry.orders.length;
        return { record: records[index] as SalesOrderRecord, orders };
      });
    },
  };
}
