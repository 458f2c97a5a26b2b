import type { FulfillmentOrder, SalesOrderRecord, Timestamp } from '@fulfil/core';
import type { Kysely } from 'kysely';
import { AdminQueries } from './admin-queries.js';
import type { BulkStatements } from './bulk-statements.js';
import type { TransactionChanges } from './change-feed.js';
import type { Database } from './database.js';
import type { PreparedQueries } from './prepared-queries.js';
import * as salesOrderSql from './sales-order-persistence.js';
import type { TransactionResources } from './transaction-resources.js';

/**
 * The repository operations on sales orders (sales-order-persistence.ts) on the transaction's
 * connection, and the end of its work that writes the sales orders it moved in their feed.
 * ReturnQueries extends it.
 */
export class SalesOrderQueries extends AdminQueries {
  readonly #db: Kysely<Database>;
  readonly #prepared: PreparedQueries;
  readonly #bulk: BulkStatements;
  readonly #changes: TransactionChanges;
  readonly #moves: salesOrderSql.SalesOrderMoves;

  constructor(db: Kysely<Database>, resources: TransactionResources) {
    super(db);
    this.#db = db;
    this.#prepared = resources.prepared;
    this.#bulk = resources.bulk;
    this.#changes = resources.changes;
    this.#moves = resources.moves;
  }

  async insertSalesOrders(records: readonly SalesOrderRecord[]): Promise<SalesOrderRecord[]> {
    if (records.length === 0) return [];
    const changeId = await this.#changes.idFor(records.map((record) => record.store_id));
    const stored = await salesOrderSql.insertSalesOrders(this.#db, this.#bulk, records, changeId);
    this.#moves.stored(stored);
    return stored;
  }

  findSalesOrders(storeId: number, numbers: readonly string[]): Promise<SalesOrderRecord[]> {
    return salesOrderSql.findSalesOrders(this.#db, this.#prepared, storeId, numbers);
  }

  salesOrdersById(ids: readonly number[]): Promise<SalesOrderRecord[]> {
    return salesOrderSql.salesOrdersById(this.#db, ids);
  }

  listSalesOrderFulfillments(
    storeId: number,
    numbers: readonly string[],
  ): Promise<FulfillmentOrder[]> {
    return salesOrderSql.listSalesOrderFulfillments(this.#db, storeId, numbers, this.#prepared);
  }

  async touchSalesOrders(
    storeId: number,
    numbers: readonly string[],
    at: Timestamp,
  ): Promise<void> {
    this.#moves.move(storeId, numbers, at);
  }

  /**
   * Ends the work of the transaction, before it commits: writes the sales orders it moved in
   * their feed, with its change (the repository calls it).
   */
  finish(): Promise<void> {
    return this.#moves.flush(this.#db, this.#bulk, this.#prepared, (storeId) =>
      this.#changes.idFor([storeId]),
    );
  }
}
