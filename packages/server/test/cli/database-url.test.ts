import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { skipUnless } from '@fulfil/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidDatabaseUrlError,
  importAdapter,
  openRepository,
  parseDatabaseUrl,
  redactDatabaseUrl,
  STORAGE_ADAPTERS,
  StorageAdapterMissingError,
} from '../../src/database-url.js';
import { postgresDatabase } from '../scale-out/support.js';
import { tempDir } from './run-cli.js';

describe('parseDatabaseUrl', () => {
  it('reads SQLite files, resolving relative paths against the base directory', () => {
    expect(parseDatabaseUrl('sqlite:/tmp/x.db', '/base')).toEqual({
      kind: 'sqlite',
      path: '/tmp/x.db',
    });
    expect(parseDatabaseUrl('sqlite:./data/f.db', '/base')).toEqual({
      kind: 'sqlite',
      path: '/base/data/f.db',
    });
    expect(parseDatabaseUrl('sqlite:f.db', '/base')).toEqual({
      kind: 'sqlite',
      path: '/base/f.db',
    });
    expect(parseDatabaseUrl('sqlite:///abs/f.db', '/base')).toEqual({
      kind: 'sqlite',
      path: '/abs/f.db',
    });
  });

  it('reads in-memory SQLite and Postgres URLs', () => {
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite-memory' });
    for (const url of ['postgres://u:p@h:5432/db', 'postgresql://h/db?sslmode=require']) {
      expect(parseDatabaseUrl(url)).toEqual({ kind: 'postgres', connectionString: url });
    }
  });

  it('takes a schema for Postgres out of the URL, leaving the rest as given', () => {
    expect(parseDatabaseUrl('postgres://u:p@h/db?schema=fulfil_x')).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://u:p@h/db',
      schema: 'fulfil_x',
    });
    expect(
      parseDatabaseUrl('postgres://h/db?sslmode=require&schema=s1&application_name=a%20b'),
    ).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://h/db?sslmode=require&application_name=a%20b',
      schema: 's1',
    });
    for (const url of [
      'postgres://h/db?schema=',
      'postgres://h/db?schema',
      'postgres://h/db?schema=Bad',
      'postgres://h/db?schema=a;drop',
      'postgres://h/db?schema=a&schema=b',
    ]) {
      expect(() => parseDatabaseUrl(url), url).toThrow(InvalidDatabaseUrlError);
    }
  });

  it('takes prepared_statements=on|off for Postgres out of the URL', () => {
    expect(
      parseDatabaseUrl('postgres://h/db?prepared_statements=off&sslmode=require&schema=s1'),
    ).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://h/db?sslmode=require',
      schema: 's1',
      preparedStatements: false,
    });
    expect(parseDatabaseUrl('postgres://h/db?prepared_statements=on')).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://h/db',
      preparedStatements: true,
    });
    for (const url of [
      'postgres://h/db?prepared_statements=no',
      'postgres://h/db?prepared_statements',
      'postgres://h/db?prepared_statements=off&prepared_statements=on',
    ]) {
      expect(() => parseDatabaseUrl(url), url).toThrow(InvalidDatabaseUrlError);
    }
  });

  it('takes the pool size and group commit for Postgres out of the URL', () => {
    expect(
      parseDatabaseUrl('postgres://h/db?pool_max=20&group_commit=on&group_size=8&group_lanes=3'),
    ).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://h/db',
      poolMax: 20,
      groupCommit: { size: 8, lanes: 3 },
    });
    expect(parseDatabaseUrl('postgres://h/db?group_commit=on&sslmode=require')).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://h/db?sslmode=require',
      groupCommit: {},
    });
    expect(parseDatabaseUrl('postgres://h/db?group_commit=off')).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://h/db',
    });
    for (const url of [
      'postgres://h/db?pool_max=0',
      'postgres://h/db?pool_max=1',
      'postgres://h/db?pool_max=1001',
      'postgres://h/db?pool_max=ten',
      'postgres://h/db?group_commit=yes',
      'postgres://h/db?group_size=8',
      'postgres://h/db?group_commit=off&group_lanes=2',
      'postgres://h/db?group_commit=on&group_size=0',
    ]) {
      expect(() => parseDatabaseUrl(url), url).toThrow(InvalidDatabaseUrlError);
    }
  });

  it('rejects anything else', () => {
    for (const url of ['', 'mysql://h/db', '/tmp/x.db', 'sqlite:', 'file:x.db']) {
      expect(() => parseDatabaseUrl(url), url).toThrow(InvalidDatabaseUrlError);
    }
  });

  it('hides passwords', () => {
    expect(redactDatabaseUrl('postgres://fulfil:s3cret@db:5432/x')).toBe(
      'postgres://fulfil:***@db:5432/x',
    );
    expect(redactDatabaseUrl('sqlite:/tmp/x.db')).toBe('sqlite:/tmp/x.db');
  });
});

describe('openRepository', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
  });
  afterEach(() => remove());

  it('creates the parent directory of a SQLite file and migrates it', async () => {
    const repository = await openRepository('sqlite:a/b/fulfil.db', { baseDir: dir });
    expect(await repository.transaction((tx) => tx.listStores(), 'read')).toEqual([]);
    await repository.close();
    expect(existsSync(join(dir, 'a', 'b', 'fulfil.db'))).toBe(true);
  });

  it('opens an in-memory SQLite database', async () => {
    const repository = await openRepository('sqlite::memory:');
    expect(await repository.transaction((tx) => tx.listStores(), 'read')).toEqual([]);
    await repository.close();
  });
});

const postgresUrl = process.env.FULFIL_TEST_POSTGRES_URL;

describe('openRepository on Postgres', () => {
  if (!postgresUrl) {
    it(
      'all of its tests',
      skipUnless(postgresUrl, 'FULFIL_TEST_POSTGRES_URL is not set'),
      () => {},
    );
    return;
  }
  it('loads the Postgres adapter for a postgres:// URL', async () => {
    // A schema of its own: the database is shared, and its default schema is nobody's to migrate.
    const database = postgresDatabase(postgresUrl);
    const repository = await openRepository(database.url);
    try {
      expect(await repository.transaction((tx) => tx.listStores(), 'read')).toEqual([]);
    } finally {
      await repository.close();
      await database.drop();
    }
  });
});

describe('storage adapters are optional peers, loaded on demand', () => {
  const notFound = (specifier: string, importer = '/app/node_modules/@fulfil/server/dist/cli.js') =>
    Object.assign(new Error(`Cannot find package '${specifier}' imported from ${importer}`), {
      code: 'ERR_MODULE_NOT_FOUND',
    });

  it('a missing adapter is a setup mistake that names the package to install', async () => {
    const error = await importAdapter(STORAGE_ADAPTERS.postgres, () =>
      Promise.reject(notFound('@fulfil/storage-postgres')),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageAdapterMissingError);
    expect(error).toBeInstanceOf(InvalidDatabaseUrlError);
    expect((error as Error).message).toContain('npm install @fulfil/storage-postgres');
  });

  it('a module missing inside an installed adapter (its driver, say) is not blamed on the adapter', async () => {
    const error = await importAdapter(STORAGE_ADAPTERS.sqlite, () =>
      Promise.reject(
        notFound('better-sqlite3', '/app/node_modules/@fulfil/storage-sqlite/dist/index.js'),
      ),
    ).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(StorageAdapterMissingError);
    expect((error as Error).message).toContain('better-sqlite3');
  });

  it('an installed adapter loads', async () => {
    const adapter = await importAdapter(
      STORAGE_ADAPTERS.sqlite,
      () => import('@fulfil/storage-sqlite'),
    );
    expect(typeof adapter.openSqliteRepository).toBe('function');
  });
});
