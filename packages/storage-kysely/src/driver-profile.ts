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
   * (SQLITE_BUSY: another process holds the lock; Postgres serialization failure or deadlock).
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
   * The change id statement of a write transaction (change-feed.ts, docs/polling.md), run once
   * per store whose queue entries it writes: one row whose `id` its entries carry, after every
   * change committed before it. `$1`, when present, is the store's id as text.
   */
  changeIdSql: string;
  /** One row `epoch`, `horizon`, `newest`: the `ChangeHorizon` of the calling read. */
  changeHorizonSql: string;
  /** The aggregate that gathers a column into one JSON array (`json_group_array`, `json_agg`). */
  jsonArrayAggregate: string;
  /**
   * One statement reading an order's items, shipments and invoices (`$1`: its id) as one row of
   * three JSON arrays `items`, `shipments`, `invoices` of whole rows (null for none): for a
   * database server, where each statement is a round trip, an action reads its locked order in
   * two instead of four. Absent (SQLite, in process): three reads.
   */
  orderPartsSql?: string;
  /**
   * What the locking read of an order adds to its columns: `id`, the `changeIdSql` of the
   * order's store, an SQL expression over the order's row; taken with the lock instead of in a
   * round trip of its own. Only where the change id is the transaction's own whenever it is read
   * (Postgres: its xid, which the row lock assigns anyway). Absent: `changeIdSql` runs when a
   * queue entry is first written.
   */
  lockedOrderChange?: { id: string };
  /**
   * One row `version` that moves when another process commits (SQLite: data_version), read on a
   * short timer while long polls wait; absent where the adapter tells of them otherwise.
   */
  otherProcessesSql?: string;
  /**
   * Whether a statement may bind a JS array as one parameter and unnest it (Postgres): many rows
   * then go in one statement of one text, one array per column, whatever their count. Without
   * it (SQLite), many rows go as `values (…), (…)` lists. Default false.
   */
  arrayParameters?: boolean;
  /**
   * Whether the dialect defers the writes marked deferrable (deferred-writes.ts): a write that can
   * do without its answer then costs no round trip of its own, and the repository writes so
   * (a queue entry or a feed entry moved whether or not it was there). Where absent (SQLite, in
   * process), a write reads its answer where that saves a statement.
   */
  deferredWrites?: boolean;
  /**
   * Whether write transactions that queue for the connection share one COMMIT (group-commit.ts):
   * for a database with one connection per process whose every commit waits for the disk, as a
   * SQLite file's does. With a pool (Postgres), how many members a group takes at most and how
   * many groups run at once, each on a connection of its own. Off when absent.
   */
  groupCommit?: boolean | { size?: number; lanes?: number };
  /**
   * Whether polls outside transactions (`autocommit`) that ask for the same page versions while
   * that read is on its way share the next one (shared-reads.ts): for a database server, where
   * every statement is a round trip to another process. Off when absent.
   */
  sharedReads?: boolean;
  /**
   * Whether the poll statements read their arguments through sub-selects the planner cannot
   * see into (poll-query.ts, `PollStatementOptions`): for Postgres, which otherwise plans a kept
   * poll statement again on every run. Off when absent.
   */
  opaquePollArguments?: boolean;
  /**
   * Told the SQL of each hot statement once, when it is first compiled (prepared-queries.ts): a
   * driver that can keep a statement prepared on the server for the life of a connection
   * (Postgres, by name) does, so that it is parsed and planned once per connection instead of on
   * every run. Absent where the driver keeps statements by itself (SQLite's statement cache).
   */
  keepPrepared?: (sql: string) => void;
  /** Attempts in all, the first included; 1 turns retrying off. */
  maxAttempts: number;
  /**
   * How long a transaction keeps being run again, from its first transient failure on, before it
   * fails with the last one (SQLite: the most a write waits for another process's lock, on
   * timers, never blocking the thread). Only `maxAttempts` bounds the retries when absent.
   */
  retryForMs?: number;
  /** Delay before the first retry; doubled on each next one, with random jitter. */
  retryBaseDelayMs: number;
  /** The delay stops doubling there. No cap when absent. */
  retryMaxDelayMs?: number;
}
