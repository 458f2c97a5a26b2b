import type { QuarantineDelta, ReturnRecord, ReturnStatus } from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import * as returnSql from './return-persistence.js';
import { SalesOrderQueries } from './sales-order-queries.js';
import type { TransactionResources } from './transaction-resources.js';

/**
 * The repository operations on returns and the goods they hold in quarantine
 * (return-persistence.ts) on the transaction's connection. KyselyRepositoryTx extends it.
 */
export class ReturnQueries extends SalesOrderQueries {
  readonly #db: Kysely<Database>;
  readonly #rowLocks: boolean;

  constructor(db: Kysely<Database>, resources: TransactionResources) {
    super(db, resources);
    this.#db = db;
    this.#rowLocks = resources.rowLocks;
  }

  insertReturn(record: ReturnRecord): Promise<ReturnRecord | null> {
    return returnSql.insertReturn(this.#db, record);
  }

  findReturns(storeId: number, rmaNumbers: readonly string[]): Promise<ReturnRecord[]> {
    return returnSql.findReturnsBy(this.#db, storeId, 'rma_number', rmaNumbers);
  }

  listSalesOrderReturns(storeId: number, numbers: readonly string[]): Promise<ReturnRecord[]> {
    return returnSql.findReturnsBy(this.#db, storeId, 'sales_order_number', numbers);
  }

  lockSalesOrderReturns(storeId: number, salesOrderNumber: string): Promise<ReturnRecord[]> {
    return returnSql.findReturnsBy(
      this.#db,
      storeId,
      'sales_order_number',
      [salesOrderNumber],
      this.#rowLocks,
    );
  }

  returnsById(ids: readonly number[]): Promise<ReturnRecord[]> {
    return returnSql.returnsById(this.#db, ids);
  }

  saveReturn(record: ReturnRecord): Promise<ReturnRecord> {
    return returnSql.saveReturn(this.#db, record);
  }

  listStoreReturns(
    storeId: number,
    filter?: { status?: ReturnStatus; after?: number; limit?: number },
  ): Promise<ReturnRecord[]> {
    return returnSql.listStoreReturns(this.#db, storeId, filter);
  }

  countReturns(): Promise<{ store_id: number; status: ReturnStatus; returns: number }[]> {
    return returnSql.countReturns(this.#db);
  }

  adjustQuarantine(storeId: number, deltas: readonly QuarantineDelta[]): Promise<void> {
    return returnSql.writeQuarantine(this.#db, storeId, deltas, 'add');
  }

  setQuarantine(storeId: number, entries: readonly QuarantineDelta[]): Promise<void> {
    return returnSql.writeQuarantine(this.#db, storeId, entries, 'set');
  }

  listQuarantine(
    storeId: number,
    warehouses: readonly string[] | null = null,
  ): Promise<QuarantineDelta[]> {
    return returnSql.listQuarantine(this.#db, storeId, warehouses);
  }
}
