/**
 * better-sqlite3 for the raw floors, and copies of the engine's database for them to run on.
 *
 * better-sqlite3 is a dependency of @fulfil/storage-sqlite, not of the repository root, so it is
 * loaded from that package (the very same module the adapter uses) and typed from its @types.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { declareWriterGeneration, type SqliteRepository } from '@fulfil/storage-sqlite';
import type BetterSqlite3 from '../packages/storage-sqlite/node_modules/@types/better-sqlite3/index.js';

const fromAdapter = createRequire(
  new URL('../packages/storage-sqlite/package.json', import.meta.url),
);

/** The better-sqlite3 constructor, as @fulfil/storage-sqlite loads it. */
export const Sqlite = fromAdapter('better-sqlite3') as typeof BetterSqlite3;
export type RawDb = BetterSqlite3.Database;
export type Statement<P extends unknown[]> = BetterSqlite3.Statement<P>;

/**
 * A copy of the repository's database for a raw floor: same schema, indexes, triggers and rows
 * (rowids kept), taken with `VACUUM INTO`. `memory` loads it into a private `:memory:` database;
 * `file` opens it with the pragmas `openSqliteRepository` uses on files (WAL, synchronous FULL,
 * foreign keys, busy timeout), and its writer generation, as every writer of the schema must.
 */
export async function rawCopy(
  repository: SqliteRepository,
  dir: string,
  name: string,
  where: 'memory' | 'file',
): Promise<RawDb> {
  const path = join(dir, `${name}.db`);
  await runSql(repository, 'vacuum into ?', [path]);
  const db = declareWriterGeneration(
    where === 'memory' ? new Sqlite(readFileSync(path)) : new Sqlite(path),
  );
  db.pragma('busy_timeout = 5000');
  if (where === 'file') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * Runs one raw statement on the repository's connection. kysely is a dependency of the adapters,
 * not of the root, so instead of its `sql` tag this builds what `CompiledQuery.raw` returns.
 */
export async function runSql<R = unknown>(
  repository: SqliteRepository,
  text: string,
  parameters: readonly unknown[] = [],
): Promise<R[]> {
  const result = await repository.db.executeQuery<R>({
    sql: text,
    parameters,
    query: { kind: 'RawNode', sqlFragments: [text], parameters: [] },
    queryId: { queryId: 'bench' },
  });
  return [...result.rows];
}

/** `YYYY-MM-DD HH:MM:SS` UTC, the stored timestamp format. */
export function timestamp(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}
