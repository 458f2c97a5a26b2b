import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtures } from '@fulfil/core/testing';
import { exportStore, importStore, type NumberedRecord } from '@fulfil/storage-kysely';
import { isSqliteBusy, openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdWriteLock } from './support/hold-write-lock.js';

/**
 * Two connections to one file in one process stand in for two processes: the adapter never waits
 * for a lock on the thread, so the holder of the lock can finish while the other waits.
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
    const other = await openSqliteRepository(join(dir, 'db.sqlite'));
    opened.push(other);
    const lock = await holdWriteLock(holder);
    const stores = await other.transaction((tx) => tx.listStores(), 'read');
    lock.release();
    await lock.done;
    expect(stores).toEqual([]);
  });

  it('closing waits for a write that waits for the lock, and the write is applied', async () => {
    const other = await openSqliteRepository(join(dir, 'db.sqlite'));
    const lock = await holdWriteLock(holder);
    const order: string[] = [];
    const write = other
      .transaction((tx) => tx.upsertStore('other', fixtures.storeSettings()))
      .then(() => order.push('written'));
    const closed = other.close().then(() => order.push('closed'));
    setTimeout(lock.release, 30);
    await Promise.all([write, closed, lock.done]);
    expect(order).toEqual(['written', 'closed']);
    const codes = await holder.transaction(
      async (tx) => (await tx.listStores()).map((s) => s.code),
      'read',
    );
    expect(codes).toEqual(['holder', 'other']);
  });

  it('opening waits for the lock to migrate, without holding up the thread', async () => {
    const lock = await holdWriteLock(holder);
    const order: string[] = [];
    const opening = openSqliteRepository({
      filename: join(dir, 'db.sqlite'),
      lockTimeoutMs: 60_000,
    });
    // Released from this very thread: an opening that blocked it would wait out its whole limit.
    setTimeout(() => {
      order.push('released');
      lock.release();
    }, 20);
    const other = await opening;
    opened.push(other);
    order.push('opened');
    await lock.done;
    expect(order).toEqual(['released', 'opened']);
  });

  it('opening gives up once the lock outlasts its limit', async () => {
    const lock = await holdWriteLock(holder);
    const error = await openSqliteRepository({
      filename: join(dir, 'db.sqlite'),
      lockTimeoutMs: 50,
    }).catch((e: unknown) => e);
    lock.release();
    await lock.done;
    expect(isSqliteBusy(error)).toBe(true);
  });

  it("a store dump's import waits for the lock to begin, and takes the dump in once", async () => {
    await holder.transaction((tx) => tx.upsertStore('moved', fixtures.storeSettings()));
    let text = '';
    for await (const chunk of exportStore(holder, 'moved')) {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    }
    const records = async function* (): AsyncGenerator<NumberedRecord> {
      let line = 0;
      for (const part of text.split('\n')) {
        line += 1;
        if (part) yield { line, value: JSON.parse(part) };
      }
    };
    const other = await openSqliteRepository(join(dir, 'other.sqlite'));
    const locker = await openSqliteRepository(join(dir, 'other.sqlite'));
    opened.push(other, locker);
    const lock = await holdWriteLock(locker);
    setTimeout(lock.release, 20);
    await importStore(other, 'moved', records());
    await lock.done;
    const codes = await other.transaction(
      async (tx) => (await tx.listStores()).map((s) => s.code),
      'read',
    );
    expect(codes).toEqual(['holder', 'moved']);
  });
});
