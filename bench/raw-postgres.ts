/**
 * pg for the raw Postgres floors. pg is a dependency of @fulfil/storage-postgres, not of the
 * repository root, so it is loaded from that package (the very module the adapter uses) and
 * typed from its @types.
 */
import { createRequire } from 'node:module';
import type Pg from '../packages/storage-postgres/node_modules/@types/pg/index.js';

const fromAdapter = createRequire(
  new URL('../packages/storage-postgres/package.json', import.meta.url),
);

/** The pg module, as @fulfil/storage-postgres loads it. */
export const pg = fromAdapter('pg') as typeof Pg;
export type PgClient = Pg.ClientBase;
export type PgPool = Pg.Pool;

/** Runs `work` on one connection to `url`, closed afterwards whatever happens. */
export async function withPostgres<T>(
  url: string,
  work: (client: PgClient) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs `work` in a transaction on a connection of `pool`: committed, or rolled back, rethrown. */
export async function inTransaction<T>(
  pool: PgPool,
  work: (client: PgClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/** Drops a schema of the run's and everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  await withPostgres(url, (client) => client.query(`drop schema if exists ${schema} cascade`));
}
