import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidDatabaseUrlError,
  openRepository,
  parseDatabaseUrl,
  redactDatabaseUrl,
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
    it.skip('needs FULFIL_TEST_POSTGRES_URL (skipped: not set)', () => {});
    return;
  }
  it('loads the Postgres adapter for a postgres:// URL', async () => {
    // A schema of its own: the shared database's default one may hold another version's tables.
    const database = postgresDatabase(postgresUrl);
    try {
      const repository = await openRepository(database.url);
      expect(await repository.transaction((tx) => tx.listStores(), 'read')).toEqual([]);
      await repository.close();
    } finally {
      await database.drop();
    }
  });
});
