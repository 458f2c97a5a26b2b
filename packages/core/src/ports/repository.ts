import type { Timestamp } from '../domain/timestamp.js';
import type {
  AuditEvent,
  FulfillmentOrder,
  QueueName,
  StockDelta,
  StockLevel,
  Store,
  StoreSettings,
  TokenRecord,
  Warehouse,
} from '../domain/types.js';

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
   * adapters may then skip taking write locks.
   */
  transaction<T>(work: (tx: RepositoryTx) => Promise<T>, mode?: 'read' | 'write'): Promise<T>;
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
}

/** How many orders one queue of one store lists. */
export interface QueueCount {
  store_id: number;
  queue: QueueName;
  orders: number;
}

export interface StockQuery {
  store_id: number;
  warehouses: readonly string[] | null;
  sku?: string;
  /** Only these skus (any number of them; an empty list matches nothing). */
  skus?: readonly string[];
}

/** A fulfillment order about to be stored for the first time (ids of all its parts are 0). */
export type NewFulfillmentOrder = FulfillmentOrder;

export type NewAuditEvent = Omit<AuditEvent, 'id'>;

export type NewToken = Omit<TokenRecord, 'id'>;

/** `count` numbers of one sales order's sequence of fulfillment orders. */
export interface SequenceClaim {
  sales_order_number: string;
  count: number;
}

/** The operations available inside one transaction. */
export interface RepositoryTx {
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

  // ── stock ────────────────────────────────────────────────────────────────────────────────
  /**
   * Sets the on-hand quantity of every (warehouse_code, sku) in one set-based write, creating
   * missing rows with `reserved` 0 and leaving `reserved` untouched on existing rows.
   */
  setOnHand(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; qty: number }[],
  ): Promise<void>;
  /**
   * Creates the (warehouse_code, sku) rows that do not exist yet, with on hand `qty` and
   * `reserved` 0, in one set-based write; existing rows are left exactly as they are, even when
   * another transaction created them a moment ago. Returns how many rows it created.
   */
  addMissingStock(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; qty: number }[],
  ): Promise<number>;
  /**
   * Adds each delta to its row atomically (`x = x + delta`, never read-modify-write in the
   * application), creating missing rows from 0. Concurrent adjustments never lose an update.
   */
  adjustStock(storeId: number, deltas: readonly StockDelta[]): Promise<void>;
  /** Stock rows ordered by warehouse_code then sku. */
  listStock(query: StockQuery): Promise<StockLevel[]>;

  // ── tokens ───────────────────────────────────────────────────────────────────────────────
  /** Stores a token; fails with `already_exists` when the store has a token of that name. */
  insertToken(token: NewToken): Promise<TokenRecord>;
  /** The token whose hash this is, in any store, or null. Revoked and expired ones included. */
  findTokenByHash(hash: string): Promise<TokenRecord | null>;
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
   * `queueDocuments`); returns it with every id assigned.
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
   * items already stored. Saving an order that does not exist is a bug and throws.
   */
  saveOrder(order: FulfillmentOrder): Promise<FulfillmentOrder>;
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
   * without a scope or `since`. Queues that list no order may be left out.
   */
  countQueues(): Promise<QueueCount[]>;

  // ── audit ────────────────────────────────────────────────────────────────────────────────
  appendAudit(events: readonly NewAuditEvent[]): Promise<void>;
  /** The order's audit trail, oldest first. */
  listAudit(orderId: number): Promise<AuditEvent[]>;
}
