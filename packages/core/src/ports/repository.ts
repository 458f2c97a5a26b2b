import type { ChangeHorizon, ChangePosition } from '../domain/change-cursor.js';
import type { CourierLabel } from '../domain/courier-labels.js';
import type { FeedName } from '../domain/feeds.js';
import type { QuarantineDelta } from '../domain/returns/return-outcome.js';
import type { ReturnRecord } from '../domain/returns/return-record.js';
import type { ReturnStatus } from '../domain/returns/return-status.js';
import type { SalesOrderRecord } from '../domain/sales-order-view.js';
import type { Timestamp } from '../domain/timestamp.js';
import type {
  AuditEvent,
  FulfillmentOrder,
  QueueName,
  Store,
  StoreSettings,
  TokenRecord,
  Track,
  Warehouse,
} from '../domain/types.js';
import type {
  AdminRepositoryTx,
  DeadlineClock,
  DeadlineCount,
  LateShipments,
} from './admin-repository.js';
import type { StockRepositoryTx } from './stock-repository.js';

export type { StockQuery, StockRepositoryTx } from './stock-repository.js';

/** How `Repository.transaction` runs its work. */
export type TransactionMode = 'read' | 'write' | 'autocommit';

/**
 * The storage contract. The engine never talks to a database any other way; each adapter
 * (SQLite, Postgres, …) implements it and proves it by running `@fulfil/core/testing`'s
 * contract suite.
 *
 * Every use case is one call to `transaction`: all of its reads and writes commit together or
 * not at all.
 */
export interface Repository {
  /**
   * Runs `work` in one database transaction and commits when it resolves; rolls back and
   * rethrows when it rejects. Transactions never nest. In `read` mode the work must not write;
   * adapters may then skip taking write locks. In `autocommit` mode the work must not write
   * either, and runs without a transaction (no BEGIN and COMMIT to wait for): each statement
   * reads the data as it is when it runs, so a later one sees no less than an earlier one, and
   * two reads need not agree.
   */
  transaction<T>(work: (tx: RepositoryTx) => Promise<T>, mode?: TransactionMode): Promise<T>;
  /**
   * A cheap value that names the state of the stored data, for caching what is read from it.
   *
   * Guarantee: once any change to any stored data (orders, queue entries and their documents,
   * tokens, stores, warehouses, stock, …) has committed, by this repository or by any other
   * connection or process on the same database, every later call returns a value that differs
   * from every value returned before that commit. A value therefore never comes back once
   * something committed after it. Equal values mean nothing was committed in between. The
   * converse does not hold: a value may change without any change (a rolled-back write, or
   * another database of the same server), which only costs a cache a miss.
   *
   * So what was read after a call returned stamp S may be kept under S and served while calls
   * still return S: if it saw a commit made after S, S is never returned again. Never call it
   * inside `transaction`: it may wait for the connection that transaction holds.
   */
  changeStamp(): Promise<string>;
  /**
   * `RepositoryTx.findStoreToken` outside any transaction: what authenticating a request reads.
   * The adapter may answer from tokens it has read before, so that a request reads none from the
   * database, but never one older than what it has heard of:
   * - a token written through this repository is seen by the next call once the write has
   *   committed (insertToken, revokeToken, retireToken, a dump's import);
   * - one written by another process or by hand is seen once the adapter hears of it: on a
   *   SQLite file at once (another connection's commit moves data_version), on Postgres when
   *   the commit's notification arrives, within milliseconds. While it cannot hear of such
   *   writes (its listening connection is down), it reads every token from the database.
   */
  findStoreToken(hash: string, storeCode: string): Promise<TokenRecord | null>;
  /**
   * A value, read without touching the database, that differs from every earlier one once a
   * queue entry of the store may have changed: written through this repository (once its write
   * has committed), or committed by any other connection or process (it may also move for any
   * other commit of theirs). A page read after a call returned V is still the store's while calls
   * return V. Undefined where the adapter cannot know that without a read (Postgres, where other
   * processes' commits are heard of only later). Optional.
   */
  queueVersion?(storeId: number): string | undefined;
  /**
   * Calls `listener` soon after a transaction that wrote queue entries has committed, in this
   * process or in another on the same database, with the id of the store it changed (null: some
   * store, unknown which). It may call more often than that, never less. Returns the function
   * that stops the calls. Listening holds no connection of the pool. Once the repository watches
   * other processes (from the first listener on), it calls with null: what committed before
   * was not heard, so whoever waits looks again. Optional: without it a long poll can only look
   * again on its own timer.
   */
  onQueueChange?(listener: (storeId: number | null) => void): () => void;
  /**
   * Calls `listener` soon after a transaction that may have changed a token (created, revoked,
   * retired, its scope or expiry changed) has committed, in this process or in another on the
   * same database: by the time it is called, `findStoreToken` reads what that commit wrote. It may
   * call more often than that, never less; once the repository watches other processes (from the
   * first listener on, and again after any gap in watching), it calls, since what committed
   * meanwhile was not heard. Returns the function that stops the calls. Optional: without it a
   * held long poll checks its token only when it answers.
   */
  onTokenChange?(listener: () => void): () => void;
  /** Releases the connection(s). The repository is unusable afterwards. */
  close(): Promise<void>;
}

export interface PollQuery {
  store_id: number;
  queue: QueueName;
  /** 1-based. */
  page: number;
  page_size: number;
  /** Only orders with `updated_at >= since`. */
  since: Timestamp | null;
  /** Only orders whose order-level warehouse is one of these; null: all. */
  warehouses: readonly string[] | null;
  /** Keyset paging: only orders with `id > after` (`page` is then 1). Absent or null: all. */
  after?: number | null;
}

/** The entries of a queue written after a change position (`since`), in change order. */
export interface ChangesQuery {
  store_id: number;
  queue: QueueName;
  page_size: number;
  warehouses: readonly string[] | null;
  /** Only entries whose (change, order id) is greater than this position's. */
  after: ChangePosition;
}

/** One entry of a `since` page: its position and its stored document. */
export interface ChangedEntry {
  change: number;
  order_id: number;
  document: string;
  /** The order's deadline (docs/deadlines.md), where the read gives it; null: none. */
  fulfill_by?: Timestamp | null;
}

/**
 * A queue page as `PollQuery` asks, in `sort` order: by id, or by `fulfill_by` earliest first
 * (ties by id, orders without one last); `after` then continues after that order's place in
 * this order (docs/deadlines.md).
 */
export interface DeadlinePollQuery extends PollQuery {
  sort: 'id' | 'fulfill_by';
}

/** One order of a {@link DeadlinePollQuery} page: its stored document and its deadline. */
export interface DeadlineEntry {
  order_id: number;
  document: string;
  fulfill_by: Timestamp | null;
}

/** Which change last wrote a queue entry: a `ChangedEntry` without its document. */
export type EntryChange = Omit<ChangedEntry, 'document'>;

/** A page's versions with the horizon of the same read (`RepositoryTx.pollVersions`). */
export interface PageVersions {
  horizon: ChangeHorizon;
  entries: EntryChange[];
}

/** One page of a feed by id, as `PollQuery` is of a queue (`page`, `after`, `since`). */
export interface FeedPageQuery {
  store_id: number;
  feed: FeedName;
  /** 1-based. */
  page: number;
  page_size: number;
  /** Only entries with `updated_at >= since`. */
  since: Timestamp | null;
  /** Only entries at one of these warehouses (a store-wide entry, at none, is not); null: all. */
  warehouses: readonly string[] | null;
  /** Keyset paging: only entries with `id > after` (`page` is then 1). Absent or null: all. */
  after?: number | null;
}

/** The entries of a feed written after a change position (`since`), in change order. */
export interface FeedChangesQuery {
  store_id: number;
  feed: FeedName;
  page_size: number;
  warehouses: readonly string[] | null;
  /** Only entries whose (change, id) is greater than this position's (`order_id`: the id). */
  after: ChangePosition;
}

/** One entry of a feed: the resource's id and the change that last wrote the entry. */
export interface FeedEntry {
  entry_id: number;
  change: number;
}

/** An entry a transaction writes into a feed, with the transaction's change. */
export interface FeedEntryWrite {
  entry_id: number;
  store_id: number;
  /** Where a token's warehouse scope finds it; null: the whole store's, seen by no scope. */
  warehouse_code: string | null;
  updated_at: Timestamp;
}

/** How many orders one queue of one store lists. */
export interface QueueCount {
  store_id: number;
  queue: QueueName;
  orders: number;
  /** `failed` only: how many of its `orders` were abandoned (they stay listed for good). */
  abandoned?: number;
}

/** A fulfillment order about to be stored for the first time (ids of all its parts are 0). */
export type NewFulfillmentOrder = FulfillmentOrder;

export type NewAuditEvent = Omit<AuditEvent, 'id'>;

export type NewToken = Omit<TokenRecord, 'id'>;

/** One change of a warehouse's daily count (docs/routing.md, daily capacity). */
export interface RoutedCount {
  warehouse_code: string;
  /** The warehouse's local day, `YYYY-MM-DD`. */
  day: string;
  /** +1 to count a fulfillment order, -1 to take back one counted in the same transaction. */
  by: number;
  /** The day's capacity the count may not pass; null: counted without a limit. */
  limit: number | null;
}

/** `count` numbers of one sales order's sequence of fulfillment orders. */
export interface SequenceClaim {
  sales_order_number: string;
  count: number;
}

/** The operations available inside one transaction; the operator's side's in admin-repository.ts. */
export interface RepositoryTx extends AdminRepositoryTx, StockRepositoryTx {
  // ── stores ───────────────────────────────────────────────────────────────────────────────
  /** The store with this code, or null. */
  findStore(code: string): Promise<Store | null>;
  /** The store with this id, or null. */
  findStoreById(id: number): Promise<Store | null>;
  /** Creates the store, or replaces the settings of the existing one with this code. */
  upsertStore(code: string, settings: StoreSettings): Promise<Store>;
  /** All stores, ordered by code. */
  listStores(): Promise<Store[]>;

  // ── warehouses ───────────────────────────────────────────────────────────────────────────
  /** Warehouses of the store ordered by code (bytewise); only `codes` when given. */
  listWarehouses(storeId: number, codes?: readonly string[] | null): Promise<Warehouse[]>;
  /** Creates the warehouse or replaces every field of the one with the same (store, code). */
  upsertWarehouse(warehouse: Warehouse): Promise<Warehouse>;
  /** Fulfillment orders routed to each warehouse on its local day (`YYYY-MM-DD`); 0 for none. */
  routedOn(
    storeId: number,
    keys: readonly { warehouse_code: string; day: string }[],
  ): Promise<number[]>;
  /**
   * Adds `by` to the fulfillment orders routed to the warehouse on its day, in one conditional
   * statement; with a `limit`, refused (null, nothing changed) when the count would pass it, even
   * under concurrent transactions. Returns the count after it.
   */
  countRouted(storeId: number, key: RoutedCount): Promise<number | null>;

  // ── tokens ───────────────────────────────────────────────────────────────────────────────
  /** Stores a token; fails with `already_exists` when the store has a token of that name. */
  insertToken(token: NewToken): Promise<TokenRecord>;
  /** The token whose hash this is, in any store, or null. Revoked and expired ones included. */
  findTokenByHash(hash: string): Promise<TokenRecord | null>;
  /**
   * The token whose hash this is if it belongs to the store of this code, else null; revoked
   * and expired ones included. One statement: what authenticating a request reads.
   */
  findStoreToken(hash: string, storeCode: string): Promise<TokenRecord | null>;
  /** The store's tokens ordered by name (bytewise). */
  listTokens(storeId: number): Promise<TokenRecord[]>;
  /**
   * Marks the named token revoked at `at`; false when no such token exists. Idempotent: the
   * first `revoked_at` is kept.
   */
  revokeToken(storeId: number, name: string, at: Timestamp): Promise<boolean>;

  // ── fulfillment orders ───────────────────────────────────────────────────────────────────
  /**
   * Reads the order with all its items, shipments and invoices, and locks it until the
   * transaction ends: while one transaction holds the lock, no other can lock or change that
   * order, so an action decided on what this returns can never be applied twice or lost.
   * Null when the store has no order with this number.
   */
  lockOrder(storeId: number, number: string): Promise<FulfillmentOrder | null>;
  /** Like `lockOrder` by id. */
  lockOrderById(id: number): Promise<FulfillmentOrder | null>;
  /**
   * Reads the order without locking it for writing: a snapshot in 'read' transactions; in
   * 'write' transactions the adapter may hold a share lock so the parts read stay consistent.
   */
  findOrder(storeId: number, number: string): Promise<FulfillmentOrder | null>;
  /**
   * Stores a new order with its items, the queues that list it and their documents (core's
   * `queueDocuments`); returns it with every id assigned. Moves its sales order in the
   * `sales_orders` feed by the time the transaction commits, creating the sales order's record
   * (`received` null) when the store has none.
   */
  insertOrder(order: NewFulfillmentOrder): Promise<FulfillmentOrder>;
  /**
   * Stores new orders as `insertOrder` stores each, in a few multi-row statements for the lot;
   * returns them with every id assigned, in the order given. Their fulfillment order numbers
   * differ from each other's and from every stored order's of their store.
   */
  insertOrders(orders: readonly NewFulfillmentOrder[]): Promise<FulfillmentOrder[]>;
  /**
   * Writes the order as given: its header, every item (inserting those with id 0; items are
   * never deleted), and the
   * shipments and invoices with id 0 (existing ones are immutable). The order must be locked in
   * this transaction. Returns it with every id assigned and its items, shipments and invoices in
   * the order given. Also refreshes which queues list it and, for each, the stored document
   * (core's `queueDocuments`), in the same transaction. Shipments and invoices refer only to
   * items already stored. Saving an order that does not exist is a bug and throws. Unless all it
   * writes is the courier's bookkeeping (`courier`, which no view shows), moves the order's sales
   * order in the `sales_orders` feed by the time the transaction commits, as `insertOrder` does.
   */
  saveOrder(order: FulfillmentOrder): Promise<FulfillmentOrder>;
  /**
   * Replaces the tracks of one stored shipment of the order, the one change a stored shipment
   * ever takes (an operator's correction): its items and `created_at` stay, the other shipments
   * are untouched. The order must be locked in this transaction; a later read, or a `saveOrder`
   * in the same transaction, sees the new tracks. False, and nothing written, when the order
   * has no shipment with this id. Moves the order's sales order in the `sales_orders` feed, as
   * `saveOrder` does.
   */
  updateShipmentTracks(
    orderId: number,
    shipmentId: number,
    tracks: readonly Track[],
  ): Promise<boolean>;
  /**
   * One page of the orders listed in a queue, ordered by id. The cost does not grow with the
   * number of orders that left every queue.
   */
  pollQueue(query: PollQuery): Promise<FulfillmentOrder[]>;
  /**
   * The same page as `pollQueue`, as the documents stored for the queue: each one is exactly
   * `JSON.stringify(presentOrder(order, { queue }))` of the order as last stored. Reads no order,
   * item, shipment or invoice row.
   */
  pollDocuments(query: PollQuery): Promise<string[]>;
  /** The same page as `pollDocuments`, each document with the change that last wrote it. */
  pollEntries(query: PollQuery): Promise<ChangedEntry[]>;
  /**
   * The same page as `pollEntries` without the documents: which entries it holds, and the change
   * that last wrote each, with the `changeHorizon` of the same statement (one round trip, and the
   * page is exactly what the horizon's moment held). A document never changes without its
   * change, so a reader that holds the document of each (order, queue, change) has the page
   * without reading it again.
   */
  pollVersions(query: PollQuery): Promise<PageVersions>;
  /**
   * The stored documents of these entries of `queue` (a page's versions, some of whose documents
   * a reader does not hold), each only while the change it names still wrote it: an entry
   * rewritten since, or gone from the queue, is left out. In no particular order.
   */
  entryDocuments(queue: QueueName, entries: readonly EntryChange[]): Promise<ChangedEntry[]>;
  /**
   * What this transaction may serve of the history of changes (core's `ChangeHorizon`). Called
   * first in a read transaction, so that the reads after it see every change below the horizon:
   * on Postgres the snapshot's xmin, below which every transaction has ended; on SQLite, whose
   * writers take turns, one past the last change.
   */
  changeHorizon(): Promise<ChangeHorizon>;
  /**
   * Up to `page_size` entries of the queue after `query.after`, in (change, order id) order, each
   * with the change that last wrote it. Entries at or above the horizon may come last: callers
   * serve only those below it.
   */
  pollChanges(query: ChangesQuery): Promise<ChangedEntry[]>;
  /**
   * One page of the queue in the query's `sort` order, each document with its order's
   * `fulfill_by`; null when `after` (sorting by deadline) names no order of the store.
   */
  pollWithDeadlines(query: DeadlinePollQuery): Promise<DeadlineEntry[] | null>;
  /**
   * The store's orders by warehouse and deadline status at `clock` (docs/deadlines.md): every
   * order not shipped that has a deadline, and those shipped at or after `shipped_since`.
   */
  countByDeadline(
    storeId: number,
    clock: DeadlineClock & { shipped_since: Timestamp },
  ): Promise<DeadlineCount[]>;
  /** Orders with a deadline shipped at or after `since`, by warehouse code, and how many late. */
  lateShipments(since: Timestamp): Promise<LateShipments[]>;
  /**
   * The next number in the sales order's sequence of fulfillment orders (1, 2, …). Atomic: two
   * transactions never get the same number.
   */
  nextFulfillmentSequence(storeId: number, salesOrderNumber: string): Promise<number>;
  /**
   * Claims `count` consecutive numbers of each sales order's sequence, for many sales orders in
   * one set-based write; answers the first number claimed for each, in the order given (1 for a
   * sales order never claimed before). Atomic exactly like `nextFulfillmentSequence`: two
   * transactions never get the same number. The sales order numbers must differ from each other.
   */
  claimFulfillmentSequences(storeId: number, claims: readonly SequenceClaim[]): Promise<number[]>;
  /**
   * Which of these sales order numbers the store has taken in (whose sequence was claimed), in
   * no particular order. Any number of them: the adapter splits long lists.
   */
  knownSalesOrders(storeId: number, salesOrderNumbers: readonly string[]): Promise<string[]>;
  /**
   * Ids of orders in pending_shipment at a courier warehouse whose next courier attempt is due
   * (`courier.next_attempt_at <= now`), oldest due first.
   */
  listCourierDue(now: Timestamp, limit: number): Promise<number[]>;
  /**
   * How many orders each queue lists, per store: the counts `pollQueue` would page through
   * without a scope or `since`. Queues that list no order may be left out. A `failed` count
   * says how many of its orders were abandoned (0 may be left out).
   */
  countQueues(): Promise<QueueCount[]>;

  // ── feeds (docs/polling.md) ──────────────────────────────────────────────────────────────
  /**
   * One page of the feed's entries, ordered by id: the same paging as `pollQueue`. Read after
   * `changeHorizon` in the same transaction, it shows at least what the horizon says.
   */
  pollFeed(query: FeedPageQuery): Promise<FeedEntry[]>;
  /**
   * Up to `page_size` entries of the feed after `query.after`, in (change, id) order, each with
   * the change that last wrote it; like `pollChanges`, those at or above the horizon may come
   * last and are not to be served yet.
   */
  pollFeedChanges(query: FeedChangesQuery): Promise<FeedEntry[]>;
  /**
   * Writes these entries of the feed (new ones inserted, others rewritten) with this
   * transaction's change: committed together with the change of the resources they stand for,
   * and told to `onQueueChange` listeners like a queue's.
   */
  writeFeedEntries(feed: FeedName, entries: readonly FeedEntryWrite[]): Promise<void>;
  /** Deletes these entries of the feed (a resource that leaves it); absent ones are no error. */
  removeFeedEntries(feed: FeedName, ids: readonly number[]): Promise<void>;

  // ── sales orders ─────────────────────────────────────────────────────────────────────────
  /**
   * Stores sales orders as taken in, each with its entry of the `sales_orders` feed, and returns
   * them with ids, in the order given. Their numbers are new to their store (intake claims the
   * number's sequence first): storing one twice is a bug and throws.
   */
  insertSalesOrders(records: readonly SalesOrderRecord[]): Promise<SalesOrderRecord[]>;
  /** The stored sales orders of the store with these numbers, in no particular order. */
  findSalesOrders(storeId: number, numbers: readonly string[]): Promise<SalesOrderRecord[]>;
  /** The stored sales orders with these ids, of any store, in no particular order. */
  salesOrdersById(ids: readonly number[]): Promise<SalesOrderRecord[]>;
  /** Every fulfillment order of these sales orders of the store, ordered by id. */
  listSalesOrderFulfillments(
    storeId: number,
    numbers: readonly string[],
  ): Promise<FulfillmentOrder[]>;
  /**
   * Moves these sales orders in the `sales_orders` feed with this transaction's change, by the
   * time it commits. `insertOrder(s)`, `saveOrder` (unless all it writes is the courier's
   * bookkeeping, which no view shows) and `updateShipmentTracks` move the sales order of the
   * fulfillment order they write by themselves; this is for any other change of what the sales
   * order view shows, made at `at`: their entries' `updated_at` rises to it, so that a poll by
   * `date` finds the change as a poll by `since` does. Numbers the store has no record of are
   * left alone.
   */
  touchSalesOrders(storeId: number, numbers: readonly string[], at: Timestamp): Promise<void>;

  // ── returns (docs/channel-guide.md, Returns) ─────────────────────────────────────────────
  /**
   * Stores a new return (id 0) and returns it with its id; null, writing nothing, when the store
   * has a return with its `rma_number` (once the transaction that wrote that one has committed:
   * a racing insert waits for it). The caller writes its feed entries.
   */
  insertReturn(record: ReturnRecord): Promise<ReturnRecord | null>;
  /** The store's returns with these rma numbers, in no particular order. */
  findReturns(storeId: number, rmaNumbers: readonly string[]): Promise<ReturnRecord[]>;
  /** The store's returns of these sales orders, ordered by id. */
  listSalesOrderReturns(storeId: number, numbers: readonly string[]): Promise<ReturnRecord[]>;
  /**
   * Every return of one sales order, ordered by id, each locked until the transaction ends: the
   * actions on returns lock these first, so that two of them on one sales order take turns.
   */
  lockSalesOrderReturns(storeId: number, salesOrderNumber: string): Promise<ReturnRecord[]>;
  /** The stored returns with these ids, of any store, in no particular order. */
  returnsById(ids: readonly number[]): Promise<ReturnRecord[]>;
  /** Rewrites every field of a stored return, locked in this transaction. */
  saveReturn(record: ReturnRecord): Promise<ReturnRecord>;
  /**
   * The store's returns ordered by id: every one (the quarantine check reads them all), or a page
   * of those in one status (core's `deriveReturnStatus`) after an id.
   */
  listStoreReturns(
    storeId: number,
    filter?: { status?: ReturnStatus; after?: number; limit?: number },
  ): Promise<ReturnRecord[]>;
  /** How many returns each store has in each status; statuses with none may be left out. */
  countReturns(): Promise<{ store_id: number; status: ReturnStatus; returns: number }[]>;
  /**
   * Adds each delta to the quarantined count of its (warehouse, sku) atomically (`x = x + d`),
   * creating missing rows from 0: goods counted apart from on hand, never available.
   */
  adjustQuarantine(storeId: number, deltas: readonly QuarantineDelta[]): Promise<void>;
  /** Sets the quarantined counts of these (warehouse, sku), creating missing rows. */
  setQuarantine(storeId: number, entries: readonly QuarantineDelta[]): Promise<void>;
  /** The non-zero quarantined counts, ordered by warehouse then sku; only `warehouses` when given. */
  listQuarantine(
    storeId: number,
    warehouses?: readonly string[] | null,
  ): Promise<QuarantineDelta[]>;

  // ── courier labels ───────────────────────────────────────────────────────────────────────
  /** The order's labels (docs/couriers.md), oldest first. */
  listLabels(orderId: number): Promise<CourierLabel[]>;
  /**
   * Inserts the labels with id 0 and rewrites every field of the others; returns them with ids
   * assigned, in the order given. Their order must be locked in this transaction.
   */
  saveLabels(labels: readonly CourierLabel[]): Promise<CourierLabel[]>;
  /** Deletes these labels of the order (rows of parcels no carrier was asked for). */
  deleteLabels(orderId: number, ids: readonly number[]): Promise<void>;
  /**
   * Ids of orders with a label in `voiding` or `void_failed` whose `next_void_at <= now`, oldest
   * due first, each once.
   */
  listLabelVoidsDue(now: Timestamp, limit: number): Promise<number[]>;

  // ── audit ────────────────────────────────────────────────────────────────────────────────
  appendAudit(events: readonly NewAuditEvent[]): Promise<void>;
  /** The order's audit trail, oldest first. */
  listAudit(orderId: number): Promise<AuditEvent[]>;
}
