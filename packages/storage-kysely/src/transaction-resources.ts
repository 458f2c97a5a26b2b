import type { BulkStatements } from './bulk-statements.js';
import type { TransactionChanges } from './change-feed.js';
import type { PreparedQueries } from './prepared-queries.js';
import type { SalesOrderMoves } from './sales-order-persistence.js';

/**
 * What the classes of one transaction's operations (KyselyRepositoryTx and the classes it
 * extends, one per concern) share: made once by KyselyRepositoryTx, handed down to each.
 */
export interface TransactionResources {
  /** Take row locks (`KyselyRepositoryTxOptions.rowLocks`). */
  rowLocks: boolean;
  /** The dialect defers writes (`DriverProfile.deferredWrites`). */
  deferredWrites: boolean;
  /** The repository's prepared queries, compiled once for all its transactions. */
  prepared: PreparedQueries;
  /** The repository's compiled multi-row statements, kept across its transactions. */
  bulk: BulkStatements;
  /** The change the transaction writes, and the stores it changes (docs/polling.md). */
  changes: TransactionChanges;
  /** The sales orders it moves in their feed, written when its work is done (`finish`). */
  moves: SalesOrderMoves;
}
