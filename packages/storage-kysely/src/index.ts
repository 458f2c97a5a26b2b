/**
 * @fulfil/storage-kysely — the SQL shared by the SQLite and Postgres adapters, written once with
 * kysely: table types, migrations in code, and the `Repository` of `@fulfil/core`.
 */
export {
  AdminQueries,
  expiredSessionsDelete,
  oldestQuery,
  orderCountQuery,
  orderSearchQuery,
  planFilter,
  queueDepthQuery,
  storeHealthQuery,
} from './admin-queries.js';

export { CHANGE_FEED_SQL } from './change-feed.js';
export { chunk, ROWS_PER_STATEMENT } from './chunk.js';
export { courierDueQuery } from './courier-persistence.js';
export type {
  AuditEventTable,
  BooleanInt,
  Database,
  FeedEntryTable,
  FulfillmentOrderTable,
  InvoiceTable,
  ItemAmountColumns,
  JsonText,
  OrderAmountColumns,
  OrderItemTable,
  QueueEntryTable,
  SalesOrderSequenceTable,
  SalesOrderTable,
  ShipmentTable,
  StockTable,
  StoreTable,
  TimestampText,
  TokenTable,
  WarehouseTable,
} from './database.js';
export {
  backfillDeadlines,
  DEADLINE_BACKFILL_REASON,
  DEADLINE_BACKFILL_STEP,
} from './deadline-backfill.js';
export { lateShipmentsQuery } from './deadline-queries.js';
export { deferrable, deferWrites, type KeptTexts, mergeWrites } from './deferred-writes.js';
export type { DriverProfile } from './driver-profile.js';
export { type GroupCommitMessage, groupCommitProbe } from './group-commit.js';
export { KyselyRepository, type KyselyRepositoryOptions } from './kysely-repository.js';
export { KyselyRepositoryTx, type KyselyRepositoryTxOptions } from './kysely-repository-tx.js';
export { TOKENS_CHANNEL } from './migrations/0007-token-notifications.js';
export {
  FulfilMigrationProvider,
  MIGRATION_LOCK_TABLE,
  MIGRATION_TABLE,
  type MigrateOptions,
  migrateToLatest,
} from './migrations.js';
export {
  type PollStatementOptions,
  pollQueueDocuments,
  pollQueueIds,
  pollQueueVersions,
  type StatementPlan,
  type VersionsSql,
  versionsSqlOf,
} from './poll-query.js';
export { type ArgumentOf, PreparedQueries } from './prepared-queries.js';
export type { OtherProcesses, QueueChangeListener } from './queue-change-hub.js';
export { fillMissingDocuments } from './read-model.js';
export type { SchemaFlags } from './schema-flags.js';
export { SharedReads } from './shared-reads.js';
export {
  recordStatementSpansFrom,
  type StatementMessage,
  StatementShapes,
  type StatementTarget,
  statementProbe,
  statementSpanThreshold,
  summarizeStatement,
  traceStatements,
} from './statement-spans.js';
export {
  checkHeader,
  importStore,
  type NumberedRecord,
  STORE_DUMP_FORMAT,
  STORE_DUMP_VERSION,
  StoreDumpError,
  type StoreDumpRecord,
} from './store-dump.js';
export { exportStore } from './store-export.js';
export { TokenCache, type TokenWatch } from './token-cache.js';
export { onItsConnection } from './transaction-on-connection.js';
export { withRetries } from './transaction-retry.js';
export { heldOrdersQuery } from './waiting-queries.js';
export {
  DECLARE_WRITER_GENERATION_SQL,
  guardWrites,
  isOlderWriterRefusal,
  OLDER_WRITER_MESSAGE,
  REQUIRED_GENERATION_TABLE,
  unguardWrites,
  WRITER_GENERATION,
  WRITER_GENERATION_FUNCTION,
  WRITER_GENERATION_SETTING,
} from './writer-generation.js';
