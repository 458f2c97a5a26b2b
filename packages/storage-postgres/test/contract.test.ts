import { randomBytes } from 'node:crypto';
import { runRepositoryContract, skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, beforeAll, it } from 'vitest';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/** Runs SQL (one statement, or several in one text) on a connection of its own. */
async function execute(connectionString: string, statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Migrates `schema` once and returns what puts it back as the migrations left it: every table
 * emptied and given back the rows the migrations wrote (kept aside in `kept`), every sequence its
 * value, in one transaction. A test starts from the very state a fresh schema has, without the
 * migration run that costs most of a test's time.
 */
async function migrateOnce(
  connectionString: string,
  schema: string,
  kept: string,
): Promise<() => Promise<void>> {
  await (await openPostgresRepository({ connectionString, schema })).close();
  const tables = (
    await execute(
      connectionString,
      `select tablename as name from pg_tables where schemaname = '${schema}' order by 1`,
    )
  ).rows.map((row) => row.name as string);
  const sequences = (
    await execute(
      connectionString,
      `select sequencename as name from pg_sequences where schemaname = '${schema}' order by 1`,
    )
  ).rows.map((row) => row.name as string);
  const at = (name: string) => `${quote(schema)}.${quote(name)}`;
  const keptAt = (name: string) => `${quote(kept)}.${quote(name)}`;
  await execute(connectionString, `create schema ${quote(kept)}`);
  const written: string[] = [];
  for (const table of tables) {
    const { rows } = await execute(connectionString, `select exists (table ${at(table)}) as any`);
    if (!rows[0]?.any) continue;
    await execute(connectionString, `create table ${keptAt(table)} as table ${at(table)}`);
    written.push(table);
  }
  const values: string[] = [];
  for (const sequence of sequences) {
    const { rows } = await execute(
      connectionString,
      `select last_value, is_called from ${at(sequence)}`,
    );
    const value = rows[0] as { last_value: string; is_called: boolean };
    values.push(
      `select setval('${at(sequence)}', ${value.last_value}, ${value.is_called ? 'true' : 'false'})`,
    );
  }
  const reset = [
    'begin',
    // Rows go in any order, foreign keys and guards unchecked (they hold again once all is
    // back): it takes a superuser, as the test database's `postgres` is. A delete, because
    // truncating every table costs more than a migration run.
    'set local session_replication_role = replica',
    ...tables.map((table) => `delete from ${at(table)}`),
    ...written.map(
      (table) => `insert into ${at(table)} overriding system value table ${keptAt(table)}`,
    ),
    ...values,
    'commit',
  ].join(';\n');
  return async () => {
    await execute(connectionString, reset);
  };
}

if (url) {
  // One schema, migrated once; every test starts from it as migrated (see migrateOnce).
  const schema = `fulfil_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const kept = `${schema}_kept`;
  let reset: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    reset = await migrateOnce(url, schema, kept);
  }, 60_000);
  afterAll(async () => {
    await execute(
      url,
      `drop schema if exists ${quote(schema)} cascade; drop schema if exists ${quote(kept)} cascade`,
    );
  });
  const open = () =>
    openPostgresRepository({ connectionString: url, schema, skipMigrations: true });
  runRepositoryContract('postgres', async () => {
    if (!reset) throw new Error('the schema was not migrated');
    await reset();
    return { repository: await open(), openAnother: open };
  });
} else {
  it(
    'postgres repository contract',
    skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'),
    () => {},
  );
}
