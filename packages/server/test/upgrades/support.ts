import { createEngine, type Engine, ManualClock, unverified } from '@fulfil/core';
import {
  FulfilMigrationProvider,
  KyselyRepository,
  MIGRATION_LOCK_TABLE,
  MIGRATION_TABLE,
  type SchemaFlags,
} from '@fulfil/storage-kysely';
import { POSTGRES_SCHEMA_FLAGS } from '@fulfil/storage-postgres';
import { SQLITE_SCHEMA_FLAGS } from '@fulfil/storage-sqlite';
import { Migrator, sql } from 'kysely';
import { afterEach } from 'vitest';
import { openRepository, parseDatabaseUrl } from '../../src/database-url.js';
import { startHttpServer } from '../../src/index.js';
import { tempDir } from '../cli/run-cli.js';
import { START, testSeed } from '../http/support.js';
import { postgresDatabase } from '../scale-out/support.js';
import type { RawConnection } from './raw-connection.js';

/**
 * Databases as a team upgrading finds them: migrated by the release before, holding its data,
 * then opened by this code. Each kind is a file or a Postgres schema of its own.
 */

export interface UpgradeDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface UpgradeKind {
  name: 'sqlite' | 'postgres';
  flags: SchemaFlags;
  create(): Promise<UpgradeDatabase>;
}

/** SQLite always; Postgres too when FULFIL_TEST_POSTGRES_URL is set (CI sets it). */
export function upgradeKinds(): UpgradeKind[] {
  const kinds: UpgradeKind[] = [
    {
      name: 'sqlite',
      flags: SQLITE_SCHEMA_FLAGS,
      async create() {
        const dir = await tempDir();
        return { url: `sqlite:${dir.dir}/fulfil.db`, drop: dir.remove };
      },
    },
  ];
  const base = process.env.FULFIL_TEST_POSTGRES_URL;
  if (base) {
    kinds.push({
      name: 'postgres',
      flags: POSTGRES_SCHEMA_FLAGS,
      async create() {
        const database = postgresDatabase(base);
        return { url: database.url, drop: database.drop };
      },
    });
  } else {
    console.log('FULFIL_TEST_POSTGRES_URL is not set: Postgres is skipped here');
  }
  return kinds;
}

/** Opens the SQL repository `url` names, migrated or (`skipMigrations`) left as it is. */
export async function openSql(
  url: string,
  options: { skipMigrations?: boolean } = {},
): Promise<KyselyRepository> {
  const repository = await openRepository(url, options);
  if (!(repository instanceof KyselyRepository)) throw new Error('a SQL repository was expected');
  return repository;
}

/**
 * Migrations these tests apply with the schema of the release before, out of order (as
 * `allowUnorderedMigrations` lets a later migration arrive before an earlier one): the tests play
 * the release before with this code, and this code cannot write its orders without the tables
 * they create (the sales orders it keeps, and their feed; the returns a sales order's view, which
 * a channel's intake answers, lists; the routing and calendar columns every write of a warehouse sets, the deadline of every order). A
 * migration that adds a table every write of an order touches, or a column the seed writes,
 * belongs here.
 */
const NEEDED_BY_THIS_CODE = [
  '0013_sales_orders',
  '0016_holds_and_cancellations',
  '0019_returns',
  '0025_warehouse_routing',
  '0026_safety_stock',
  '0029_routing_capacity',
  '0030_deadlines',
];

/**
 * Migrates the database `url` names up to `last` and no further, as a release that ended there
 * (with what this code needs to write at all: {@link NEEDED_BY_THIS_CODE}).
 */
export async function migrateUpTo(url: string, last: string): Promise<void> {
  const target = parseDatabaseUrl(url);
  const schema = target.kind === 'postgres' ? target.schema : undefined;
  const repository = await openSql(url, { skipMigrations: true });
  const every = new FulfilMigrationProvider(
    target.kind === 'postgres' ? POSTGRES_SCHEMA_FLAGS : SQLITE_SCHEMA_FLAGS,
  );
  const provider = {
    async getMigrations() {
      const migrations = await every.getMigrations();
      return Object.fromEntries(
        Object.entries(migrations).filter(
          ([name]) => name <= last || NEEDED_BY_THIS_CODE.includes(name),
        ),
      );
    },
  };
  try {
    if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(repository.db);
    const migrator = new Migrator({
      db: repository.db,
      provider,
      migrationTableName: MIGRATION_TABLE,
      migrationLockTableName: MIGRATION_LOCK_TABLE,
      allowUnorderedMigrations: true,
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  } finally {
    await repository.close();
  }
}

export interface UpgradeServer {
  url: string;
  engine: Engine;
  repository: KyselyRepository;
  /** Every line the server logged. */
  logs: string[];
  close(): Promise<void>;
}

/**
 * A server process of this code over `url` (migrating it, unless `skipMigrations`), on an
 * ephemeral port; with `seed`, the HTTP tests' seed loaded first.
 */
export async function serveOver(
  url: string,
  options: { skipMigrations?: boolean; seed?: boolean } = {},
): Promise<UpgradeServer> {
  const repository = await openSql(url, options);
  const engine = createEngine({ repository, clock: new ManualClock(START) });
  if (options.seed) await engine.loadSeed(unverified(testSeed()));
  const logs: string[] = [];
  const server = await startHttpServer({ engine, log: (line) => logs.push(line) });
  return {
    url: server.url,
    engine,
    repository,
    logs,
    async close() {
      await server.close();
      await engine.close();
    },
  };
}

/** Everything stored of the order numbered `number`, to prove that something changed nothing. */
export async function storedOrder(connection: RawConnection, number: string): Promise<unknown[]> {
  const id = `(select id from fulfillment_orders where fulfillment_order_number = $1)`;
  return [
    await connection.query('select * from fulfillment_orders where fulfillment_order_number = $1', [
      number,
    ]),
    await connection.query(`select * from order_items where order_id = ${id} order by id`, [
      number,
    ]),
    await connection.query(`select * from queue_entries where order_id = ${id} order by queue`, [
      number,
    ]),
    await connection.query(`select * from audit_events where order_id = ${id} order by id`, [
      number,
    ]),
  ];
}

type Closable = UpgradeDatabase | UpgradeServer | RawConnection;

/**
 * For a test file: `track(opened)` closes (or drops) it after each test, the last opened first;
 * `track.close(opened)` does it now.
 */
export function closedAfterEach(): (<T extends Closable>(opened: T) => T) & {
  close(opened: Closable): Promise<void>;
} {
  const open = new Map<Closable, () => Promise<void>>();
  afterEach(async () => {
    const steps = [...open.values()].reverse();
    open.clear();
    for (const step of steps) await step();
  });
  const track = <T extends Closable>(opened: T): T => {
    open.set(opened, 'drop' in opened ? opened.drop : opened.close);
    return opened;
  };
  return Object.assign(track, {
    async close(opened: Closable) {
      const step = open.get(opened);
      open.delete(opened);
      await step?.();
    },
  });
}
