import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Repository } from '@fulfil/core';

/** Where `fulfil` keeps its data when no `--db` is given: a SQLite file under `./data`. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/fulfil.db';

/** A database URL the server cannot open: a usage mistake, not a runtime failure. */
export class InvalidDatabaseUrlError extends Error {
  override readonly name: string = 'InvalidDatabaseUrlError';
}

/** The storage adapter a database URL needs is not installed (both are optional peers). */
export class StorageAdapterMissingError extends InvalidDatabaseUrlError {
  override readonly name = 'StorageAdapterMissingError';
}

/** Packages the server loads on demand, by the kind of database they open. */
export const STORAGE_ADAPTERS = {
  sqlite: '@fulfil/storage-sqlite',
  postgres: '@fulfil/storage-postgres',
} as const;

/**
 * Imports a storage adapter. A deployment installs only the one it uses (a Postgres deployment
 * need not compile better-sqlite3), so a missing one is a setup mistake, said as such.
 */
export async function importAdapter<TModule>(
  name: string,
  load: () => Promise<TModule>,
): Promise<TModule> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
    // Node names the package it could not find in quotes, then the importer's path (which may
    // hold the adapter's name when it is the adapter's own dependency that is missing).
    if (missing && String((error as Error).message).includes(`'${name}'`)) {
      throw new StorageAdapterMissingError(
        `this database needs the package ${name}, which is not installed: npm install ${name}`,
      );
    }
    throw error;
  }
}

export type DatabaseTarget =
  | { kind: 'sqlite'; path: string }
  | { kind: 'sqlite-memory' }
  | {
      kind: 'postgres';
      connectionString: string;
      schema?: string;
      /** False with `prepared_statements=off`: no statement is kept prepared by name. */
      preparedStatements?: boolean;
      /** `pool_max=`: connections of this process at most. */
      poolMax?: number;
      /** `group_commit=on`, with `group_size=` and `group_lanes=` when given. */
      groupCommit?: { size?: number; lanes?: number };
    };

const EXPECTED = 'expected sqlite:<path>, sqlite::memory: or postgres://…';

/** What the Postgres adapter accepts as a schema name (it never has to quote one). */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The query parameters of a Postgres URL that are Fulfil's, not the driver's, and their values. */
const OWN_PARAMETERS: Record<string, { valid: RegExp; says: string }> = {
  schema: {
    valid: SCHEMA_NAME,
    says: 'takes one name of lowercase letters, digits and _, starting with a letter or _',
  },
  prepared_statements: { valid: /^(on|off)$/, says: 'takes on or off' },
  // Two at least: migrating holds one connection for its lock while it works on another.
  pool_max: { valid: /^([2-9]|[1-9]\d{1,2}|1000)$/, says: 'takes a whole number from 2 to 1000' },
  group_commit: { valid: /^(on|off)$/, says: 'takes on or off' },
  group_size: { valid: /^([1-9]\d{0,2}|1000)$/, says: 'takes a whole number from 1 to 1000' },
  group_lanes: { valid: /^([1-9]\d{0,2}|1000)$/, says: 'takes a whole number from 1 to 1000' },
};

/**
 * Takes Fulfil's own query parameters (`schema`, `prepared_statements`) out of a Postgres URL;
 * every other byte of the URL is passed on to the driver untouched.
 */
function postgresTarget(url: string, text: string): DatabaseTarget {
  const mark = text.indexOf('?');
  const params = mark === -1 ? [] : text.slice(mark + 1).split('&');
  const own = new Map<string, string>();
  const rest: string[] = [];
  for (const param of params) {
    const name = param.split('=', 1)[0] ?? '';
    const rule = OWN_PARAMETERS[name];
    if (!rule) {
      rest.push(param);
      continue;
    }
    let value = '';
    try {
      value = decodeURIComponent(param.slice(name.length + 1));
    } catch {}
    if (own.has(name) || !param.includes('=') || !rule.valid.test(value)) {
      throw new InvalidDatabaseUrlError(
        `database URL "${redactDatabaseUrl(url)}": ${name}= ${rule.says}`,
      );
    }
    own.set(name, value);
  }
  if (own.size === 0) return { kind: 'postgres', connectionString: text };
  const connectionString = text.slice(0, mark) + (rest.length ? `?${rest.join('&')}` : '');
  const schema = own.get('schema');
  const prepared = own.get('prepared_statements');
  const poolMax = own.get('pool_max');
  const groupSize = own.get('group_size');
  const groupLanes = own.get('group_lanes');
  if (own.get('group_commit') !== 'on' && (groupSize ?? groupLanes) !== undefined) {
    throw new InvalidDatabaseUrlError(
      `database URL "${redactDatabaseUrl(url)}": group_size= and group_lanes= need group_commit=on`,
    );
  }
  return {
    kind: 'postgres',
    connectionString,
    ...(schema === undefined ? {} : { schema }),
    ...(prepared === undefined ? {} : { preparedStatements: prepared === 'on' }),
    ...(poolMax === undefined ? {} : { poolMax: Number(poolMax) }),
    ...(own.get('group_commit') === 'on'
      ? {
          groupCommit: {
            ...(groupSize === undefined ? {} : { size: Number(groupSize) }),
            ...(groupLanes === undefined ? {} : { lanes: Number(groupLanes) }),
          },
        }
      : {}),
  };
}

/**
 * Reads a database URL: `sqlite:<path>` (a file; relative paths resolve against `baseDir`),
 * `sqlite::memory:`, or `postgres://…` / `postgresql://…` (passed to the driver as is, except
 * Fulfil's own query parameters: `schema=<name>`, the Postgres schema to keep the tables in,
 * created when missing, default the server's `search_path`; `prepared_statements=off`, for a
 * pooler that cannot follow statements prepared by name; `pool_max=<n>`, the process's
 * connections; `group_commit=on` with `group_size=<n>` and `group_lanes=<n>`, see
 * docs/operations.md). Throws InvalidDatabaseUrlError for anything else.
 */
export function parseDatabaseUrl(url: string, baseDir: string = process.cwd()): DatabaseTarget {
  const text = url.trim();
  if (/^postgres(ql)?:\/\//i.test(text)) return postgresTarget(url, text);
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
  /**
   * Open without migrating: the schema must already be current (another process, such as the
   * primary of `serve --workers`, migrated it). Default false.
   */
  skipMigrations?: boolean;
  /** Told the names of the migrations this open applied, once they are; empty when none was due. */
  onMigrated?: (applied: readonly string[]) => void;
  /**
   * SQLite: how long a write waits, at most, for another process's write lock, in ms, before it
   * fails as `unavailable` (503). Default 5000. Postgres writers wait on row locks instead.
   */
  lockTimeoutMs?: number;
  /** False: no span of any statement (the adapters' `tracing`). Default true. */
  tracing?: boolean;
}

/**
 * Opens the repository a database URL names, with its schema migrated to the latest version.
 * A SQLite file's parent directory is created when missing. Each adapter is loaded only when its
 * kind of URL is given, so SQLite users never load `pg`, nor Postgres users better-sqlite3.
 */
export async function openRepository(
  url: string = DEFAULT_DATABASE_URL,
  options: OpenRepositoryOptions = {},
): Promise<Repository> {
  const target = parseDatabaseUrl(url, options.baseDir);
  const skipMigrations = options.skipMigrations ?? false;
  const onMigrated = options.onMigrated ? { onMigrated: options.onMigrated } : {};
  const tracing = options.tracing === false ? { tracing: false } : {};
  if (target.kind === 'postgres') {
    const { openPostgresRepository } = await importAdapter(
      STORAGE_ADAPTERS.postgres,
      () => import('@fulfil/storage-postgres'),
    );
    return openPostgresRepository({
      connectionString: target.connectionString,
      ...(target.schema === undefined ? {} : { schema: target.schema }),
      pool: {
        ...(target.preparedStatements === undefined
          ? {}
          : { preparedStatements: target.preparedStatements }),
        ...(target.poolMax === undefined ? {} : { max: target.poolMax }),
      },
      ...(target.groupCommit === undefined ? {} : { groupCommit: target.groupCommit }),
      skipMigrations,
      ...onMigrated,
      ...tracing,
    });
  }
  if (target.kind === 'sqlite') await mkdir(dirname(target.path), { recursive: true });
  const { openSqliteRepository } = await importAdapter(
    STORAGE_ADAPTERS.sqlite,
    () => import('@fulfil/storage-sqlite'),
  );
  return openSqliteRepository({
    filename: target.kind === 'sqlite' ? target.path : ':memory:',
    skipMigrations,
    ...onMigrated,
    ...tracing,
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
  });
}
