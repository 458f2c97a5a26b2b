import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  declareWriterGeneration,
  openSqliteRepository,
  sqliteIntegrityProblems,
} from '../src/index.js';

describe('sqliteIntegrityProblems', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds nothing in a freshly migrated database', async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-integrity-'));
    const filename = join(dir, 'fresh.db');
    const repository = await openSqliteRepository({ filename });
    await repository.close();
    expect(sqliteIntegrityProblems(filename)).toEqual([]);
  });

  it('names a row whose foreign key points nowhere', async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-integrity-'));
    const filename = join(dir, 'orphan.db');
    const repository = await openSqliteRepository({ filename });
    await repository.close();
    // Written with the checks off, as a torn or hand-edited file could hold it.
    const raw = declareWriterGeneration(new BetterSqlite3(filename));
    raw.pragma('foreign_keys = OFF');
    raw
      .prepare(
        "insert into warehouses (store_id, code, name, active, fulfilled_by, priority) values (999, 'WH-X', 'X', 1, 'partner', 1)",
      )
      .run();
    raw.close();
    expect(sqliteIntegrityProblems(filename)).toEqual([
      'warehouses row 1 refers to a missing stores row',
    ]);
  });

  it('refuses a file that does not exist rather than creating it', () => {
    expect(() => sqliteIntegrityProblems(join(tmpdir(), 'fulfil-no-such-file.db'))).toThrow();
  });
});
