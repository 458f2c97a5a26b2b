import { basename } from 'node:path';
import {
  type Database,
  KyselyRepository,
  migrateToLatest,
  type SchemaFlags,
  StatementShapes,
  type StatementTarget,
  statementProbe,
  statementSpanThreshold,
  traceStatements,
  withRetries,
} from '@fulfil/storage-kysely';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import { CommitSync, syncedFile } from './commit-sync.js';
import { declareWriterGeneration } from './declare-writer.js';
import { ImmediateSqliteDialect } from './immediate-sqlite-dialect.js';
import { sqliteProfile } from './sqlite-profile.js';
import { withStatementCache } from './statement-cache.js';

export interface SqliteRepositoryOptions {
  /** A file path, or `':memory:'` for a private in-memory database. */
  filename: string;
  /**
   * How long a write waits, at most, for another process's write lock, in ms; past it, the write
   * fails with core's `unavailable` error (a server answers 503). Default 5000. The wait never
   * blocks the thread: SQLite is told not to wait (busy_timeout 0), and the transaction is tried
   * again on timers, with backoff and jitter, while everything else goes on.
   */
  lockTimeoutMs?: number;
  /**
   * Attempts of a transaction that keeps meeting SQLITE_BUSY, the first included. Default: as
   * many as `lockTimeoutMs` allows.
   */
  maxAttempts?: number;
  /**
   * `full` (default): every commit is on disk before the transaction returns (the WAL file is
   * synced from the thread pool, so the event loop goes on meanwhile); `normal` syncs at WAL
   * checkpoints only: faster, and a power loss (not a crash of the process) may drop the last
   * commits.
   */
  synchronous?: 'full' | 'normal';
  /** Skip the migrations on open (the schema must already be current). Default false. */
  skipMigrations?: boolean;
  /** Told the names of the migrations this open applied, once they are; empty when none was due. */
  onMigrated?: (applied: readonly string[]) => void;
  /**
   * A span per statement and per group commit (`fulfil:sql`, `fulfil:group-commit`), free while
   * no OpenTelemetry SDK is registered and no channel has a subscriber. Default true; false
   * removes the probes.
   */
  tracing?: boolean;
}

/** The repository over SQLite; `db` is its kysely instance. */
export type SqliteRepository = KyselyRepository;

/** SQLite's DDL flavour for the shared migrations. */
export const SQLITE_SCHEMA_FLAGS: SchemaFlags = Object.freeze({
  autoIncrementId: 'autoincrement',
  bigint: 'integer',
  binaryCollation: false,
  tokenNotifications: false,
  writerDeclaration: 'function',
  comparisonIndexes: 'expression',
});

function isMemory(filename: string): boolean {
  return filename === ':memory:' || filename === '' || filename.startsWith('file::memory:');
}

/**
 * Opens (creating if needed) a SQLite database and returns the repository over it, with the
 * schema migrated to the latest version. A string is the `filename` with default options.
 *
 * - Files use WAL: readers never block the writer nor each other.
 * - Write transactions begin with `BEGIN IMMEDIATE`, so several processes sharing one file
 *   serialize their writers and never deadlock on a lock upgrade.
 * - No statement waits for another process's lock on the thread (better-sqlite3 is synchronous:
 *   a busy timeout would freeze every request of the process). A transaction that meets one
 *   (SQLITE_BUSY, at BEGIN IMMEDIATE or COMMIT) is rolled back and run again on timers, with
 *   backoff and jitter, for `lockTimeoutMs` at most, then fails as `unavailable`; migrations at
 *   open wait the same way.
 * - Foreign keys are enforced.
 * - Temporary storage (statement and savepoint journals, sorts beyond the page cache) is in
 *   memory.
 * - The connection declares the writer generation of this code (`declareWriterGeneration`):
 *   the schema refuses the writes of a connection that declares less than it requires (a
 *   process of an earlier release; this one, once a newer release has migrated the file).
 * - In one process, transactions take turns on the single connection. On a file, the write
 *   transactions that queue meanwhile run together, each in a savepoint of its own, and share
 *   one commit: one sync of the WAL for all of them (group commit; an action is still answered
 *   only once its commit is on disk, and a failing one is undone alone).
 * - That sync is made from the thread pool (`CommitSync`), not inside SQLite's COMMIT on the
 *   event loop's thread; the connection is handed back only once it is done.
 */
export async function openSqliteRepository(
  filenameOrOptions: string | SqliteRepositoryOptions,
): Promise<SqliteRepository> {
  const options =
    typeof filenameOrOptions === 'string' ? { filename: filenameOrOptions } : filenameOrOptions;
  const profile = sqliteProfile({
    maxAttempts: options.maxAttempts ?? Number.POSITIVE_INFINITY,
    lockTimeoutMs: Math.max(0, options.lockTimeoutMs ?? 5000),
    groupCommit: !isMemory(options.filename),
  });
  // busy_timeout 0: a statement that meets another process's lock fails at once.
  const sqlite = new BetterSqlite3(options.filename, { timeout: 0 });
  declareWriterGeneration(sqlite);
  const tracing = options.tracing !== false;
  let commitSync: CommitSync | undefined;
  try {
    if (!isMemory(options.filename)) {
      // Two processes opening one new file at once: one of them waits.
      const mode = await withRetries(profile, async () =>
        sqlite.pragma('journal_mode = WAL', { simple: true }),
      );
      if (mode === 'wal' && options.synchronous !== 'normal') {
        commitSync = syncingCommits(sqlite, tracing);
      }
    }
    // With `commitSync`, the commits are synced by it, off the event loop.
    sqlite.pragma(
      `synchronous = ${options.synchronous === 'normal' || commitSync ? 'NORMAL' : 'FULL'}`,
    );
    // Statement and savepoint journals in memory: a write to a table with a trigger (every
    // guarded table, writer-generation.ts) keeps one per statement, and each member of a group
    // commit one per savepoint. They hold a few pages; in a temporary file, they cost an intake
    // a quarter of its SQLite time.
    sqlite.pragma('temp_store = MEMORY');
    sqlite.pragma('foreign_keys = ON');
  } catch (error) {
    sqlite.close();
    throw error;
  }

  const target: StatementTarget = {
    system: 'sqlite',
    ...(isMemory(options.filename) ? {} : { namespace: basename(options.filename) }),
  };
  const immediate = new ImmediateSqliteDialect({
    database: withStatementCache(sqlite),
    ...(commitSync ? { commitSync } : {}),
  });
  const dialect = tracing ? traceStatements(immediate, target) : immediate;
  const db = new Kysely<Database>({ dialect });
  try {
    if (!options.skipMigrations) {
      const applied = await withRetries(profile, () =>
        migrateToLatest(db, SQLITE_SCHEMA_FLAGS, { profile }),
      );
      options.onMigrated?.(applied);
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const otherCommits = isMemory(options.filename)
    ? () => 0
    : dataVersionOf(sqlite, tracing ? target : undefined);
  return new KyselyRepository({ db, dialect, profile, otherCommits, tracing });
}

/** Syncs of the WAL file of `sqlite`, made once a write has released the connection. */
function syncingCommits(sqlite: BetterSqlite3.Database, traced: boolean): CommitSync {
  const [main] = sqlite.pragma('database_list') as { name: string; file: string }[];
  return new CommitSync(syncedFile(`${main?.file ?? sqlite.name}-wal`), traced);
}

/**
 * Another connection's commit to the file (another process, the CLI, SQL by hand) moves its
 * data_version, which this connection reads in microseconds (SQLite's shared memory, not the
 * file). Inside a transaction of this connection it stays at the transaction's snapshot, so
 * there it tells nothing (undefined) until the transaction ends. A private in-memory database
 * has no other connection.
 */
function dataVersionOf(
  sqlite: BetterSqlite3.Database,
  traced: StatementTarget | undefined,
): () => unknown {
  const dataVersion = sqlite.prepare(DATA_VERSION_SQL).pluck();
  const read = () => dataVersion.get();
  // Read beside kysely, so traced here: a statement every authentication may run.
  const shape = traced && new StatementShapes(traced).of(DATA_VERSION_SQL);
  return () =>
    sqlite.inTransaction
      ? undefined
      : shape
        ? statementProbe.traceShapedSync(shape, read, statementSpanThreshold())
        : read();
}

const DATA_VERSION_SQL = 'pragma data_version';
