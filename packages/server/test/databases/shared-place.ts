import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Repository } from '@fulfil/core';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import { openSqliteRepository } from '@fulfil/storage-sqlite';

/**
 * One database that several repositories open at once, as the servers of a race test do: a
 * SQLite file (its writers take turns) or a Postgres schema (they race for real).
 */
export interface SharedPlace {
  /** How a test's title names it: `a SQLite file` or `Postgres`. */
  name: string;
  /** Opens another repository on the same database. */
  open(): Promise<Repository>;
  /** Throws the database away. */
  cleanup(): Promise<void>;
}

async function sqliteFile(prefix: string): Promise<SharedPlace> {
  const dir = await mkdtemp(join(tmpdir(), `fulfil-${prefix}-`));
  const filename = join(dir, 'fulfil.db');
  return {
    name: 'a SQLite file',
    open: () => openSqliteRepository({ filename }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

function postgresSchema(url: string, prefix: string): SharedPlace {
  const schema = `fulfil_${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  return {
    name: 'Postgres',
    open: () => openPostgresRepository({ connectionString: url, schema }),
    cleanup: async () => {
      const repository = await openPostgresRepository({ connectionString: url, schema });
      await repository.db.schema.dropSchema(schema).ifExists().cascade().execute();
      await repository.close();
    },
  };
}

/**
 * The places a race test runs on, each named before it is made: a SQLite file, and Postgres
 * when `FULFIL_TEST_POSTGRES_URL` is set (said in the output when not). `prefix`, a plain
 * identifier, names its files and schemas.
 */
export function sharedPlaces(prefix: string): { name: string; make(): Promise<SharedPlace> }[] {
  const url = process.env.FULFIL_TEST_POSTGRES_URL;
  const places = [{ name: 'a SQLite file', make: () => sqliteFile(prefix) }];
  if (url) places.push({ name: 'Postgres', make: async () => postgresSchema(url, prefix) });
  else console.log('FULFIL_TEST_POSTGRES_URL is not set: Postgres is skipped here');
  return places;
}
