import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Repository, RepositoryTx } from '@fulfil/core';
import {
  type AccessMode,
  CompiledQuery,
  type ControlledTransaction,
  type IsolationLevel,
  type Kysely,
} from 'kysely';
import { BulkStatements } from './bulk-statements.js';
import type { Database } from './database.js';
import type { DriverProfile } from './driver-profile.js';
import { GroupCommit } from './group-commit.js';
import { KyselyRepositoryTx } from './kysely-repository-tx.js';
import { PreparedQueries } from './prepared-queries.js';
import { mayRetry, reportedFailure, retryDelayMs } from './transaction-retry.js';

export interface KyselyRepositoryOptions {
  db: Kysely<Database>;
  profile: DriverProfile;
  /** Runs after `db.destroy()` in `close` (e.g. removing a temp file); optional. */
  onClose?: () => Promise<void>;
}

/** What kysely's transaction builders, callback and controlled, have in common. */
interface TransactionSettingsBuilder<Self> {
  setAccessMode(accessMode: AccessMode): Self;
  setIsolationLevel(isolationLevel: IsolationLevel): Self;
}

/** Which repositories the current async context is inside a transaction of. */
const activeTransactions = new AsyncLocalStorage<ReadonlySet<KyselyRepository>>();

/**
 * The `Repository` of `@fulfil/core` over a `Kysely<Database>`, shared by the SQLite and
 * Postgres adapters; each hands it its dialect and a {@link DriverProfile}.
 *
 * Guarantees:
 * - `transaction` is one database transaction: committed when `work` resolves, rolled back and
 *   rethrown when it rejects. The transaction's settings come from the profile (SQLite writers
 *   take the write lock at `BEGIN`; Postgres readers get a read-only snapshot).
 * - When the database reports a transient conflict (`profile.isRetryable`), the whole
 *   transaction runs again, up to `profile.maxAttempts` times, after a jittered exponential
 *   backoff. `work` must therefore only touch the database, which every use case does.
 * - A failure the profile calls unavailable (the database is away) is thrown as core's
 *   `unavailable` error, with the driver's error as its `cause`.
 * - Transactions never nest: starting one inside another of the same repository throws at once
 *   instead of waiting forever for the connection the outer one holds.
 * - With `profile.groupCommit`, write transactions that queue together share one COMMIT, each in
 *   a savepoint of its own, and keep every guarantee above (group-commit.ts).
 */
export class KyselyRepository implements Repository {
  readonly db: Kysely<Database>;
  readonly #profile: DriverProfile;
  readonly #onClose: (() => Promise<void>) | undefined;
  readonly #changeStamp: CompiledQuery<{ stamp: string | number }>;
  readonly #prepared = new PreparedQueries();
  /** The repository's multi-row inserts, compiled once: its transactions and the dump import use them. */
  readonly bulkStatements: BulkStatements;
  readonly #groups: GroupCommit | undefined;
  #closed = false;

  constructor(options: KyselyRepositoryOptions) {
    this.db = options.db;
    this.#profile = options.profile;
    this.#onClose = options.onClose;
    this.#changeStamp = CompiledQuery.raw(options.profile.changeStampSql);
    this.bulkStatements = new BulkStatements({
      arrayParameters: options.profile.arrayParameters ?? false,
    });
    this.#groups = options.profile.groupCommit
      ? new GroupCommit(() => this.#withSettings(this.db.transaction(), 'write'), options.profile)
      : undefined;
  }

  /**
   * Runs the profile's stamp query on a connection of its own, never inside a transaction: a
   * transaction reads one snapshot, so a stamp read there could miss a commit that another
   * process made and already acknowledged. On SQLite, kysely hands the single connection out
   * only between transactions, so the query also waits for any transaction of this process.
   */
  async changeStamp(): Promise<string> {
    if (this.#closed) throw new Error('fulfil: the repository is closed');
    if (activeTransactions.getStore()?.has(this)) {
      throw new Error('fulfil: changeStamp is read outside transactions');
    }
    try {
      const { rows } = await this.db.executeQuery(this.#changeStamp);
      return String(rows[0]?.stamp);
    } catch (error) {
      throw reportedFailure(this.#profile, error);
    }
  }

  async transaction<T>(
    work: (tx: RepositoryTx) => Promise<T>,
    mode: 'read' | 'write' = 'write',
  ): Promise<T> {
    if (this.#closed) throw new Error('fulfil: the repository is closed');
    const active = activeTransactions.getStore();
    if (active?.has(this)) {
      throw new Error('fulfil: transactions never nest; use the tx you were given');
    }
    const inside = new Set(active ?? []).add(this);
    const rowLocks = this.#profile.rowLocks && mode === 'write';
    const open = (trx: Kysely<Database>): Promise<T> =>
      activeTransactions.run(inside, () =>
        work(
          new KyselyRepositoryTx(trx, {
            rowLocks,
            prepared: this.#prepared,
            bulkStatements: this.bulkStatements,
          }),
        ),
      );
    if (mode === 'write' && this.#groups) return this.#groups.run(open);

    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#withSettings(this.db.transaction(), mode).execute(open);
      } catch (error) {
        if (!mayRetry(this.#profile, error, attempt)) throw reportedFailure(this.#profile, error);
        await sleep(retryDelayMs(this.#profile, attempt));
      }
    }
  }

  /**
   * Begins a read-only transaction that sees one snapshot of the database until the caller
   * commits or rolls it back, for a read too long to be one `transaction` callback (an export
   * streamed out as it is read). Postgres reads at `repeatable read`; SQLite in WAL mode takes
   * its snapshot at the first read, and writers go on meanwhile. On SQLite it holds the single
   * connection of this repository until it ends: run every query of the read through it.
   */
  async startReadSnapshot(): Promise<ControlledTransaction<Database>> {
    if (this.#closed) throw new Error('fulfil: the repository is closed');
    try {
      return await this.#withSettings(this.db.startTransaction(), 'read').execute();
    } catch (error) {
      throw reportedFailure(this.#profile, error);
    }
  }

  /** `builder` set up as the profile wants a transaction of `mode`. */
  #withSettings<Builder extends TransactionSettingsBuilder<Builder>>(
    builder: Builder,
    mode: 'read' | 'write',
  ): Builder {
    const settings = this.#profile.transactionSettings(mode);
    if (settings.accessMode) builder = builder.setAccessMode(settings.accessMode);
    if (settings.isolationLevel) builder = builder.setIsolationLevel(settings.isolationLevel);
    return builder;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#groups?.idle();
    await this.db.destroy();
    await this.#onClose?.();
  }
}
