import type { DeadlineStatus } from '../domain/deadline.js';
import type { OperatorRecord } from '../domain/operator.js';
import type { Timestamp } from '../domain/timestamp.js';
import type {
  CancellationRequest,
  OrderFailure,
  OrderHold,
  OrderStatus,
  QueueName,
  StockLevel,
} from '../domain/types.js';

/** The orders an operator looks for (docs/admin-api.md); absent fields do not filter. */
export interface OrderFilter {
  /** An order or sales order number exactly, or the start of a customer name or e-mail. */
  q?: string;
  status?: OrderStatus;
  queue?: QueueName;
  warehouse?: string;
  /** An exact sku on any line. */
  sku?: string;
  created_from?: Timestamp;
  created_to?: Timestamp;
  updated_from?: Timestamp;
  updated_to?: Timestamp;
  /** Only orders of this deadline status (docs/deadlines.md) read at `deadline_clock`. */
  deadline?: DeadlineStatus;
  deadline_clock?: DeadlineClock;
}

/**
 * The moments a deadline status is read against, as `deadlineStatus` reads them: unshipped
 * orders due before `now` are overdue, before `at_risk_until` (now + the store's
 * at_risk_hours) at risk.
 */
export interface DeadlineClock {
  now: Timestamp;
  at_risk_until: Timestamp;
}

export interface OrderSearch extends OrderFilter {
  store_id: number;
  /** Only orders whose id is below this one (keyset paging, newest first). */
  before_id?: number;
  /** `fulfill_by`: the earliest deadline first, ties by id, orders without one last. */
  sort?: 'id' | 'fulfill_by';
  /** Sorting by deadline: only orders after this place (keyset paging). */
  after_deadline?: { fulfill_by: Timestamp | null; id: number };
  limit: number;
}

/** How many orders of one warehouse are in one deadline status. */
export interface DeadlineCount {
  warehouse_code: string;
  status: DeadlineStatus;
  orders: number;
}

/** Orders of one warehouse (every store's) shipped since a moment, and how many late. */
export interface LateShipments {
  warehouse_code: string;
  shipped: number;
  late: number;
}

/** One row of an order list: the header, no lines. */
export interface OrderSummary {
  id: number;
  fulfillment_order_number: string;
  sales_order_number: string;
  status: OrderStatus;
  warehouse_code: string;
  customer_firstname: string;
  customer_lastname: string;
  customer_email: string;
  /** Ten-thousandths (core's Money), or null. */
  grand_total: number | null;
  failure: OrderFailure | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  fulfill_by: Timestamp | null;
  shipped_at: Timestamp | null;
}

/** How many orders one queue lists at one warehouse, and since when. */
export interface QueueDepthByWarehouse {
  queue: QueueName;
  warehouse_code: string;
  orders: number;
  /** `created_at` of the oldest of them. */
  oldest_at: Timestamp;
}

/** Counts of a store's failed queue and of its courier warehouses' orders. */
export interface StoreHealth {
  failed_open: number;
  failed_abandoned: number;
  /** Courier orders now awaiting their invoice. */
  courier_shipped: number;
  /** Courier orders whose last attempt failed and that will be tried again. */
  courier_retrying: number;
  /** Courier orders in the failed queue. */
  courier_failed: number;
}

/** An order some hold was ever placed on, as the list of holds reads it. */
export interface HeldOrder {
  fulfillment_order_number: string;
  sales_order_number: string;
  warehouse_code: string;
  status: OrderStatus;
  /** Every hold, released ones included. */
  holds: OrderHold[];
}

/** One line a cancellation request names. */
export interface RequestedLine {
  item_id: number;
  sku: string;
  qty: number;
}

/** An order in the `pending_cancellation` queue, with the lines of its open request. */
export interface RequestedOrder {
  fulfillment_order_number: string;
  sales_order_number: string;
  warehouse_code: string;
  /** Every request made of it: the open one is the last. */
  cancellation_requests: CancellationRequest[];
  /** The lines the open request names. */
  lines: RequestedLine[];
}

/** The quantity of open lines holding a reservation at one (warehouse, sku). */
export interface HeldStock {
  warehouse_code: string;
  sku: string;
  qty: number;
}

export interface NewStoreAuditEvent {
  store_id: number;
  at: Timestamp;
  actor: string;
  action: string;
  reason: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}

export interface OperatorSession {
  operator: OperatorRecord;
  expires_at: Timestamp;
}

/** The repository operations of the operator's side, inside one transaction. */
export interface AdminRepositoryTx {
  // ── operators and sessions ───────────────────────────────────────────────────────────────
  /** Stores an operator; fails with `already_exists` when the name is taken. */
  insertOperator(operator: Omit<OperatorRecord, 'id'>): Promise<OperatorRecord>;
  /** The operator of this name, revoked ones included, or null. */
  findOperator(name: string): Promise<OperatorRecord | null>;
  /** The operator whose secret hashes to this, revoked ones included, or null. */
  findOperatorByHash(hash: string): Promise<OperatorRecord | null>;
  /** Every operator, ordered by name (bytewise). */
  listOperators(): Promise<OperatorRecord[]>;
  /**
   * Marks the operator revoked at `at` (the first `revoked_at` is kept) and deletes every
   * session it has, in this transaction; false when no such operator exists.
   */
  revokeOperator(name: string, at: Timestamp): Promise<boolean>;
  insertSession(session: {
    hash: string;
    operator_id: number;
    created_at: Timestamp;
    expires_at: Timestamp;
  }): Promise<void>;
  /** The session whose cookie hashes to this, with its operator, or null; expiry not checked. */
  findSession(hash: string): Promise<OperatorSession | null>;
  /** Deletes the session; deleting one that is gone is harmless. */
  deleteSession(hash: string): Promise<void>;
  /**
   * Deletes every session whose `expires_at` is at or before `at` (none of them can be used
   * any more); answers how many. Cheap however many sessions there are: it seeks by expiry.
   */
  deleteExpiredSessions(at: Timestamp): Promise<number>;

  // ── the order search ─────────────────────────────────────────────────────────────────────
  /** Up to `limit` orders matching the search, newest (highest id) first. */
  searchOrders(search: OrderSearch): Promise<OrderSummary[]>;
  /** How many orders match the filter, counting no further than `cap`. */
  countOrders(storeId: number, filter: OrderFilter, cap: number): Promise<number>;
  /**
   * Whether the order of this id matches the filter now, exactly as `searchOrders` would select
   * it, read in this transaction: with the order locked, no commit can change the answer.
   */
  orderMatches(storeId: number, orderId: number, filter: OrderFilter): Promise<boolean>;

  // ── the dashboard and the reservation check ──────────────────────────────────────────────
  /** Per queue and warehouse of the store, the orders it lists; empty ones left out. */
  queueDepthsByWarehouse(storeId: number): Promise<QueueDepthByWarehouse[]>;
  storeHealth(storeId: number): Promise<StoreHealth>;
  /**
   * The store's orders that have an active hold, lowest id first, at most `limit` of them; read
   * through the index of orders with holds (migration 0020), never every order. An order whose
   * holds were all released may be among them: the caller keeps the active holds.
   */
  heldOrders(storeId: number, limit: number): Promise<HeldOrder[]>;
  /**
   * The orders the store's `pending_cancellation` queue lists, lowest id first, at most `limit`
   * of them, read from its queue entries.
   */
  ordersAwaitingCancellation(storeId: number, limit: number): Promise<RequestedOrder[]>;
  /**
   * Per (warehouse, sku), the qty of the store's lines that hold a reservation (core's
   * `holdsReservation`) in orders that were not abandoned; pairs with none are left out.
   */
  heldStock(storeId: number): Promise<HeldStock[]>;
  /** Sets `reserved` of existing stock rows to the given values, creating missing ones at 0 on hand. */
  setReserved(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; reserved: number }[],
  ): Promise<void>;
  appendStoreAudit(events: readonly NewStoreAuditEvent[]): Promise<void>;

  /**
   * Stock rows of the store ordered by warehouse_code then sku (bytewise), from just after
   * `after`; only skus starting with `sku_prefix` and the one warehouse when given.
   */
  listStockPage(page: {
    store_id: number;
    warehouse?: string;
    sku_prefix?: string;
    after?: { warehouse_code: string; sku: string };
    limit: number;
  }): Promise<StockLevel[]>;

  // ── tokens ───────────────────────────────────────────────────────────────────────────────
  /** Sets the token's `last_used_at`. */
  touchToken(id: number, at: Timestamp): Promise<void>;
  /** Renames the token and sets its expiry (rotation); false when no such token exists. */
  retireToken(
    storeId: number,
    name: string,
    newName: string,
    expiresAt: Timestamp,
  ): Promise<boolean>;
}
