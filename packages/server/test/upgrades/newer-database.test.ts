import { join } from 'node:path';
import { skipTest } from '@fulfil/core/testing';
import { MIGRATION_TABLE } from '@fulfil/storage-kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../cli/run-cli.js';
import { postgresDatabase } from '../scale-out/support.js';
import { rawConnection } from './raw-connection.js';

/**
 * A database that a newer Fulfil migrated: its bookkeeping names migrations this code does not
 * have. Opening it must say so, name them and say how to go back, and change nothing.
 */

const FROM_THE_FUTURE = ['0099_from_a_newer_release', '0100_another_one'];

/** Records migrations this code does not know, as a newer release would have applied them. */
async function migrateAsNewerRelease(url: string): Promise<void> {
  const connection = await rawConnection(url);
  try {
    for (const name of FROM_THE_FUTURE) {
      await connection.query(`insert into ${MIGRATION_TABLE} (name, timestamp) values ($1, $2)`, [
        name,
        new Date().toISOString(),
      ]);
    }
  } finally {
    await connection.close();
  }
}

async function expectNewerReleaseRefused(url: string): Promise<void> {
  await runCli(['migrate', '--db', url]);
  await migrateAsNewerRelease(url);
  const before = await migrationRows(url);
  for (const command of [['migrate'], ['serve', '--port', '0'], ['stock', 'list']]) {
    const run = await runCli([...command, '--db', url]);
    expect(run.code, command.join(' ')).toBe(1);
    const said = run.stderr.text;
    expect(said).not.toMatch(/corrupt/i);
    expect(said).toContain('a newer Fulfil migrated this database');
    expect(said).toContain(FROM_THE_FUTURE.join(', '));
    expect(said).toMatch(/restore the backup taken before the upgrade/);
    expect(said).toMatch(/run the newer release/);
    expect(said).toContain('docs/operations.md');
    expect(run.stdout.text).toBe('');
  }
  expect(await migrationRows(url)).toEqual(before);
}

async function migrationRows(url: string): Promise<unknown[]> {
  const connection = await rawConnection(url);
  try {
    return await connection.query(`select * from ${MIGRATION_TABLE} order by name`);
  } finally {
    await connection.close();
  }
}

describe('a database migrated by a newer release', () => {
  let dir: { dir: string; remove(): Promise<void> };
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.remove());

  it('SQLite: is refused with the migrations it does not know and how to go back', async () => {
    await expectNewerReleaseRefused(`sqlite:${join(dir.dir, 'newer.db')}`);
  });

  it('Postgres: is refused with the migrations it does not know and how to go back', async (context) => {
    const base = process.env.FULFIL_TEST_POSTGRES_URL;
    if (!base) return skipTest(context, 'FULFIL_TEST_POSTGRES_URL is not set');
    const database = postgresDatabase(base);
    try {
      await expectNewerReleaseRefused(database.url);
    } finally {
      await database.drop();
    }
  });
});
