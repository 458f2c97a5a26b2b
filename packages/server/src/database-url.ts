import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Repository } from '@fulfil/core';

/** Where `fulfil` keeps its data when no `--db` is given: a SQLite file under `./data`. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/fulfil.db';

/** A database URL the server cannot open: a usage mistake, not a runtime failure. */
export class InvalidDatabaseUrlError extends Error {
  override readonly name = 'InvalidDatabaseUrlError';
}

export type DatabaseTarget =
  | { kind: 'sqlite'; path: string }
  | { kind: 'sqlite-memory' }
  | { kind: 'postgres'; connectionString: string };

const EXPECTED = 'expected sqlite:<path>, sqlite::memory: or postgres://…';

/**
 * Reads a database URL: `sqlite:<path>` (a file; relative paths resolve against `baseDir`),
 * `sqlite::memory:`, or `postgres://…` / `postgresql://…` (passed to the driver as is).
 * Throws InvalidDatabaseUrlError for anything else.
 */
export function parseDatabaseUrl(url: string, baseDir: string = process.cwd()): DatabaseTarget {
  const text = url.trim();
  if (/^postgres(ql)?:\/\//i.test(text)) return { kind: 'postgres', connectionString: text };
  if (/^sqlite:/i.test(text)) {
    // `sqlite:///abs/path` and `sqlite://rel/path` are accepted as well as `sqlite:path`.
    const path = text.slice('sqlite:'.length).replace(/^\/\//, '');
    if (path === ':memory:') return { kind: 'sqlite-memory' };
    if (!path)
      throw new InvalidDatabaseUrlError(`database URL "${url}" names no file; ${EXPECTED}`);
    return { kind: 'sqlite', path: resolve(baseDir, path) };
  }
  throw new InvalidDatabaseUrlError(
    `unsupported database URL "${redactDatabaseUrl(url)}"; ${EXPECTED}`,
  );
}

/** The URL with its password hidden, for messages and logs. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}

export interface OpenRepositoryOptions {
  /** Directory that relative SQLite paths resolve against. Default: the working directory. */
  baseDir?: string;
}

/**
 * Opens the repository a database URL names, with its schema migrated to the latest version.
 * A SQLite file's parent directory is created when missing. The Postgres adapter is loaded only
 * when a Postgres URL is given, so SQLite users never load `pg`.
 */
export async function openRepository(
  url: string = DEFAULT_DATABASE_URL,
  options: OpenRepositoryOptions = {},
): Promise<Repository> {
  const target = parseDatabaseUrl(url, options.baseDir);
  if (target.kind === 'postgres') {
    const { openPostgresRepository } = await import('@fulfil/storage-postgres');
    return openPostgresRepository(target.connectionString);
  }
  if (target.kind === 'sqlite') await mkdir(dirname(target.path), { recursive: true });
  const { openSqliteRepository } = await import('@fulfil/storage-sqlite');
  return openSqliteRepository(target.kind === 'sqlite' ? target.path : ':memory:');
}
