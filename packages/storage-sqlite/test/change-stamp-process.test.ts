import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fixtures } from '@fulfil/core/testing';
import { WRITER_GENERATION, WRITER_GENERATION_FUNCTION } from '@fulfil/storage-kysely';
import { openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('../', import.meta.url));

/**
 * Another process commits one change to the file, with plain better-sqlite3 in WAL mode,
 * declaring the writer generation as Fulfil's connections do (the schema refuses writers that
 * do not). The change must alter bytes: SQLite writes no page for an update to identical
 * values, and then nothing was committed that a cache could miss.
 */
async function commitFromAnotherProcess(filename: string): Promise<void> {
  const script = `
    const [filename, declaration, generation] = process.argv.slice(1);
    const db = new (require('better-sqlite3'))(filename, { timeout: 5000 });
    db.function(declaration, () => Number(generation));
    db.prepare("update stores set settings = settings || ' ' where code = 'default'").run();
    db.close();`;
  const declaration = [WRITER_GENERATION_FUNCTION, String(WRITER_GENERATION)];
  await run(process.execPath, ['-e', script, filename, ...declaration], { cwd: packageDir });
}

describe('sqlite: the change stamp and other processes (WAL)', () => {
  let dir: string;
  let repository: SqliteRepository;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-stamp-'));
    repository = await openSqliteRepository(join(dir, 'fulfil.db'));
    await repository.transaction((tx) => tx.upsertStore('default', fixtures.storeSettings()));
  });

  afterEach(async () => {
    await repository.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('moves when another process commits', async () => {
    const before = await repository.changeStamp();
    expect(await repository.changeStamp()).toBe(before);
    await commitFromAnotherProcess(join(dir, 'fulfil.db'));
    expect(await repository.changeStamp()).not.toBe(before);
  });

  it('is not read inside the snapshot of a transaction still open in this process', async () => {
    const before = await repository.changeStamp();
    let finish = () => {};
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    // A read transaction pins its WAL snapshot at its first read and stays open meanwhile.
    const reading = repository.transaction(async (tx) => {
      await tx.listStores();
      await held;
    }, 'read');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await commitFromAnotherProcess(join(dir, 'fulfil.db'));
    // The commit is acknowledged; a stamp read now must not be the old one, though the
    // connection is still inside a snapshot that predates the commit.
    const stamp = repository.changeStamp();
    finish();
    await reading;
    expect(await stamp).not.toBe(before);
  });
});
