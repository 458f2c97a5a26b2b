import type { AccessMode, IsolationLevel } from 'kysely';

/** What the repository asks of the database driver underneath; each adapter supplies one. */
export interface DriverProfile {
  /**
   * The kysely transaction settings of a repository transaction. The adapter's dialect turns
   * them into its `BEGIN`: SQLite begins write transactions with `BEGIN IMMEDIATE` (so that two
   * processes on one file serialize their writers up front instead of deadlocking on a lock
   * upgrade), Postgres can read in a `repeatable read, read only` snapshot.
   */
  transactionSettings(mode: 'read' | 'write'): {
    accessMode?: AccessMode;
    isolationLevel?: IsolationLevel;
  };
  /**
   * Whether write transactions take row locks (`SELECT … FOR UPDATE` / `FOR SHARE`). Without
   * them, `lockOrder` relies on the write transaction already excluding every other writer
   * (SQLite's database-wide write lock, taken at `BEGIN IMMEDIATE`).
   */
  rowLocks: boolean;
  /**
   * Whether a transaction that failed with `error` may simply be run again from the start
   * (SQLITE_BUSY that outlived the busy timeout; Postgres serialization failure or deadlock).
   * The transaction was rolled back, and the work only touches the database, so re-running it
   * is safe.
   */
  isRetryable(error: unknown): boolean;
  /**
   * Whether `error` says the database cannot serve now (connection refused or dropped, pool
   * exhausted past its wait, server shutting down, locked past the wait, disk full) rather than
   * that the work itself went wrong. The repository reports such a failure as core's
   * `unavailable` error, which callers may retry later.
   */
  isUnavailable(error: unknown): boolean;
  /**
   * The SQL of `Repository.changeStamp`: one row whose `stamp` column (text or a number) keeps
   * the port's guarantee when run on its own, outside any transaction.
   */
  changeStampSql: string;
  /**
   * Whether a statement may bind a JS array as one parameter and unnest it (Postgres): many rows
   * then go in one statement of one text, one array per column, whatever their count. Without
   * it (SQLite), many rows go as `values (…), (…)` lists. Default false.
   */
  arrayParameters?: boolean;
  /**
   * Whether write transactions that queue for the connection share one COMMIT (group-commit.ts):
   * for a database with one connection per process whose every commit waits for the disk, as a
   * SQLite file's does. Off when absent.
   */
  groupCommit?: boolean;
  /** Attempts in all, the first included; 1 turns retrying off. */
  maxAttempts: number;
  /** Delay before the first retry; doubled on each next one, with random jitter. */
  retryBaseDelayMs: number;
}
