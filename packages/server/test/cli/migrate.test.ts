import { join } from 'node:path';
import { skipUnless } from '@fulfil/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresDatabase } from '../scale-out/support.js';
import { ALL_MIGRATIONS, runCli, tempDir } from './run-cli.js';

const ALL = ALL_MIGRATIONS.join(', ');

const postgresUrl = process.env.FULFIL_TEST_POSTGRES_URL;

/** `fulfil migrate` twice on a new database: it says what it applied, then that nothing was due. */
async function migrateTwice(db: string): Promise<void> {
  const first = await runCli(['migrate', '--db', db]);
  expect(first.stderr.text).toBe('');
  expect(first.code).toBe(0);
  expect(first.stdout.text).toMatch(new RegExp(`^applied ${ALL}: `));
  expect(first.stdout.text).not.toContain('up to date');

  const again = await runCli(['migrate', '--db', db]);
  expect(again.code).toBe(0);
  expect(again.stdout.text).toMatch(/^database is up to date: /);
}

describe('fulfil migrate', () => {
  let dir: { dir: string; remove(): Promise<void> };
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await dir.remove();
  });

  it('on a new SQLite file names the migrations it applied, then says it is up to date', async () => {
    await migrateTwice(`sqlite:${join(dir.dir, 'new.db')}`);
  });
});

describe('fulfil migrate on Postgres', () => {
  if (!postgresUrl) {
    it(
      'all of its tests',
      skipUnless(postgresUrl, 'FULFIL_TEST_POSTGRES_URL is not set'),
      () => {},
    );
    return;
  }
  it('on a new schema names the migrations it applied, then says it is up to date', async () => {
    // A schema of its own: the database is shared, and its default schema is nobody's to migrate.
    const database = postgresDatabase(postgresUrl);
    try {
      await migrateTwice(database.url);
    } finally {
      await database.drop();
    }
  });
});
