import type { StockAdjustmentRecord } from '../domain/stock-adjustment.js';
import type {
  StockHistoryEntry,
  StockHistoryQuery,
  StockSetContext,
} from '../domain/stock-history.js';
import type { StockDelta, StockLevel } from '../domain/types.js';

export interface StockQuery {
  store_id: number;
  warehouses: readonly string[] | null;
  sku?: string;
  /** Only these skus (any number of them; an empty list matches nothing). */
  skus?: readonly string[];
  /**
   * Read to route: the rows read stay locked until the transaction ends, taken in warehouse_code,
   * sku order, so that two transactions never both route to the same last unit (a database whose
   * write transactions exclude each other, as SQLite's, needs no lock).
   */
  lock?: boolean;
}

/** The stock operations of a transaction (docs/behaviour.md, Stock); part of `RepositoryTx`. */
export interface StockRepositoryTx {
  /**
   * True where this transaction excludes every other writer from its start to its commit (a
   * SQLite write transaction, begun `IMMEDIATE`): the stock it reads stays as read, so a read to
   * route needs neither a row lock nor a second look before it reserves. False or absent where
   * writers run side by side (Postgres) or the transaction does not write.
   */
  readonly writersExcluded?: boolean;
  /**
   * Sets the on-hand quantity of every (warehouse_code, sku) in one set-based write, creating
   * missing rows with `reserved` 0 and leaving `reserved` untouched on existing rows.
   */
  setOnHand(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; qty: number }[],
  ): Promise<void>;
  /**
   * Sets the safety stock override of every (warehouse_code, sku), null to fall back on the
   * warehouse's; creates missing rows with nothing on hand, leaves on hand and reserved as they are.
   */
  setSafetyStock(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; safety_stock: number | null }[],
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
  /**
   * The stock rows of `keys`, ordered by warehouse_code then sku, locked until the transaction
   * ends (no other transaction changes them meanwhile); a missing row reads as on hand 0 (where
   * the database locks rows, it is created first so that it is locked too). A guarded set
   * compares against what this returns.
   */
  lockStock(
    storeId: number,
    keys: readonly { warehouse_code: string; sku: string }[],
  ): Promise<StockLevel[]>;

  /**
   * Stores an applied adjustment (id 0) with its lines and returns it with its id; null, writing
   * nothing, when the store has an adjustment with its number (once the transaction that wrote
   * that one has committed: a racing insert waits for it).
   */
  insertStockAdjustment(record: StockAdjustmentRecord): Promise<StockAdjustmentRecord | null>;
  /**
   * Stores in the stock history the sets `entries` are about to make, one per (warehouse_code,
   * sku) with the last entry for it winning, as `setOnHand` does: the on hand before is read from
   * each stock row as it is now (0 where there is none) by the statement that writes the history
   * (INSERT … SELECT), so nothing of the rows goes through the caller. Call it before `setOnHand`,
   * with the rows locked (`lockStock`) unless the transaction excludes every other writer.
   */
  recordStockSets(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; qty: number; change_from?: number }[],
    context: StockSetContext,
  ): Promise<void>;
  /**
   * One (warehouse, sku)'s stock history, sets and adjustment lines merged, newest first (see
   * `newestFirst`), at most `limit` entries older than `before`.
   */
  stockHistory(query: StockHistoryQuery): Promise<StockHistoryEntry[]>;
  /** The store's adjustment with this number, its lines in the order sent, or null. */
  findStockAdjustment(
    storeId: number,
    adjustmentNumber: string,
  ): Promise<StockAdjustmentRecord | null>;
}
