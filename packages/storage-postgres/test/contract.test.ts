import { randomBytes } from 'node:crypto';
import { runRepositoryContract, skipUnless } from '@fulfil/core/testing';
import { DECLARE_WRITER_GENERATION_SQL } from '@fulfil/storage-kysely';
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
  const references = (
    await execute(
      connectionString,
      `select child.relname as child, parent.relname as parent from pg_constraint c
        join pg_class child on child.oid = c.conrelid
        join pg_class parent on parent.oid = c.confrelid
        join pg_namespace n on n.oid = child.relnamespace
        where c.contype = 'f' and n.nspname = '${schema}'`,
    )
  ).rows as { child: string; parent: string }[];
  // Emptied referencing tables first, filled referenced ones first: no foreign key is broken.
  const ordered: string[] = [];
  const left = new Set(tables);
  while (left.size > 0) {
    const free = [...left].filter(
      (table) =>
        !references.some((r) => r.parent === table && r.child !== table && left.has(r.child)),
    );
    if (free.length === 0) throw new Error(`foreign keys in a cycle among ${[...left]}`);
    for (const table of free) {
      ordered.push(table);
      left.delete(table);
    }
  }
  const at = (name: string) => `${quote(schema)}.${quote(name)}`;
  const keptAt = (name: string) => `${quote(kept)}.${quote(name)}`;
  await execute(connectionString, `create schema ${quote(kept)}`);
  const written: string[] = [];
  for (const table of [...ordered].reverse()) {
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
    // The tables refuse writers that do not say which generation they are (writer-generation.ts).
    DECLARE_WRITER_GENERATION_SQL,
    // A delete, because truncating every table costs more than a migration run.
    ...ordered.map((table) => `delete from ${at(table)}`),
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
