/**
 * The databases a scenario runs on: a SQLite file in the run's tmp dir, and, when
 * `FULFIL_TEST_POSTGRES_URL` is set, a Postgres schema of its own (dropped afterwards), so runs
 * never meet each other's rows nor those of the test suite.
 */
import { join } from 'node:path';
import type { Repository } from '@fulfil/core';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { dropSchema } from './raw-postgres.js';

export interface BenchDatabase {
  /** `SQLite file` or `Postgres`: how the summary names it. */
  label: string;
  kind: 'sqlite' | 'postgres';
  /** What `fulfil --db` takes. */
  url: string;
  /**
   * The repository, for filling. A SQLite file is opened with `synchronous = normal`: filling is
   * set-up, and a power loss during it loses nothing worth keeping.
   */
  open(): Promise<Repository>;
  /** Removes it (the Postgres schema; the SQLite file goes with the tmp dir). */
  drop(): Promise<void>;
}

export function sqliteDatabase(dir: string, name: string): BenchDatabase {
  const path = join(dir, `${name}.db`);
  return {
    label: 'SQLite file',
    kind: 'sqlite',
    url: `sqlite:${path}`,
    open: () => openSqliteRepository({ filename: path, synchronous: 'normal' }),
    drop: async () => {},
  };
}

export function postgresDatabase(postgresUrl: string, name: string): BenchDatabase {
  const schema = `fulfil_bench_${name.replace(/\W/g, '_')}_${process.pid}`;
  const separator = postgresUrl.includes('?') ? '&' : '?';
  return {
    label: 'Postgres',
    kind: 'postgres',
    url: `${postgresUrl}${separator}schema=${schema}`,
    open: () => openPostgresRepository({ connectionString: postgresUrl, schema }),
    drop: () => dropSchema(postgresUrl, schema),
  };
}

/** The SQLite file, and Postgres when a URL is given: each scenario runs on every one. */
export function databasesFor(
  dir: string,
  postgresUrl: string | undefined,
  name: string,
): BenchDatabase[] {
  const sqlite = sqliteDatabase(dir, name);
  return postgresUrl ? [sqlite, postgresDatabase(postgresUrl, name)] : [sqlite];
}
