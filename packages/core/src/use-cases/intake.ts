import { appendAll } from '../domain/append-all.js';
import { type DomainError, fieldError } from '../domain/errors.js';
import {
  fulfillmentOrderNumber,
  headerOf,
  openFulfillmentOrder,
  partAmounts,
  salesOrderAmounts,
} from '../domain/new-order.js';
import type { PlannedRoute } from '../domain/routing/planned-route.js';
import {
  explainRouting,
  type RoutingExplanation,
  type RoutingRecord,
} from '../domain/routing/record.js';
import type { SalesOrder } from '../domain/sales-order.js';
import type { SalesOrderRecord } from '../domain/sales-order-view.js';
import type { Timestamp } from '../domain/timestamp.js';
import type { FulfillmentOrder, StockDelta, Store, Warehouse } from '../domain/types.js';
import type { NewAuditEvent, RepositoryTx } from '../ports/repository.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import { routeSalesOrder, unroutedLine } from './route-sales-order.js';
import { RoutingFacts } from './routing-facts.js';
import { heldShort, holdsShort } from './short-stock.js';
import { StockPromises } from './stock-promises.js';

/** Where a sales order's lines go, decided before anything is written. */
export interface IntakePlan {
  order: SalesOrder;
  routes: PlannedRoute[];
  /** Why the lines go where they go: the rules' decision, or a custom router's. */
  routing: RoutingRecord;
  /** Taken in on hold `short-stock` (the store's `when_short` is `hold` and a line is short). */
  holdShort: boolean;
}

/**
 * Intake of one or many sales orders inside one open transaction. The store, its active
 * warehouses and the stock of the skus met so far are read once per session, not once per
 * order, under the stock rows' locks until the transaction ends; every line the session routes
 * reserves its qty at its warehouse and is counted in as it goes, so a later order of the session,
 * or of another transaction, finds that stock gone. The orders claimed are written together by
 * `flush`, a few multi-row statements for the lot.
 */
export interface IntakeSession {
  readonly store: Store;
  /**
   * Reads and locks the stock of these skus at once, before any order is planned, so that the
   * locks are taken in one order (a batch that read its skus order by order could deadlock with
   * another taking them the other way round).
   */
  loadStock(skus: readonly string[]): Promise<void>;
  /**
   * Routes the sales order without writing anything: a DomainError here (a pinned warehouse
   * that is not active, a router that leaves lines out, a line no warehouse can take) leaves
   * the transaction untouched. A routed order counts against its warehouses' daily capacity
   * for the orders planned after it; `flush` writes the counts.
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
   * its sequence was claimed by now, so the transaction must then be rolled back; with
   * `CapacityRaced` when a warehouse's daily capacity filled up meanwhile, likewise. Returns, per
   * claim in the order claimed, the sales order stored and the fulfillment orders created.
   */
  flush(): Promise<ClaimWritten[]>;
}

/** What `IntakeSession.flush` wrote of one claimed sales order. */
export interface ClaimWritten {
  record: SalesOrderRecord;
  orders: FulfillmentOrder[];
}

/**
 * A warehouse filled its daily capacity after this transaction read its count: the transaction
 * must be rolled back and run again, deciding on the count as it is now (docs/routing.md).
 */
export class CapacityRaced extends Error {
  constructor(readonly warehouse_code: string) {
    super(`Warehouse ${warehouse_code} reached its daily capacity meanwhile.`);
  }
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
  /** Why each order's lines went there, by the order's position. */
  explanations: RoutingExplanation[];
}

/**
 * Opens an intake session in `tx`. With `lockStock` the stock is read under its rows' locks,
 * held to the commit; without, it is read as it is, and the units routed as in stock are
 * checked under the locks before they are reserved (stock-promises.ts). A custom router's
 * decisions say nothing of what is in stock: they always read under the locks. Where the
 * transaction excludes every other writer (`writersExcluded`, SQLite), the stock read is the
 * stock at the commit: it is read once, as if locked, and never checked again.
 */
export async function openIntakeSession(
  deps: EngineDeps,
  tx: RepositoryTx,
  storeCode: string,
  actorName: string,
  options: { lockStock?: boolean } = {},
): Promise<IntakeSession> {
  const store = await requireStore(tx, storeCode);
  const lockStock =
    options.lockStock !== false || deps.router !== null || tx.writersExcluded === true;
  const facts = await RoutingFacts.read(tx, store, deps.clock.now(), { lockStock });
  const promises = new StockPromises();
  let claimed: ClaimedSalesOrder[] = [];
  /** Sales orders claimed in this session, flushed or not: each may be taken in once. */
  const claimedNumbers = new Set<string>();
  let stock: StockDelta[] = [];

  function reserve(deltas: readonly StockDelta[]): void {
    facts.apply(deltas);
    appendAll(stock, deltas);
  }

  return {
    store,
    loadStock: (skus) => facts.loadStock(skus),
    async plan(order) {
      const { routes, routing, unrouted } = await routeSalesOrder(deps, facts, order);
      // Every warehouse is out of market, over capacity or pinned away for it: nothing can ship.
      if (unrouted) throw unroutedLine(unrouted, routing);
      facts.route(routes.map((route) => route.warehouse_code));
      return { order, routes, routing, holdShort: holdsShort(facts.settings, routing) };
    },
    claim({ order, routes, routing, holdShort }) {
      const number = order.sales_order_number;
      if (claimedNumbers.has(number)) throw alreadyTakenIn(number);
      const at = now(deps);
      const orders: FulfillmentOrder[] = [];
      const explanations: RoutingExplanation[] = [];
      for (const [position, route] of routes.entries()) {
        explanations.push(
          explainRouting(
            routing,
            route.items.map((item, index) => ({
              line: route.lines[index] as number,
              sku: item.sku,
              qty: item.qty,
              warehouse_code: route.warehouse_code,
            })),
          ),
        );
        const warehouse = facts.warehouse(route.warehouse_code) as Warehouse;
        const items = route.items.map((item) => ({ ...item }));
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
        orders.push(holdShort ? heldShort(opened.order, actorName, at) : opened.order);
      }
      promises.add(routing);
      claimedNumbers.add(number);
      claimed.push({ sales_order_number: number, order, at, orders, explanations });
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
      // Read without locks, the stock is locked here, as late as can be, and checked.
      if (!lockStock) await promises.confirm(tx, store.id, (code) => facts.warehouse(code));
      if (deltas.length) await tx.adjustStock(store.id, deltas);
      const explanations = batch.flatMap((entry) => entry.explanations);
      const audit: NewAuditEvent[] = saved.map((order, index) => ({
        order_id: order.id,
        at: order.created_at,
        actor: actorName,
        action: 'intake',
        details: {
          sales_order_number: order.sales_order_number,
          warehouse_code: order.warehouse_code,
          routing: explanations[index],
          ...(order.holds.length > 0 ? { held: order.holds.map((hold) => hold.handle) } : {}),
        },
      }));
      if (audit.length) await tx.appendAudit(audit);
      // Last, so that the warehouses' count rows are held only until the commit.
      const full = await facts.writeCounts(
        !deps.router && facts.settings.routing.includes('capacity'),
      );
      if (full !== null) throw new CapacityRaced(full);
      let next = 0;
      return batch.map((entry, index) => {
        const orders = saved.slice(next, next + entry.orders.length);
        next += entry.orders.length;
        return { record: records[index] as SalesOrderRecord, orders };
      });
    },
  };
}
