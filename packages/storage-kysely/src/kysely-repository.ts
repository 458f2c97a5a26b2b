import { AsyncLocalStorage } from 'node:async_hooks';
import type {
  PollQuery,
  Repository,
  RepositoryTx,
  TokenRecord,
  TransactionMode,
} from '@fulfil/core';
import {
  type AccessMode,
  CompiledQuery,
  type ControlledTransaction,
  type Dialect,
  type IsolationLevel,
  type Kysely,
  type Transaction,
} from 'kysely';
import { BulkStatements } from './bulk-statements.js';
import type { TransactionChanges } from './change-feed.js';
import type { Database } from './database.js';
import { backfillDeadlines } from './deadline-backfill.js';
import type { DriverProfile } from './driver-profile.js';
import { GroupCommit } from './group-commit.js';
import { KyselyRepositoryTx } from './kysely-repository-tx.js';
import { upgradeAllListedOrders } from './listed-order-upgrades.js';
import {
  pollQueueDocuments,
  pollQueueVersions,
  type VersionsSql,
  versionsSqlOf,
} from './poll-query.js';
import { PreparedQueries } from './prepared-queries.js';
import {
  type OtherProcesses,
  pollingOtherProcesses,
  QueueChangeHub,
  type QueueChangeListener,
} from './queue-change-hub.js';
import { SharedReads } from './shared-reads.js';
import { TokenCache, type TokenWatch } from './token-cache.js';
import { onItsConnection } from './transaction-on-connection.js';
import { reportedFailure, withRetries } from './transaction-retry.js';

export interface KyselyRepositoryOptions {
  db: Kysely<Database>;
  /**
   * The dialect `db` was made with. Given, the statements of a transaction go straight to its
   * connection, past kysely's executor (transaction-on-connection.ts); without it, through it.
   */
  dialect?: Dialect;
  profile: DriverProfile;
  /** Runs after `db.destroy()` in `close` (e.g. removing a temp file); optional. */
  onClose?: () => Promise<void>;
  /**
   * How commits of other processes reach `onQueueChange` (Postgres: LISTEN). Without it, the
   * profile's `otherProcessesSql` is read on a short timer while someone listens, if it has one.
   */
  otherProcesses?: OtherProcesses;
  /**
   * Tells other processes the stores a write transaction changed, once it has committed
   * (Postgres: NOTIFY, from a connection of its own). Without it, they hear of commits through
   * `otherProcesses` alone (SQLite: data_version).
   */
  announceCommitted?: (storeIds: ReadonlySet<number>) => void;
  /**
   * Reads, in microseconds and without reading the database, a value that moves as soon as
   * another connection has committed anything (SQLite: data_version). With it the repository
   * offers `queueVersion`, and keeps tokens while it stays; Postgres has no such value.
   */
  otherCommits?: () => unknown;
  /**
   * How tokens changed by other processes or by hand are heard of (token-cache.ts), where
   * `otherCommits` is not given; without either, every authentication reads its token.
   */
  tokenWatch?: TokenWatch;
  /**
   * How other processes' token changes reach `onTokenChange` (Postgres: LISTEN). Without it,
   * `otherCommits` is read on a short timer while someone listens, if given.
   */
  otherTokenChanges?: OtherProcesses;
  /**
   * False: no span of a group commit (group-commit.ts). The statements' spans are the dialect's
   * (`traceStatements`); on when absent.
   */
  tracing?: boolean;
}

/** How often a SQLite file's data_version is read while long polls wait (docs/polling.md). */
export const OTHER_PROCESSES_INTERVAL_MS = 50;

/** What kysely's transaction builders, callback and controlled, have in common. */
interface TransactionSettingsBuilder<Self> {
  setAccessMode(accessMode: AccessMode): Self;
  setIsolationLevel(isolationLevel: IsolationLevel): Self;
}

/** Which repositories the current async context is inside a transaction of. */
const activeTransactions = new AsyncLocalStorage<ReadonlySet<KyselyRepository>>();
/** The transactions of the process whose work is under way, of any repository. */
let transactionsUnderWay = 0;

/**
 * Runs `work` inside the transactions `inside`. While an AsyncLocalStorage is enabled, every
 * promise of the process carries its context, idle long polls' included; it is disabled again
 * once no transaction is under way (the next `run` enables it), so that it costs nothing then.
 */
function runInside<T>(inside: ReadonlySet<KyselyRepository>, work: () => Promise<T>): Promise<T> {
  transactionsUnderWay += 1;
  const ended = () => {
    transactionsUnderWay -= 1;
    if (transactionsUnderWay === 0) activeTransactions.disable();
  };
  let running: Promise<T>;
  try {
    running = activeTransactions.run(inside, work);
  } catch (error) {
    ended();
    throw error;
  }
  return running.finally(ended);
}

/**
 * The `Repository` of `@fulfil/core` over a `Kysely<Database>`, shared by the SQLite and
 * Postgres adapters; each hands it its dialect and a {@link DriverProfile}.
 *
 * Guarantees:
 * - `transaction` is one database transaction: committed when `work` resolves, rolled back and
 *   rethrown when it rejects. The transaction's settings come from the profile (SQLite writers
 *   take the write lock at `BEGIN`; Postgres readers get a read-only snapshot).
 * - When the database reports a transient conflict (`profile.isRetryable`), the whole
 *   transaction runs again, up to `profile.maxAttempts` times and for `profile.retryForMs` at
 *   most, after a jittered exponential backoff on timers: the event loop serves other work
 *   meanwhile. `work` must therefore only touch the database, which every use case does.
 * - A failure the profile calls unavailable (the database is away) is thrown as core's
 *   `unavailable` error, with the driver's error as its `cause`.
 * - Transactions never nest: starting one inside another of the same repository throws at once
 *   instead of waiting forever for the connection the outer one holds.
 * - With `profile.groupCommit`, write transactions that queue together share one COMMIT, each in
 *   a savepoint of its own, and keep every guarantee above (group-commit.ts).
 * - With `profile.sharedReads`, polls outside transactions that ask for the same page versions
 *   while that read is on its way share the next one (shared-reads.ts).
 */
export class KyselyRepository implements Repository {
  readonly db: Kysely<Database>;
  readonly #dialect: Dialect | undefined;
  readonly #profile: DriverProfile;
  readonly #onClose: (() => Promise<void>) | undefined;
  readonly #changeStamp: CompiledQuery<{ stamp: string | number }>;
  readonly #prepared: PreparedQueries;
  /** The repository's multi-row inserts, compiled once: its transactions and the dump import use them. */
  readonly bulkStatements: BulkStatements;
  readonly #groups: GroupCommit | undefined;
  readonly #sharedReads: SharedReads | undefined;
  readonly #versionsSql: VersionsSql;
  readonly #changes: QueueChangeHub;
  /** The same kind of hub for token changes: its listeners are told null, any token. */
  readonly #tokenChanges: QueueChangeHub;
  readonly #tokens: TokenCache | undefined;
  readonly #otherCommits: (() => unknown) | undefined;
  readonly #announceCommitted: ((storeIds: ReadonlySet<number>) => void) | undefined;
  /** Commits of this repository that wrote queue entries, per store (`queueVersion`). */
  readonly #queueWrites = new Map<number, number>();
  /** Commits of this repository that may have written any store's queue entries (bulk work). */
  #bulkWrites = 0;
  #closed = false;

  constructor(options: KyselyRepositoryOptions) {
    this.db = options.db;
    this.#dialect = options.dialect;
    this.#profile = options.profile;
    this.#onClose = options.onClose;
    this.#changeStamp = CompiledQuery.raw(options.profile.changeStampSql);
    this.#prepared = new PreparedQueries(options.profile.keepPrepared);
    this.bulkStatements = new BulkStatements({
      arrayParameters: options.profile.arrayParameters ?? false,
      ...(options.profile.keepPrepared ? { onCompiled: options.profile.keepPrepared } : {}),
    });
    const versionSql = options.profile.otherProcessesSql;
    const version =
      versionSql && (CompiledQuery.raw(versionSql) as CompiledQuery<{ version: unknown }>);
    this.#changes = new QueueChangeHub(
      options.otherProcesses ??
        (version
          ? pollingOtherProcesses(
              async () => (await this.db.executeQuery(version)).rows[0]?.version,
              OTHER_PROCESSES_INTERVAL_MS,
            )
          : undefined),
    );
    this.#otherCommits = options.otherCommits;
    this.#announceCommitted = options.announceCommitted;
    const otherCommits = options.otherCommits;
    this.#tokenChanges = new QueueChangeHub(
      options.otherTokenChanges ??
        (otherCommits &&
          pollingOtherProcesses(async () => otherCommits(), OTHER_PROCESSES_INTERVAL_MS)),
    );
    const tokenWatch =
      options.tokenWatch ??
      (options.otherCommits && { version: options.otherCommits, close: async () => {} });
    this.#tokens = tokenWatch && new TokenCache(tokenWatch);
    const grouped = options.profile.groupCommit;
    this.#groups = grouped
      ? new GroupCommit((work) => this.#inTransaction('write', work), options.profile, {
          ...(grouped === true ? {} : grouped),
          traced: options.tracing !== false,
        })
      : undefined;
    this.#sharedReads = options.profile.sharedReads
      ? new SharedReads(this.db, this.#prepared)
      : undefined;
    this.#versionsSql = versionsSqlOf(options.profile);
  }

  /**
   * The statements a poll of `query` runs, with its arguments, as this repository writes them:
   * the page's versions with the change horizon, then the page of stored documents (read when
   * the versions name documents the process does not hold). For the adapters' query plans.
   */
  pollStatements(query: PollQuery): CompiledQuery[] {
    return [
      pollQueueVersions(this.db, query, this.#versionsSql).compile(),
      pollQueueDocuments(this.db, query, this.#versionsSql).compile(),
    ];
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
    mode: TransactionMode = 'write',
  ): Promise<T> {
    if (this.#closed) throw new Error('fulfil: the repository is closed');
    const active = activeTransactions.getStore();
    if (active?.has(this)) {
      throw new Error('fulfil: transactions never nest; use the tx you were given');
    }
    const inside = new Set(active ?? []).add(this);
    const rowLocks = this.#profile.rowLocks && mode === 'write';
    // What the attempt that committed changed, told once it has committed.
    let changed: TransactionChanges | undefined;
    const open = (trx: Kysely<Database>): Promise<T> =>
      runInside(inside, () => {
        const tx = new KyselyRepositoryTx(trx, {
          rowLocks,
          // Without row locks, a write transaction holds the database's one write lock.
          writersExcluded: !this.#profile.rowLocks && mode === 'write',
          deferredWrites: this.#profile.deferredWrites === true,
          prepared: this.#prepared,
          bulkStatements: this.bulkStatements,
          changeFeed: this.#profile,
          ...(this.#profile.orderPartsSql ? { orderPartsSql: this.#profile.orderPartsSql } : {}),
          ...(this.#profile.lockedOrderChange
            ? { lockedOrderChange: this.#profile.lockedOrderChange }
            : {}),
          ...(mode === 'autocommit' && this.#sharedReads ? { sharedReads: this.#sharedReads } : {}),
        });
        changed = tx.changes;
        return work(tx).then(async (result) => {
          await tx.finish();
          return result;
        });
      });
    const committed = (result: T): T => {
      if (changed?.tokens) this.#tokensChanged();
      const stores = changed?.stores;
      if (!stores || stores.size === 0) return result;
      for (const storeId of stores) {
        this.#queueWrites.set(storeId, (this.#queueWrites.get(storeId) ?? 0) + 1);
        this.#changes.emit(storeId);
      }
      this.#announceCommitted?.(stores);
      return result;
    };
    if (mode === 'write' && this.#groups) return committed(await this.#groups.run(open));
    const run = mode === 'autocommit' ? () => open(this.db) : () => this.#inTransaction(mode, open);
    try {
      return committed(await withRetries(this.#profile, run));
    } catch (error) {
      throw reportedFailure(this.#profile, error);
    }
  }

  /**
   * Read outside any transaction, from the tokens this repository has read before while none
   * can have changed since (token-cache.ts); otherwise from the database, on a statement of its
   * own.
   */
  async findStoreToken(hash: string, storeCode: string): Promise<TokenRecord | null> {
    if (this.#closed) throw new Error('fulfil: the repository is closed');
    const kept = this.#tokens?.find(hash, storeCode);
    if (kept !== undefined) return kept;
    const ticket = this.#tokens?.ticket();
    const record = await this.transaction((tx) => tx.findStoreToken(hash, storeCode), 'autocommit');
    if (record) this.#tokens?.keep(ticket, hash, storeCode, record);
    return record;
  }

  /**
   * Where another connection's commits can be read at once (`otherCommits`): what they say,
   * with this repository's own commits that wrote the store's queue entries or may have.
   */
  queueVersion(storeId: number): string | undefined {
    if (this.#closed || !this.#otherCommits) return undefined;
    const others = this.#otherCommits();
    if (others === undefined) return undefined;
    return `${String(others)}.${this.#bulkWrites}.${this.#queueWrites.get(storeId) ?? 0}`;
  }

  onQueueChange(listener: QueueChangeListener): () => void {
    return this.#changes.subscribe(listener);
  }

  onTokenChange(listener: () => void): () => void {
    return this.#tokenChanges.subscribe(() => listener());
  }

  /** A write of this process may have changed tokens: forget the kept ones, then tell. */
  #tokensChanged(): void {
    this.#tokens?.forget();
    this.#tokenChanges.emit(null);
  }

  /**
   * Runs `work` in a write transaction of its own, never grouped, on the kysely instance: for bulk
   * work that is no use case (a store dump's import). Its BEGIN waits for a lock held by another
   * process as `transaction` does, on timers and within the profile's limits; `work` runs once,
   * and a failure after it began is thrown as it is.
   */
  async writeTransaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    if (this.#closed) throw new Error('fulfil: the repository is closed');
    let began = false;
    try {
      return await withRetries(
        this.#profile,
        () =>
          this.#withSettings(this.db.transaction(), 'write').execute((trx) => {
            began = true;
            return work(trx);
          }),
        () => !began,
      );
    } finally {
      // Bulk work may write tokens and queue entries (a dump's import), and may have committed
      // before it failed.
      if (began) {
        this.#tokensChanged();
        this.#bulkWrites += 1;
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

  /** Runs `work` in a transaction of `mode`, on its connection when the dialect is known. */
  #inTransaction<T>(
    mode: 'read' | 'write',
    work: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<T> {
    const dialect = this.#dialect;
    return this.#withSettings(this.db.transaction(), mode).execute(
      dialect ? (trx) => onItsConnection(trx, dialect, work) : work,
    );
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

  /**
   * Brings the orders listed for an upgrade (listed-order-upgrades.ts) to this release's rules,
   * and gives the orders without a deadline theirs (deadline-backfill.ts), as opening the
   * database does: after an import of a dump an older release wrote. `deadlineStep`: orders
   * per transaction of the latter (tests).
   */
  async upgradeListedOrders(options: { deadlineStep?: number } = {}): Promise<number> {
    const upgraded = await upgradeAllListedOrders(this.db, this.#profile);
    const filled = await backfillDeadlines(this.db, this.#profile, undefined, options.deadlineStep);
    return upgraded + filled;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#changes.close();
    await this.#tokenChanges.close();
    await this.#tokens?.close();
    await this.#groups?.idle();
    await this.#sharedReads?.idle();
    await this.db.destroy();
    await this.#onClose?.();
  }
}
