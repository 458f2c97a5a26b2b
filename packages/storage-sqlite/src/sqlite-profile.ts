import { CHANGE_FEED_SQL, type DriverProfile } from '@fulfil/storage-kysely';
import { isSqliteBusy, isSqliteUnavailable } from './sqlite-errors.js';

export interface SqliteProfileOptions {
  /** Attempts of a transaction that keeps meeting SQLITE_BUSY, the first included. */
  maxAttempts: number;
  /** How long a transaction keeps meeting SQLITE_BUSY, from the first, before it fails. */
  lockTimeoutMs?: number;
  /** Whether writes that queue together share one commit (a file: one WAL sync for all). */
  groupCommit: boolean;
}

/** What the shared repository needs to know of SQLite (see `DriverProfile`). */
export function sqliteProfile(options: SqliteProfileOptions): DriverProfile {
  return {
    // `read only` begins deferred, anything else `BEGIN IMMEDIATE` (see ImmediateSqliteDialect).
    transactionSettings: (mode) => ({ accessMode: mode === 'read' ? 'read only' : 'read write' }),
    // The write transaction holds SQLite's database-wide write lock from BEGIN IMMEDIATE on:
    // no other writer can lock or change any order meanwhile.
    rowLocks: false,
    isRetryable: isSqliteBusy,
    // Locked past every attempt, disk full, read-only file: `unavailable`, not a fault of ours.
    isUnavailable: isSqliteUnavailable,
    // total_changes() counts the rows this connection changed (it is never reset), data_version
    // moves when another connection or process commits (it ignores this connection's own). The
    // pair is a fresh read only outside a transaction, which `changeStamp` ensures. A rolled
    // back write moves total_changes too: a spurious miss, never a stale hit.
    changeStampSql:
      "select total_changes() || '.' || data_version as stamp from pragma_data_version",
    changeIdSql: CHANGE_FEED_SQL.sqliteChangeId,
    changeHorizonSql: CHANGE_FEED_SQL.sqliteHorizon,
    jsonArrayAggregate: CHANGE_FEED_SQL.sqliteJsonArrayAggregate,
    // Another process's commit to the file moves data_version: long polls look for it (polling.md).
    otherProcessesSql: 'select data_version as version from pragma_data_version',
    // A file syncs its WAL at every commit, the larger part of a small write's cost, and holds one
    // writer at a time anyway: writes that queue meanwhile share the next commit.
    groupCommit: options.groupCommit,
    maxAttempts: options.maxAttempts,
    // SQLite never waits for a lock on the thread (busy_timeout 0): a transaction that meets one
    // is tried again on timers, soon at first, then every 25 to 75 ms, until the time limit.
    ...(options.lockTimeoutMs === undefined ? {} : { retryForMs: options.lockTimeoutMs }),
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 50,
  };
}
