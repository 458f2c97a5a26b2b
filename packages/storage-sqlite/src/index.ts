/**
 * @fulfil/storage-sqlite — the `Repository` of `@fulfil/core` over SQLite (better-sqlite3),
 * for `:memory:` and file databases, several processes on one file included.
 */

// Which statements have a span: an app's choice, process-wide, whichever adapter it opens.
export { recordStatementSpansFrom } from '@fulfil/storage-kysely';
export {
  CommitSync,
  type CommitSyncMessage,
  commitSyncProbe,
  type SyncedFile,
  syncedFile,
} from './commit-sync.js';
export { declareWriterGeneration } from './declare-writer.js';
export { explainPollQuery, type StatementPlan } from './explain-poll-query.js';
export {
  ImmediateSqliteDialect,
  type ImmediateSqliteDialectConfig,
} from './immediate-sqlite-dialect.js';
export { sqliteIntegrityProblems } from './integrity-problems.js';
export {
  openSqliteRepository,
  SQLITE_SCHEMA_FLAGS,
  type SqliteRepository,
  type SqliteRepositoryOptions,
} from './open-sqlite-repository.js';
export { isSqliteBusy, isSqliteUnavailable } from './sqlite-errors.js';
