import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDomainError } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdWriteLock } from './support/hold-write-lock.js';

/**
 * Faults of the file rather than of the work — locked past every attempt, no room left, not
 * writable — come out of the repository as core's `unavailable` error, the SQLite error as its
 * cause, and leave the database as it was.
 */
describe('sqlite: a database that cannot serve now', () => {
  let dir: string;
  let repository: SqliteRepository;
  const opened: SqliteRepository[] = [];

  const open = async (lockTimeoutMs?: number) => {
    const opening = await openSqliteRepository({
      filename: join(dir, 'db.sqlite'),
      maxAttempts: 2,
      ...(lockTimeoutMs === undefined ? {} : { lockTimeoutMs }),
    });
    opened.push(opening);
    return opening;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-unavailable-'));
    repository = await open();
    await repository.transaction((tx) => tx.upsertStore('kept', fixtures.storeSettings()));
  });

  afterEach(async () => {
    for (const one of opened.splice(0)) await one.close();
    await rm(dir, { recursive: true, force: true });
  });

  const storeCodes = () =>
    repository.transaction(async (tx) => (await tx.listStores()).map((s) => s.code), 'read');

  /** The error `write` fails with: many warehouses, so that it needs more than a few pages. */
  const failedWrite = (target: SqliteRepository) =>
    target
      .transaction(async (tx) => {
        const store = await tx.upsertStore('new', fixtures.storeSettings());
        for (let i = 0; i < 200; i++) {
          await tx.upsertWarehouse(fixtures.warehouse(store.id, `WH-${i}-${'x'.repeat(100)}`));
        }
      })
      .then(
        () => null,
        (error: unknown) => error,
      );

  const expectUnavailable = (error: unknown, sqliteCode: RegExp) => {
    expect(isDomainError(error) && error.code).toBe('unavailable');
    expect((error as Error).cause).toMatchObject({ code: expect.stringMatching(sqliteCode) });
  };

  it('is unavailable when another connection holds the lock past every attempt', async () => {
    const other = await open(0);
    const lock = await holdWriteLock(repository);
    const error = await failedWrite(other);
    lock.release();
    await lock.done;
    expectUnavailable(error, /^SQLITE_BUSY/);
    expect(await storeCodes()).toEqual(['holder', 'kept']);
  });

  it('is unavailable when the disk is full', async () => {
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(repository.db);
    const used = Number(pages.rows[0]?.page_count);
    await sql.raw(`pragma max_page_count = ${used}`).execute(repository.db);
    const error = await failedWrite(repository);
    expectUnavailable(error, /^SQLITE_FULL/);
    expect(await storeCodes()).toEqual(['kept']);
  });

  it('is unavailable when the database cannot be written', async () => {
    await sql`pragma query_only = 1`.execute(repository.db);
    const error = await failedWrite(repository);
    expectUnavailable(error, /^SQLITE_READONLY/);
    expect(await storeCodes()).toEqual(['kept']);
  });

  it('keeps a fault of the work itself as it was', async () => {
    const error = await repository
      .transaction(async () => {
        throw new RangeError('bad input');
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
  });
});
