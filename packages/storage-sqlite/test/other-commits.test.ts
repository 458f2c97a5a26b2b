import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * What a SQLite repository tells without reading (kept tokens, queueVersion) rests on the
 * file's data_version, which stays at a transaction's snapshot while the connection is inside
 * one. A long read of this connection (an export's snapshot) must not hide another process's
 * commit made meanwhile.
 */
describe('sqlite: another connection’s commits while this one is inside a transaction', () => {
  let dir: string | undefined;
  const opened: SqliteRepository[] = [];
  afterEach(async () => {
    for (const repository of opened.splice(0)) await repository.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function two() {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-other-commits-'));
    const filename = join(dir, 'shared.db');
    const here = await openSqliteRepository({ filename });
    const there = await openSqliteRepository({ filename });
    opened.push(here, there);
    const store = await here.transaction(async (tx) => {
      const created = await tx.upsertStore('default', fixtures.storeSettings());
      await tx.upsertWarehouse(fixtures.warehouse(created.id, 'WH-A'));
      return created;
    });
    const token = await here.transaction((tx) =>
      tx.insertToken(fixtures.token(store.id, 'partner')),
    );
    return { here, there, store, token };
  }

  it('a token revoked by the other while this one reads a snapshot is seen revoked', async () => {
    const { here, there, store, token } = await two();
    expect(await here.findStoreToken(token.hash, 'default')).toEqual(token);
    const snapshot = await here.startReadSnapshot();
    // The snapshot is taken at its first read.
    await snapshot.selectFrom('stores').selectAll().execute();
    await there.transaction((tx) => tx.revokeToken(store.id, 'partner', '2026-02-01 00:00:00'));
    // Asked during the snapshot, answered once it ends: never the token as it was kept.
    const found = here.findStoreToken(token.hash, 'default');
    await snapshot.commit().execute();
    expect(await found).toMatchObject({ revoked_at: '2026-02-01 00:00:00' });
  });

  it('the queue version does not stay while the other writes a queue entry during a snapshot', async () => {
    const { here, there, store } = await two();
    const before = here.queueVersion(store.id);
    expect(before).toBeDefined();
    const snapshot = await here.startReadSnapshot();
    await snapshot.selectFrom('stores').selectAll().execute();
    await there.transaction((tx) => tx.insertOrder(fixtures.order({ store_id: store.id })));
    expect(here.queueVersion(store.id)).not.toBe(before);
    await snapshot.commit().execute();
    const after = here.queueVersion(store.id);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
  });
});
