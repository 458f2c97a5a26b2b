import {
  CHANGE_FEED_SQL,
  type Database,
  type DriverProfile,
  deferWrites,
  KyselyRepository,
  type SchemaFlags,
  traceStatements,
} from '@fulfil/storage-kysely';
import { Kysely } from 'kysely';
import pg from 'pg';
import { announceOnPostgres } from './announce-changes.js';
import { DeclaringPostgresDialect } from './declaring-dialect.js';
import { int8AsNumber } from './int8-as-number.js';
import { listenOnPostgres } from './listen-for-changes.js';
import { migrateWithLock } from './migrate-with-lock.js';
import { namingClient, StatementNames } from './named-statements.js';
import { isPostgresRetryable, isPostgresUnavailable } from './postgres-errors.js';

/** Pool settings passed to pg; the defaults suit a small service. */
export interface PostgresPoolOptions {
  /** Connections at most. Default 10 (at least 2 while migrating: one holds the lock). */
  max?: number;
  /** Close a connection idle this long, in ms. Default 30,000. */
  idleTimeoutMillis?: number;
  /** Give up waiting for a connection after this long, in ms. Default 10,000. */
  connectionTimeoutMillis?: number;
  /** Server-side statement timeout, in ms; none by default. */
  statementTimeoutMillis?: number;
  /** TLS: `true`, or options such as `{ rejectUnauthorized: false }`. */
  ssl?: boolean | { rejectUnauthorized?: boolean; ca?: string; cert?: string; key?: string };
  /** Shown in `pg_stat_activity`. Default `fulfil`. */
  applicationName?: string;
  /**
   * Keep the hot statements (reading a token, an order, a page of a queue) prepared by name on
   * each connection: parsed and planned once per connection instead of on every run. Default
   * true. Turn it off behind a pooler that hands one client's statements to different server
   * connections (PgBouncer in transaction mode before 1.21, or without
   * `max_prepared_statements`).
   */
  preparedStatements?: boolean;
}

export interface PostgresRepositoryOptions {
  /** `postgres://user:password@host:port/database`. */
  connectionString: string;
  /**
   * Keep every table in this schema (created when missing) by setting the connections'
   * `search_path` to it: one database can hold several installations, and each test run its
   * own. Lowercase letters, digits and `_`. Default: the server's `search_path` (`public`).
   */
  schema?: string;
  pool?: PostgresPoolOptions;
  /** Attempts of a transaction that hits a deadlock or serialization failure. Default 5. */
  maxAttempts?: number;
  /**
   * Group commit: the write transactions of this process that queue at once share one
   * transaction, each in a savepoint of its own (one failing is rolled back alone), with one
   * COMMIT (docs/operations.md). `size`: members of a group at most (default 64); `lanes`: groups
   * under way at once, each holding a connection of the pool (default 2). Off by default.
   */
  groupCommit?: boolean | { size?: number; lanes?: number };
  /** Skip the migrations on open (the schema must already be current). Default false. */
  skipMigrations?: boolean;
  /** Told the names of the migrations this open applied, once they are; empty when none was due. */
  onMigrated?: (applied: readonly string[]) => void;
  /**
   * Called when an idle pooled connection fails (e.g. the server restarted); the pool drops it
   * and opens a new one on demand. Default: ignore.
   */
  onPoolError?: (error: Error) => void;
  /**
   * A span per statement (`fulfil:sql`), free while no OpenTelemetry SDK is registered and no
   * channel has a subscriber. Default true; false removes the probes.
   */
  tracing?: boolean;
}

/** The repository over Postgres; `db` is its kysely instance. */
export type PostgresRepository = KyselyRepository;

/** Postgres' DDL flavour for the shared migrations. */
export const POSTGRES_SCHEMA_FLAGS: SchemaFlags = Object.freeze({
  autoIncrementId: 'identity',
  bigint: 'bigint',
  binaryCollation: true,
  tokenNotifications: true,
  writerDeclaration: 'setting',
  comparisonIndexes: 'partial',
});

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The change stamp is the cluster's current snapshot, `xmin:xmax:xip` (Postgres 13+). Any
 * transaction that writes has an xid. If it was running when snapshot S was taken, it is either
 * in S's xip (xid < xmax) or at or above S's xmax; once it ends, its xid leaves xip, or
 * latestCompletedXid passes it and xmax rises above S's. Either way every later snapshot
 * differs from S, and S cannot come back: xmax never falls, and at an equal xmax, xip only
 * loses members (new xids are at or above xmax). A transaction leaves the running set before
 * its commit is acknowledged, so a later read sees it. It is conservative (any database of the
 * cluster, and rollbacks, move it too) and costs no write to any action and no schema.
 *
 * A cache reads the stamp, then reads its data in a later statement that may see more commits
 * than S did; keeping that newer data under S is safe because, if anything committed after S,
 * S is never returned again and the entry is never hit.
 */
const CHANGE_STAMP_SQL = 'select pg_current_snapshot()::text as stamp';

/**
 * An order's items, shipments and invoices in one round trip. It runs after the header's lock
 * was taken, as its own statement: at read committed it then reads what the last writer of the
 * order committed (a sub-select of the locking statement would read its older snapshot).
 */
const ORDER_PARTS_SQL =
  'select (select json_agg(i order by i.position) from order_items i where i.order_id = $1) as items,' +
  ' (select json_agg(s order by s.id) from shipments s where s.order_id = $1) as shipments,' +
  ' (select json_agg(v order by v.id) from invoices v where v.order_id = $1) as invoices';

/** Groups under way at once by default, when group commit is on: leaves the pool room for reads. */
const DEFAULT_GROUP_LANES = 2;

function postgresProfile(
  maxAttempts: number,
  names: StatementNames | undefined,
  groupCommit: PostgresRepositoryOptions['groupCommit'],
): DriverProfile {
  const grouped = groupCommit === true ? {} : groupCommit || undefined;
  return {
    // Reads see one snapshot across their several queries; writes run at read committed and
    // rely on row locks (`lockOrder` … FOR UPDATE) and atomic upserts.
    transactionSettings: (mode) =>
      mode === 'read' ? { accessMode: 'read only', isolationLevel: 'repeatable read' } : {},
    rowLocks: true,
    isRetryable: isPostgresRetryable,
    isUnavailable: isPostgresUnavailable,
    changeStampSql: CHANGE_STAMP_SQL,
    changeIdSql: CHANGE_FEED_SQL.postgresChangeId,
    changeHorizonSql: CHANGE_FEED_SQL.postgresHorizon,
    jsonArrayAggregate: CHANGE_FEED_SQL.postgresJsonArrayAggregate,
    orderPartsSql: ORDER_PARTS_SQL,
    // The transaction's xid, which locking the order assigns: what `changeIdSql` reads, in the
    // order's own read.
    lockedOrderChange: { id: 'pg_current_xact_id()::text::bigint' },
    // A batch's rows of a table go in one `insert … select * from unnest($1::bigint[], …)`: one
    // text whatever the row count, so no statement is parsed per row count, and no limit of
    // bound values.
    arrayParameters: true,
    // Writes whose answer is not read wait for the next statement (deferWrites below).
    deferredWrites: true,
    // Polls of one page at once share its read (shared-reads.ts).
    sharedReads: true,
    // Each connection plans a poll statement once, not on every run (poll-query.ts).
    opaquePollArguments: true,
    ...(names ? { keepPrepared: (sql: string) => names.add(sql) } : {}),
    ...(grouped ? { groupCommit: { lanes: DEFAULT_GROUP_LANES, ...grouped } } : {}),
    maxAttempts,
    retryBaseDelayMs: 20,
  };
}

/**
 * Connects a pg pool and returns the repository over it, with the schema migrated to the latest
 * version (under an advisory lock: processes starting at once take turns). A string is the
 * `connectionString` with default options.
 *
 * - `lockOrder` takes a row lock (`SELECT … FOR UPDATE`) held until the transaction ends.
 * - int8 columns come back as numbers, through this pool's own type parsers.
 * - A transaction that meets a deadlock or serialization failure is run again (`maxAttempts`).
 * - Every transaction declares the writer generation of this code as it begins
 *   (declaring-dialect.ts): writes outside a transaction are refused on the schema's tables.
 * - A connection refused or dropped, a pool wait past `connectionTimeoutMillis`, a server
 *   shutting down: core's `unavailable` error. The process never dies of it, and the pool
 *   connects afresh once the server is back.
 */
export async function openPostgresRepository(
  connectionStringOrOptions: string | PostgresRepositoryOptions,
): Promise<PostgresRepository> {
  const options =
    typeof connectionStringOrOptions === 'string'
      ? { connectionString: connectionStringOrOptions }
      : connectionStringOrOptions;
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new TypeError(
      `fulfil: schema "${schema}" must be lowercase letters, digits and _, starting with a letter or _`,
    );
  }
  const pool = options.pool ?? {};
  // What every connection of the repository shares: the pool's and the one that listens.
  const connection: pg.ClientConfig = {
    connectionString: options.connectionString,
    application_name: pool.applicationName ?? 'fulfil',
    types: int8AsNumber,
    ...(pool.ssl !== undefined ? { ssl: pool.ssl } : {}),
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
  };
  const names = pool.preparedStatements === false ? undefined : new StatementNames();
  // A write transaction reads its change id once it has written.
  names?.add(CHANGE_FEED_SQL.postgresChangeId);
  const pgPool = new pg.Pool({
    ...connection,
    ...(names ? { Client: namingClient(names) } : {}),
    max: pool.max ?? 10,
    idleTimeoutMillis: pool.idleTimeoutMillis ?? 30_000,
    connectionTimeoutMillis: pool.connectionTimeoutMillis ?? 10_000,
    ...(pool.statementTimeoutMillis !== undefined
      ? { statement_timeout: pool.statementTimeoutMillis }
      : {}),
  });
  const onPoolError = options.onPoolError;
  pgPool.on('error', (error) => onPoolError?.(error));
  // pg emits 'error' on a client whose connection drops, and pg-pool listens only while the
  // client is idle: one in use would crash the process. The failure still reaches the caller
  // through the query it rejects, and the pool discards the client, no longer queryable, on
  // release; this listener only keeps the event from being unhandled.
  pgPool.on('connect', (client) => {
    client.on('error', () => {});
  });

  const dialect = new DeclaringPostgresDialect({ pool: pgPool });
  const tracing = options.tracing !== false;
  const traced = tracing
    ? traceStatements(dialect, {
        system: 'postgresql',
        ...namespaceOf(options.connectionString, schema),
      })
    : dialect;
  // Outside the tracing: a span is a statement the database ran, merged writes one of them.
  const deferring = deferWrites(traced, names);
  const db = new Kysely<Database>({ dialect: deferring });
  const profile = postgresProfile(options.maxAttempts ?? 5, names, options.groupCommit);
  try {
    if (!options.skipMigrations) {
      const applied = await migrateWithLock(db, POSTGRES_SCHEMA_FLAGS, schema, profile);
      options.onMigrated?.(applied);
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const own = { ...connection, connectionTimeoutMillis: pool.connectionTimeoutMillis ?? 10_000 };
  const listener = listenOnPostgres(own);
  const announcer = announceOnPostgres(own);
  return new KyselyRepository({
    db,
    dialect: deferring,
    profile,
    onClose: () => announcer.close(),
    announceCommitted: (storeIds) => announcer.announce(storeIds),
    otherProcesses: listener.changes,
    tokenWatch: listener.tokens,
    otherTokenChanges: listener.tokenChanges,
    tracing,
  });
}

/** `db.namespace`: the database the URL names, and the schema after `|` when one is set. */
function namespaceOf(connectionString: string, schema: string | undefined): { namespace?: string } {
  let database: string;
  try {
    database = decodeURIComponent(new URL(connectionString).pathname.slice(1));
  } catch {
    return {};
  }
  if (!database) return {};
  return { namespace: schema === undefined ? database : `${database}|${schema}` };
}
