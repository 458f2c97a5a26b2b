import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type TransactionSettings,
} from 'kysely';
import type { CommitSync } from './commit-sync.js';

export interface ImmediateSqliteDialectConfig extends SqliteDialectConfig {
  /**
   * Syncs the WAL file before the connection is handed back after a write (SQLite itself then
   * commits without syncing); none when SQLite syncs its commits itself, or has none to sync.
   * The driver watches `database`'s statements for it (`CommitSync.watching`).
   */
  commitSync?: CommitSync;
}

/** `config` with its database watched by its `commitSync`, when it has one. */
function watchedConfig(config: ImmediateSqliteDialectConfig): SqliteDialectConfig {
  const { commitSync, database } = config;
  if (!commitSync) return config;
  return {
    ...config,
    database:
      typeof database === 'function'
        ? async () => commitSync.watching(await database())
        : commitSync.watching(database),
  };
}

/**
 * A driver whose write transactions begin with `BEGIN IMMEDIATE`: the write lock is taken at
 * the start, or SQLITE_BUSY says at once that another process holds it (the repository tries
 * again later). A plain `BEGIN` takes a read lock first and upgrades it at the first write, and
 * two processes upgrading at once get SQLITE_BUSY at once, whatever the wait: a deadlock SQLite
 * resolves by failing one, after work that must then be done again.
 * Transactions marked `read only` begin deferred: WAL readers never wait for a writer.
 *
 * Every kysely transaction on this dialect goes through it, kysely's migrator included.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #commitSync: CommitSync | undefined;

  constructor(config: ImmediateSqliteDialectConfig) {
    super(watchedConfig(config));
    this.#commitSync = config.commitSync;
  }

  override async beginTransaction(
    connection: DatabaseConnection,
    settings?: TransactionSettings,
  ): Promise<void> {
    const begin = settings?.accessMode === 'read only' ? 'begin deferred' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }

  /**
   * SQLite rolls some failed transactions back by itself (SQLITE_FULL, SQLITE_IOERR, …); the
   * rollback that follows must not hide the original error behind "no transaction is active".
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } catch (error) {
      if (!(error instanceof Error && /no transaction is active/i.test(error.message))) throw error;
    }
  }

  /**
   * The connection goes back after its transaction (or its one statement) and, when it wrote,
   * the sync of what it wrote: the next transaction begins, and the caller hears of this one,
   * only once that is on disk.
   */
  override releaseConnection(): Promise<void> {
    const syncing = this.#commitSync?.afterUse();
    if (!syncing) return super.releaseConnection();
    return syncing.finally(() => super.releaseConnection());
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    await this.#commitSync?.close();
  }
}

/**
 * SQLite does run DDL inside transactions, though kysely's adapter says otherwise. Saying so
 * makes kysely's migrator apply each migration in a transaction, hence under `BEGIN IMMEDIATE`:
 * a process that crashes mid-migration leaves nothing half-applied, and two processes migrating
 * one file at once take turns, the second finding the migration recorded instead of running it
 * again ("table already exists").
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * kysely's `SqliteDialect` with {@link ImmediateSqliteDriver} and transactional DDL in
 * migrations.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ImmediateSqliteDialectConfig;

  constructor(config: ImmediateSqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
