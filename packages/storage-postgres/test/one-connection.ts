import { randomBytes } from 'node:crypto';
import {
  openPostgresRepository,
  type PostgresPoolOptions,
  type PostgresRepository,
} from '@fulfil/storage-postgres';
import pg from 'pg';

/**
 * A repository over one pooled connection of a fresh schema named `<prefix>_<pid>_<random>`:
 * every statement it prepares is on that one session, where `pg_prepared_statements` lists it.
 * The schema is migrated first by a repository of its own, since migrating takes two
 * connections (one holds the lock).
 */
export async function openOnOneConnection(
  url: string,
  prefix: string,
  pool: Omit<PostgresPoolOptions, 'max'> = {},
): Promise<{ repository: PostgresRepository; schema: string }> {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await (await openPostgresRepository({ connectionString: url, schema })).close();
  const repository = await openPostgresRepository({
    connectionString: url,
    schema,
    skipMigrations: true,
    pool: { ...pool, max: 1 },
  });
  return { repository, schema };
}

/** Drops `schema` and all it holds. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}
