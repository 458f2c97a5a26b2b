import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

describe('kysely repository guards (on sqlite)', () => {
  let repository: SqliteRepository;
  beforeEach(async () => {
    repository = await openSqliteRepository(':memory:');
  });
  afterEach(() => repository.close());

  it('refuses a nested transaction instead of waiting forever for the connection', async () => {
    await expect(
      repository.transaction(() => repository.transaction(async () => 1)),
    ).rejects.toThrow(/never nest/);
    // The outer transaction was rolled back and the repository still works.
    expect(await repository.transaction(async () => 2)).toBe(2);
  });

  it('rejects money that is not an integer of ten-thousandths', async () => {
    const store = await repository.transaction((tx) =>
      tx.upsertStore('s', fixtures.storeSettings()),
    );
    await expect(
      repository.transaction((tx) =>
        tx.insertOrder(fixtures.order({ store_id: store.id, amounts: { grand_total: 10.5 } })),
      ),
    ).rejects.toThrow(/grand_total must be an integer/);
  });

  it('is unusable once closed, and closing twice is harmless', async () => {
    await repository.close();
    await repository.close();
    await expect(repository.transaction(async () => 1)).rejects.toThrow(/closed/);
  });

  it('migrating an already current database applies nothing', async () => {
    const { migrateToLatest } = await import('@fulfil/storage-kysely');
    const { SQLITE_SCHEMA_FLAGS } = await import('@fulfil/storage-sqlite');
    expect(await migrateToLatest(repository.db, SQLITE_SCHEMA_FLAGS)).toEqual([]);
  });
});
