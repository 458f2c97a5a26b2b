import type {
  StockAdjustmentRecord,
  StockDelta,
  StockHistoryEntry,
  StockHistoryQuery,
  StockLevel,
  StockQuery,
  StockSetContext,
} from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { BulkStatements } from './bulk-statements.js';
import type { Database } from './database.js';
import { DeadlineQueries } from './deadline-queries.js';
import type { PreparedQueries } from './prepared-queries.js';
import * as adjustmentSql from './stock-adjustment-persistence.js';
import * as historySql from './stock-history-persistence.js';
import type { StockEntry } from './stock-persistence.js';
import * as stockSql from './stock-persistence.js';
import type { TransactionResources } from './transaction-resources.js';

/**
 * The repository's stock on the transaction's connection: on hand, reservations, safety stock,
 * adjustments and the history of sets. KyselyRepositoryTx extends it.
 */
export class StockQueries extends DeadlineQueries {
  readonly #db: Kysely<Database>;
  readonly #bulk: BulkStatements;
  readonly #prepared: PreparedQueries;
  readonly #rowLocks: boolean;

  constructor(db: Kysely<Database>, resources: TransactionResources) {
    super(db, resources);
    this.#db = db;
    this.#bulk = resources.bulk;
    this.#prepared = resources.prepared;
    this.#rowLocks = resources.rowLocks;
  }

  setOnHand(storeId: number, entries: readonly StockEntry[]): Promise<void> {
    return stockSql.setOnHand(this.#db, this.#bulk, storeId, entries);
  }

  setSafetyStock(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; safety_stock: number | null }[],
  ): Promise<void> {
    return stockSql.setSafetyStock(this.#db, storeId, entries);
  }

  addMissingStock(storeId: number, entries: readonly StockEntry[]): Promise<number> {
    return stockSql.addMissingStock(this.#db, this.#bulk, storeId, entries);
  }

  adjustStock(storeId: number, deltas: readonly StockDelta[]): Promise<void> {
    return stockSql.adjustStock(this.#db, this.#bulk, storeId, deltas);
  }

  listStock(query: StockQuery): Promise<StockLevel[]> {
    return stockSql.listStock(this.#db, this.#prepared, query, this.#rowLocks);
  }

  lockStock(
    storeId: number,
    keys: readonly { warehouse_code: string; sku: string }[],
  ): Promise<StockLevel[]> {
    return stockSql.lockStock(this.#db, this.#bulk, storeId, keys, this.#rowLocks);
  }

  insertStockAdjustment(record: StockAdjustmentRecord): Promise<StockAdjustmentRecord | null> {
    return adjustmentSql.insertStockAdjustment(this.#db, record);
  }

  recordStockSets(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; qty: number; change_from?: number }[],
    context: StockSetContext,
  ): Promise<void> {
    return historySql.recordStockSets(
      this.#db,
      this.#bulk.arrayParameters,
      storeId,
      entries,
      context,
    );
  }

  stockHistory(query: StockHistoryQuery): Promise<StockHistoryEntry[]> {
    return historySql.stockHistory(this.#db, query);
  }

  findStockAdjustment(
    storeId: number,
    adjustmentNumber: string,
  ): Promise<StockAdjustmentRecord | null> {
    return adjustmentSql.findStockAdjustment(this.#db, storeId, adjustmentNumber);
  }
}
