import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Database,
  KyselyRepository,
  migrateToLatest,
  type SchemaFlags,
} from '@fulfil/storage-kysely';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import { ImmediateSqliteDialect } from './immediate-sqlite-dialect.js';
import { isSqliteBusy } from './sqlite-errors.js';
import { sqliteProfile } from './sqlite-profile.js';
import { withStatementCache } from './statement-cache.js';

export interface SqliteRepositoryOptions {
  /** A file path, or `':memory:'` for a private in-memory database. */
  filename: string;
  /**
   * How long a statement waits for another process's lock before SQLITE_BUSY, in ms.
   * Default 5000. better-sqlite3 is synchronous: the wait blocks this thread.
   */
  busyTimeoutMs?: number;
  /** Attempts of a transaction that keeps meeting SQLITE_BUSY, the first included. Default 5. */
  maxAttempts?: number;
  /**
   * `full` (default) syncs every commit; `normal` syncs at WAL checkpoints only: faster, and
   * a power loss (not a crash of the process) may drop the last commits.
   */
  synchronous?: 'full' | 'normal';
  /** Skip the migrations on open (the schema must already be current). Default false. */
  skipMigrations?: boolean;
}

/** The repository over SQLite; `db` is its kysely instance. */
export type SqliteRepository = KyselyRepository;

/** SQLite's DDL flavour for the shared migrations. */
export const SQLITE_SCHEMA_FLAGS: SchemaFlags = Object.freeze({
  autoIncrementId: 'autoincrement',
  bigint: 'integer',
  binaryCollation: false,
});

function isMemory(filename: string): boolean {
  return filename === ':memory:' || filename === '' || filename.startsWith('file::memory:');
}

/** Runs `step` again while SQLite reports busy (two processes opening one new file at once). */
async function whileBusy<T>(step: () => T | Promise<T>, attempts: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= attempts || !isSqliteBusy(error)) throw error;
      await sleep(10 * attempt + Math.random() * 20 * attempt);
    }
  }
}

/**
 * Opens (creating if needed) a SQLite database and returns the repository over it, with the
 * schema migrated to the latest version. A string is the `filename` with default options.
 *
 * - Files use WAL: readers never block the writer nor each other.
 * - `busy_timeout` makes a statement wait for another process's lock instead of failing.
 * - Write transactions begin with `BEGIN IMMEDIATE`, so several processes sharing one file
 *   serialize their writers and never deadlock on a lock upgrade; a transaction that still gets
 *   SQLITE_BUSY is rolled back and run again (`maxAttempts`, with jitter).
 * - Foreign keys are enforced.
 * - In one process, transactions take turns on the single connection. On a file, the write
 *   transactions that queue meanwhile run together, each in a savepoint of its own, and share
 *   one commit: one sync of the WAL for all of them (group commit; an action is still answered
 *   only once its commit has returned, and a failing one is undone alone).
 */
export async function openSqliteRepository(
  filenameOrOptions: string | SqliteRepositoryOptions,
): Promise<SqliteRepository> {
  const options =
    typeof filenameOrOptions === 'string' ? { filename: filenameOrOptions } : filenameOrOptions;
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const maxAttempts = options.maxAttempts ?? 5;
  const sqlite = new BetterSqlite3(options.filename, { timeout: busyTimeoutMs });
  try {
    sqlite.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    if (!isMemory(options.filename)) {
      await whileBusy(() => sqlite.pragma('journal_mode = WAL'), maxAttempts);
    }
    sqlite.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    sqlite.pragma('foreign_keys = ON');
  } catch (error) {
    sqlite.close();
    throw error;
  }

  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
  });
  try {
    if (!options.skipMigrations) {
      await whileBusy(() => migrateToLatest(db, SQLITE_SCHEMA_FLAGS), maxAttempts);
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new KyselyRepository({
    db,
    profile: sqliteProfile({ maxAttempts, groupCommit: !isMemory(options.filename) }),
  });
}
