import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDomainError, type Repository } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { type Database, KyselyRepository, migrateToLatest } from '@fulfil/storage-kysely';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  declareWriterGeneration,
  ImmediateSqliteDialect,
  openSqliteRepository,
  SQLITE_SCHEMA_FLAGS,
} from '../src/index.js';
import { sqliteProfile } from '../src/sqlite-profile.js';
import { type Fault, observed } from './support/observed-database.js';

const worker = fileURLToPath(new URL('./support/group-commit-worker.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const storeCodes = (repository: Repository) =>
  repository.transaction(async (tx) => (await tx.listStores()).map((s) => s.code), 'read');

const addStore = (repository: Repository, code: string) =>
  repository.transaction((tx) => tx.upsertStore(code, fixtures.storeSettings()));

const expectUnavailable = (error: unknown, sqliteCode: string) => {
  expect(isDomainError(error) && error.code).toBe('unavailable');
  expect((error as Error).cause).toMatchObject({ code: sqliteCode });
};

describe('sqlite: group commit', () => {
  let dir: string;
  const closing: (() => Promise<void>)[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-group-'));
  });

  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * The repository over a file as the adapter opens it, every statement observed; the faults
   * pushed into `faults` strike once it is open.
   */
  async function openObserved() {
    const statements: string[] = [];
    const faults: Fault[] = [];
    const sqlite = declareWriterGeneration(new BetterSqlite3(join(dir, 'db.sqlite')));
    sqlite.pragma('journal_mode = WAL');
    const dialect = new ImmediateSqliteDialect({
      database: observed(sqlite, statements, faults),
    });
    const db = new Kysely<Database>({ dialect });
    await migrateToLatest(db, SQLITE_SCHEMA_FLAGS);
    const repository = new KyselyRepository({
      db,
      dialect,
      profile: sqliteProfile({ maxAttempts: 3, groupCommit: true }),
    });
    closing.push(() => repository.close());
    const since = statements.length;
    /** How many statements starting with `word` ran since the repository opened. */
    const count = (word: string) =>
      statements.slice(since).filter((text) => text.toLowerCase().startsWith(word)).length;
    return { repository, sqlite, count, faults };
  }

  it('writes that queue together share one commit, each in a savepoint of its own', async () => {
    const { repository, count } = await openObserved();
    const codes = ['a', 'b', 'c', 'd'];
    await Promise.all(codes.map((code) => addStore(repository, code)));
    expect(count('commit')).toBe(1);
    expect(count('savepoint')).toBe(4);
    expect(await storeCodes(repository)).toEqual(codes);
  });

  it("each action's work runs in its caller's async context, not the group's", async () => {
    const { repository } = await openObserved();
    const request = new AsyncLocalStorage<string>();
    const seen = await Promise.all(
      ['a', 'b', 'c'].map((code) =>
        request.run(code, () =>
          repository.transaction(async (tx) => {
            await tx.upsertStore(code, fixtures.storeSettings());
            return request.getStore();
          }),
        ),
      ),
    );
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('an action failing mid-group is undone alone, and answered only after the commit', async () => {
    const { repository, count } = await openObserved();
    let lastRan = false;
    const first = addStore(repository, 'a').then(() => lastRan);
    const failing = repository
      .transaction(async (tx) => {
        await tx.upsertStore('b', fixtures.storeSettings());
        throw new RangeError('bad input');
      })
      .then(
        () => ({ error: null, lastRan }),
        (error: unknown) => ({ error, lastRan }),
      );
    const last = repository.transaction(async (tx) => {
      await tx.upsertStore('c', fixtures.storeSettings());
      lastRan = true;
    });
    expect(await failing).toEqual({ error: new RangeError('bad input'), lastRan: true });
    expect(await first).toBe(true);
    await last;
    expect(count('commit')).toBe(1);
    expect(await storeCodes(repository)).toEqual(['a', 'c']);
  });

  it('a COMMIT that fails fails every action of the group and applies none', async () => {
    const { repository, faults } = await openObserved();
    faults.push({
      matches: /^commit/i,
      error: () => new BetterSqlite3.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE'),
    });
    const outcomes = await Promise.allSettled(
      ['a', 'b', 'c'].map((code) => addStore(repository, code)),
    );
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      if (outcome.status === 'rejected') expectUnavailable(outcome.reason, 'SQLITE_IOERR_WRITE');
    }
    expect(await storeCodes(repository)).toEqual([]);
    await addStore(repository, 'd');
    expect(await storeCodes(repository)).toEqual(['d']);
  });

  it("a COMMIT that meets another process's lock runs the whole group again, each action once", async () => {
    const { repository, faults, count } = await openObserved();
    faults.push({
      matches: /^commit/i,
      error: () => new BetterSqlite3.SqliteError('database is locked', 'SQLITE_BUSY'),
    });
    const runs: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((code) =>
        repository.transaction(async (tx) => {
          runs.push(code);
          await tx.upsertStore(code, fixtures.storeSettings());
        }),
      ),
    );
    expect(runs.sort()).toEqual(['a', 'a', 'b', 'b', 'c', 'c']);
    expect(count('commit')).toBeGreaterThanOrEqual(2);
    expect(await storeCodes(repository)).toEqual(['a', 'b', 'c']);
  });

  it('an action whose failure undoes the whole transaction fails alone; the others run again', async () => {
    const { repository, sqlite, faults } = await openObserved();
    faults.push({
      matches: /^insert into "warehouses"/i,
      // SQLite may roll the whole transaction back on a full disk, savepoints and all.
      before: () => sqlite.exec('rollback'),
      error: () => new BetterSqlite3.SqliteError('database or disk is full', 'SQLITE_FULL'),
    });
    let firstRuns = 0;
    const first = repository.transaction(async (tx) => {
      firstRuns += 1;
      await tx.upsertStore('a', fixtures.storeSettings());
    });
    const failing = repository
      .transaction(async (tx) => {
        const store = await tx.upsertStore('b', fixtures.storeSettings());
        await tx.upsertWarehouse(fixtures.warehouse(store.id, 'WH-A'));
      })
      .catch((error: unknown) => error);
    const last = addStore(repository, 'c');
    expectUnavailable(await failing, 'SQLITE_FULL');
    await Promise.all([first, last]);
    expect(firstRuns).toBe(2);
    expect(await storeCodes(repository)).toEqual(['a', 'c']);
  });

  it('openSqliteRepository groups the writes of a file; a memory database commits each alone', async () => {
    for (const [filename, grouped] of [
      [join(dir, 'opened.sqlite'), true],
      [':memory:', false],
    ] as const) {
      const repository = await openSqliteRepository(filename);
      closing.push(() => repository.close());
      let firstAnswered = false;
      const first = addStore(repository, 'a').then(() => {
        firstAnswered = true;
      });
      const seenBySecond = await repository.transaction(async (tx) => {
        await tx.upsertStore('b', fixtures.storeSettings());
        return firstAnswered;
      });
      await first;
      expect({ filename, answeredBeforeTheNextRan: seenBySecond }).toEqual({
        filename,
        answeredBeforeTheNextRan: !grouped,
      });
    }
  });

  it('a process killed mid-group loses only the actions it had not acknowledged', {
    timeout: 60_000,
  }, async () => {
    const filename = join(dir, 'killed.sqlite');
    // tsx resolves the @fulfil/* sources through the root tsconfig's paths.
    const child = spawn(process.execPath, ['--import', 'tsx', worker, filename], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('holding\n')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`worker exited (${code}):\n${output}`)));
    });
    child.kill('SIGKILL');
    await once(child, 'exit');

    const acknowledged = output
      .split('\n')
      .filter((line) => line.startsWith('acknowledged '))
      .map((line) => line.slice('acknowledged '.length));
    // The held group's first two actions had run, but their commit never came.
    expect(acknowledged.sort()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    const repository = await openSqliteRepository(filename);
    closing.push(() => repository.close());
    expect(await storeCodes(repository)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
  });
});
