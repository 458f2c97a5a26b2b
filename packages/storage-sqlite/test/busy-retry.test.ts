import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtures } from '@fulfil/core/testing';
import { isSqliteBusy, openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdWriteLock } from './support/hold-write-lock.js';

/**
 * Two connections to one file in one process stand in for two processes. The busy timeout is 0
 * so that SQLITE_BUSY reaches the repository at once (better-sqlite3 would otherwise block this
 * very thread while waiting, and the holder of the lock could never finish).
 */
describe('sqlite: a transaction that meets SQLITE_BUSY', () => {
  let dir: string;
  let holder: SqliteRepository;
  const opened: SqliteRepository[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-busy-'));
    holder = await openSqliteRepository({ filename: join(dir, 'db.sqlite') });
    opened.push(holder);
  });

  afterEach(async () => {
    for (const repository of opened.splice(0)) await repository.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is run again once the lock is free', async () => {
    const other = await openSqliteRepository({
      filename: join(dir, 'db.sqlite'),
      busyTimeoutMs: 0,
      maxAttempts: 10,
    });
    opened.push(other);
    const lock = await holdWriteLock(holder);
    setTimeout(lock.release, 30);
    let runs = 0;
    const store = await other.transaction(async (tx) => {
      runs += 1;
      return tx.upsertStore('other', fixtures.storeSettings());
    });
    await lock.done;
    expect(store.code).toBe('other');
    expect(runs).toBe(1); // BEGIN IMMEDIATE failed before the work ever ran
    const codes = await other.transaction(
      async (tx) => (await tx.listStores()).map((s) => s.code),
      'read',
    );
    expect(codes).toEqual(['holder', 'other']);
  });

  it('fails with SQLITE_BUSY when every attempt meets the lock', async () => {
    const other = await openSqliteRepository({
      filename: join(dir, 'db.sqlite'),
      busyTimeoutMs: 0,
      maxAttempts: 2,
    });
    opened.push(other);
    const lock = await holdWriteLock(holder);
    const error = await other
      .transaction((tx) => tx.upsertStore('other', fixtures.storeSettings()))
      .catch((e: unknown) => e);
    lock.release();
    await lock.done;
    expect(isSqliteBusy(error)).toBe(true);
  });

  it('reads while another connection writes (WAL)', async () => {
    const other = await openSqliteRepository({
      filename: join(dir, 'db.sqlite'),
      busyTimeoutMs: 0,
    });
    opened.push(other);
    const lock = await holdWriteLock(holder);
    const stores = await other.transaction((tx) => tx.listStores(), 'read');
    lock.release();
    await lock.done;
    expect(stores).toEqual([]);
  });
});
