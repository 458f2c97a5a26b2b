import { randomBytes } from 'node:crypto';
import { createEngine, type Engine, ManualClock, type Repository } from '@fulfil/core';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach } from 'vitest';

/** A fresh, empty database of one kind, with a way to read every row of it. */
export interface TestDatabase {
  repository: Repository;
  /** An engine over it, on a manual clock. */
  engine: Engine;
  /** Every row of every table, each table ordered, to prove a request changed nothing. */
  snapshot(): Promise<Record<string, unknown[]>>;
  /** Closes the repository and throws the database away. */
  drop(): Promise<void>;
}

export interface DatabaseKind {
  name: 'sqlite' | 'postgres';
  open(): Promise<TestDatabase>;
}

const postgresUrl = process.env.FULFIL_TEST_POSTGRES_URL;

type KyselyOf<T> = T extends { db: infer D } ? D : never;
type Db = KyselyOf<Awaited<ReturnType<typeof openSqliteRepository>>>;

/**
 * The tables to dump. On Postgres only this test's schema is read: kysely's introspection walks
 * every schema of the shared database, and trips over one another test drops meanwhile.
 */
async function tableNames(db: Db, schema?: string): Promise<string[]> {
  if (schema === undefined) {
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    return tables.map((table) => table.name).sort();
  }
  // information_schema has no type here: read it through a table type of ours.
  const rows = (await db
    .selectFrom('information_schema.tables' as 'stock')
    .select('table_name' as 'sku')
    .where('table_schema' as 'sku', '=', schema)
    .execute()) as unknown as { table_name: string }[];
  return rows.map((row) => `${schema}.${row.table_name}`).sort();
}

/** Every row of every table (of `schema`, when given), rows in a stable order. */
async function dumpTables(db: Db, schema?: string): Promise<Record<string, unknown[]>> {
  const tables = await tableNames(db, schema);
  const dump: Record<string, unknown[]> = {};
  for (const table of tables) {
    // The tables are listed at run time: no table type to name.
    const rows = await db
      .selectFrom(table as 'stock')
      .selectAll()
      .execute();
    dump[table] = rows
      .map((row) => [JSON.stringify(row), row] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, row]) => row);
  }
  return dump;
}

function engineOver(repository: Repository): Engine {
  return createEngine({ repository, clock: new ManualClock('2026-05-01T10:00:00Z') });
}

async function openSqlite(): Promise<TestDatabase> {
  const repository = await openSqliteRepository({ filename: ':memory:' });
  return {
    repository,
    engine: engineOver(repository),
    snapshot: () => dumpTables(repository.db),
    drop: () => repository.close(),
  };
}

async function openPostgres(url: string): Promise<TestDatabase> {
  const schema = `fulfil_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const repository = await openPostgresRepository({ connectionString: url, schema });
  return {
    repository,
    engine: engineOver(repository),
    snapshot: () => dumpTables(repository.db, schema),
    async drop() {
      try {
        await repository.db.schema.dropSchema(schema).ifExists().cascade().execute();
      } finally {
        await repository.close();
      }
    },
  };
}

/** SQLite always; Postgres too when FULFIL_TEST_POSTGRES_URL is set (CI sets it). */
export function databaseKinds(): DatabaseKind[] {
  const kinds: DatabaseKind[] = [{ name: 'sqlite', open: openSqlite }];
  if (postgresUrl) kinds.push({ name: 'postgres', open: () => openPostgres(postgresUrl) });
  else console.log('FULFIL_TEST_POSTGRES_URL is not set: Postgres is skipped here');
  return kinds;
}

/**
 * For a test file: `open(kind)` opens a fresh database of that kind, thrown away after the test
 * that opened it.
 */
export function droppedAfterEach(): (kind: DatabaseKind) => Promise<TestDatabase> {
  const opened: TestDatabase[] = [];
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.drop();
  });
  return async (kind) => {
    const database = await kind.open();
    opened.push(database);
    return database;
  };
}
