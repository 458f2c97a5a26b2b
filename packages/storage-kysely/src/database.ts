import type { Generated } from 'kysely';

/**
 * The row types of every table, as kysely sees them. One schema serves SQLite and Postgres, so
 * the column types are the common ground of both:
 *
 * - ids and money are 64-bit integers (`integer` in SQLite, `bigint` in Postgres, read back as
 *   `number` — the Postgres adapter parses int8 with a per-pool type parser);
 * - money is a count of ten-thousandths (core's `Money`), never a float;
 * - booleans are `0 | 1` integers (SQLite has no boolean type; better-sqlite3 cannot bind one);
 * - timestamps are `YYYY-MM-DD HH:MM:SS` UTC text: it round-trips as the very same string, and
 *   its fixed width makes text order equal time order, so `updated_at >= since` is correct;
 * - nested values (addresses, payment, tracks, …) are JSON text, decoded by the repository.
 *
 * Migrations never import these types: a migration is frozen in time, the types follow the latest
 * schema.
 */
export interface Database {
  stores: StoreTable;
  warehouses: WarehouseTable;
  warehouse_days: WarehouseDayTable;
  stock: StockTable;
  tokens: TokenTable;
  sales_order_sequences: SalesOrderSequenceTable;
  sales_orders: SalesOrderTable;
  feed_entries: FeedEntryTable;
  returns: ReturnTable;
  return_quarantine: ReturnQuarantineTable;
  stock_adjustments: StockAdjustmentTable;
  stock_adjustment_lines: StockAdjustmentLineTable;
  stock_sets: StockSetTable;
  fulfillment_orders: FulfillmentOrderTable;
  order_items: OrderItemTable;
  shipments: ShipmentTable;
  invoices: InvoiceTable;
  queue_entries: QueueEntryTable;
  audit_events: AuditEventTable;
  courier_labels: CourierLabelTable;
  operators: OperatorTable;
  operator_sessions: OperatorSessionTable;
  store_audit: StoreAuditTable;
  fulfil_change_clock: ChangeClockTable;
  fulfil_live_totals_due: OrdersDueTable;
  fulfil_ended_holds_due: OrdersDueTable;
}

/** `0 | 1`; see {@link Database}. */
export type BooleanInt = number;
/** JSON text. */
export type JsonText = string;
/** `YYYY-MM-DD HH:MM:SS` UTC. */
export type TimestampText = string;
/**
 * The `fulfill_by` of an order without one (migration 0030): the columns are never null, so that
 * one index sorts alike on both databases, and this sorts after every real deadline.
 */
export const NO_DEADLINE: TimestampText = '9999-12-31 23:59:59';

export interface StoreTable {
  id: Generated<number>;
  code: string;
  /** StoreSettings as JSON. */
  settings: JsonText;
}

export interface WarehouseTable {
  store_id: number;
  code: string;
  name: string;
  active: BooleanInt;
  fulfilled_by: string;
  priority: number;
  // Routing (migration 0025).
  latitude: number | null;
  longitude: number | null;
  /** string[] as JSON, or null for every country. */
  countries: JsonText | null;
  daily_capacity: number | null;
  /** The default safety stock of its skus (migration 0026). */
  safety_stock: number;
  /** IANA time zone its day is counted in (capacity, deadlines); null: UTC (migration 0029). */
  timezone: string | null;
  // Its calendar (migration 0030); null: the store's.
  processing_days: number | null;
  /** Weekday[] as JSON. */
  working_days: JsonText | null;
  /** string[] as JSON. */
  holidays: JsonText | null;
  cutoff: string | null;
}

/** Fulfillment orders routed to a warehouse in one of its local days (migration 0029). */
export interface WarehouseDayTable {
  store_id: number;
  warehouse_code: string;
  /** `YYYY-MM-DD`, in the warehouse's time zone. */
  day: string;
  routed: number;
}

export interface StockTable {
  store_id: number;
  warehouse_code: string;
  sku: string;
  on_hand: number;
  reserved: number;
  /** This sku's safety stock, or null for the warehouse's (migration 0026). */
  safety_stock: number | null;
}

export interface TokenTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  hash: string;
  /** string[] as JSON. */
  resources: JsonText;
  /** string[] as JSON, or null for the whole store. */
  warehouses: JsonText | null;
  expires_at: TimestampText | null;
  revoked_at: TimestampText | null;
  created_at: TimestampText;
  /** Written at most once a minute per token (migration 0004); null when never used since. */
  last_used_at: TimestampText | null;
}

export interface SalesOrderSequenceTable {
  store_id: number;
  sales_order_number: string;
  last_sequence: number;
}

/** A sales order as taken in (migration 0013; core's `SalesOrderRecord`). */
export interface SalesOrderTable {
  id: Generated<number>;
  store_id: number;
  sales_order_number: string;
  sales_order_id: number;
  /** The parsed sales order as JSON; null for one taken in before migration 0013. */
  received: JsonText | null;
  created_at: TimestampText;
}

/**
 * One resource of a feed (core's `FeedName`) other than the fulfillment queues: its id, the
 * change that last moved it (as `queue_entries.change_id`), and what `page`, `date` and a
 * token's warehouses filter on (migration 0013).
 */
export interface FeedEntryTable {
  feed: string;
  entry_id: number;
  store_id: number;
  /** Null: the whole store's; no warehouse scope sees it. */
  warehouse_code: string | null;
  updated_at: TimestampText;
  change_id: number;
}

/** A return (migration 0019): its lines, receipts and credits are `document` (core's record). */
export interface ReturnTable {
  id: Generated<number>;
  store_id: number;
  rma_number: string;
  sales_order_number: string;
  warehouse_code: string;
  /** Core's `deriveReturnStatus`, kept for counting by status. */
  status: string;
  document: JsonText;
  canceled_at: TimestampText | null;
  created_at: TimestampText;
  updated_at: TimestampText;
}

/** Returned goods counted apart from on hand, never available (migration 0019). */
export interface ReturnQuarantineTable {
  store_id: number;
  warehouse_code: string;
  sku: string;
  qty: number;
}

/** An applied stock adjustment (migration 0023), unique by number in its store. */
export interface StockAdjustmentTable {
  id: Generated<number>;
  store_id: number;
  adjustment_number: string;
  token_name: string;
  created_at: TimestampText;
}

/** A line of a stock adjustment (`line` from 0, in the order sent) and the on hand it left. */
export interface StockAdjustmentLineTable {
  store_id: number;
  adjustment_id: number;
  line: number;
  warehouse_code: string;
  sku: string;
  delta: number;
  reason: string;
  on_hand: number;
}

/** An absolute set of one (warehouse, sku) in the stock history. */
export interface StockSetTable {
  id: Generated<number>;
  store_id: number;
  warehouse_code: string;
  sku: string;
  on_hand_before: number;
  on_hand_after: number;
  change_from: number | null;
  actor: string;
  source: string;
  request_id: string | null;
  created_at: TimestampText;
}

/** Money columns of an order header (ten-thousandths), null when the amount is absent. */
export interface OrderAmountColumns {
  shipping_amount: number | null;
  shipping_amount_excl_tax: number | null;
  shipping_tax_amount: number | null;
  shipping_tax_rate: number | null;
  grand_total: number | null;
  grand_total_excl_tax: number | null;
  tax_amount: number | null;
  cod_amount: number | null;
  package_value: number | null;
}

export interface FulfillmentOrderTable extends OrderAmountColumns {
  id: Generated<number>;
  store_id: number;
  fulfillment_order_number: string;
  sales_order_id: number;
  sales_order_number: string;
  warehouse_code: string;
  status: string;
  /** `0 | 1`, or null to defer to the store settings. */
  allow_partial: BooleanInt | null;
  customer_firstname: string;
  customer_lastname: string;
  customer_email: string;
  customer_is_guest: BooleanInt;
  payment: JsonText;
  shipping: JsonText;
  billing_address: JsonText;
  shipping_address: JsonText;
  /** OrderFailure as JSON, or null. */
  failure: JsonText | null;
  courier_attempts: number;
  courier_last_error: string | null;
  courier_next_attempt_at: TimestampText | null;
  /** OrderHold[] as JSON, or null for none (migration 0016). */
  holds: JsonText | null;
  /** CancellationRequest[] as JSON, or null for none (migration 0016). */
  cancellation_requests: JsonText | null;
  allocated_at: TimestampText | null;
  shipped_at: TimestampText | null;
  invoiced_at: TimestampText | null;
  created_at: TimestampText;
  updated_at: TimestampText;
  /** When it must leave its warehouse (migration 0030); `NO_DEADLINE` for none. */
  fulfill_by: Generated<TimestampText>;
}

/** Money columns of an item (ten-thousandths), null when the amount is absent. */
export interface ItemAmountColumns {
  price: number | null;
  price_excl_tax: number | null;
  tax_amount: number | null;
  tax_rate: number | null;
  total_price: number | null;
  total_price_excl_tax: number | null;
  total_tax_amount: number | null;
}

export interface OrderItemTable extends ItemAmountColumns {
  id: Generated<number>;
  order_id: number;
  /** Index of the item in `FulfillmentOrder.items`; items load in this order. */
  position: number;
  status: string;
  warehouse_code: string;
  name: string;
  sku: string;
  qty: number;
  /** string[] as JSON. */
  rejected_by: JsonText;
  invoice_number: string | null;
}

export interface ShipmentTable {
  id: Generated<number>;
  order_id: number;
  /** `{ item_id, qty }[]` as JSON. */
  items: JsonText;
  /** Track[] as JSON. */
  tracks: JsonText;
  created_at: TimestampText;
}

export interface InvoiceTable {
  id: Generated<number>;
  order_id: number;
  invoice_number: string;
  /** number[] as JSON. */
  item_ids: JsonText;
  shipping_amount_incl_tax: number;
  invoice_time: string | null;
  additional_data: string | null;
  doc_binary: string | null;
  created_at: TimestampText;
}

/**
 * One row per (order, queue that lists it), rewritten from core's `queueDocuments(order)`
 * whenever an order is stored: the read model. Polling reads only this table, so orders that
 * left every queue cost nothing. `store_id`, `warehouse_code` and `updated_at` are copies of the
 * order's, kept in step by the same write.
 */
export interface QueueEntryTable {
  order_id: number;
  store_id: number;
  queue: string;
  warehouse_code: string;
  updated_at: TimestampText;
  /**
   * The order as this queue's response shows it, JSON text. Null only between migration 0002
   * and `fillMissingDocuments`, which the adapters run right after migrating.
   */
  document: JsonText | null;
  /**
   * The change that last wrote the entry (docs/polling.md): the writer's transaction id on
   * Postgres, the change clock's value on SQLite; 0 for entries older than migration 0006.
   */
  change_id: Generated<number>;
  /** The order's `fulfill_by` (migration 0030), for polls sorted by it; `NO_DEADLINE` for none. */
  fulfill_by: Generated<TimestampText>;
}

/** One row: the database's epoch and, on SQLite, the number of the last change. */
export interface ChangeClockTable {
  epoch: string;
  value: number;
}

/**
 * Orders a migration listed for live code to bring to a rule of its release
 * (listed-order-upgrades.ts), empty once it has run: `fulfil_live_totals_due` (0010), whose totals
 * may still count lines they dropped; `fulfil_ended_holds_due` (0022), canceled and still held.
 */
export interface OrdersDueTable {
  order_id: number;
}

export interface AuditEventTable {
  id: Generated<number>;
  order_id: number;
  at: TimestampText;
  actor: string;
  action: string;
  /** Record<string, unknown> as JSON. */
  details: JsonText;
  /** The request that caused it (migration 0004); null for the CLI, the library, older events. */
  request_id: string | null;
  reason: string | null;
}

export interface OperatorTable {
  id: Generated<number>;
  name: string;
  /** `viewer`, `operator` or `admin`. */
  role: string;
  /** The one store the operator may see; null for every store. */
  store_code: string | null;
  /** SHA-256 of the secret, hex. */
  hash: string;
  created_at: TimestampText;
  revoked_at: TimestampText | null;
}

export interface OperatorSessionTable {
  /** SHA-256 of the session cookie's value, hex. */
  hash: string;
  operator_id: number;
  created_at: TimestampText;
  expires_at: TimestampText;
}

/** What operators did that concerns a store rather than one order (stock, tokens, reservations). */
export interface StoreAuditTable {
  id: Generated<number>;
  store_id: number;
  at: TimestampText;
  actor: string;
  action: string;
  reason: string | null;
  request_id: string | null;
  /** Record<string, unknown> as JSON. */
  details: JsonText;
}

/** One parcel's label of a courier shipment (core's `CourierLabel`). */
export interface CourierLabelTable {
  id: Generated<number>;
  order_id: number;
  reference: string;
  shipment_number: number;
  parcel_index: number;
  parcel_count: number;
  carrier: string;
  /** The carrier as it named itself on the label (migration 0022); null when it did not. */
  carrier_code: string | null;
  carrier_label_id: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  document: string | null;
  document_format: string | null;
  document_url: string | null;
  status: string;
  void_attempts: number;
  next_void_at: TimestampText | null;
  last_error: string | null;
  created_at: TimestampText;
  voided_at: TimestampText | null;
}
