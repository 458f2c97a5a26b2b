import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACTIVE_QUEUES, createEngine, presentOrder, type QueueName } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { FulfilMigrationProvider, MIGRATION_TABLE } from '@fulfil/storage-kysely';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRepository, SQLITE_SCHEMA_FLAGS, type SqliteRepository } from '../src/index.js';

const QUEUES: QueueName[] = [...ACTIVE_QUEUES, 'failed'];

/** Every queue's stored documents next to its orders presented afresh. */
async function documentsAndFresh(repository: SqliteRepository, storeId: number) {
  return repository.transaction(async (tx) => {
    const pairs: { stored: string[]; fresh: string[] }[] = [];
    for (const queue of QUEUES) {
      const query = {
        store_id: storeId,
        queue,
        page: 1,
        page_size: 100,
        since: null,
        warehouses: null,
      };
      pairs.push({
        stored: await tx.pollDocuments(query),
        fresh: (await tx.pollQueue(query)).map((order) =>
          JSON.stringify(presentOrder(order, { queue })),
        ),
      });
    }
    return pairs;
  }, 'read');
}

describe('read model migration (0002)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-read-model-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('builds the documents of the orders a database held before it', async () => {
    const file = join(dir, 'fulfil.db');
    let repository = await openSqliteRepository(file);
    const engine = createEngine({ repository });
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          settings: { partial_items: true },
          warehouses: [{ code: 'WH-A', name: 'A' }],
          stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 }],
          orders: Array.from({ length: 620 }, (_, i) =>
            fixtures.salesOrder(String(5000 + i), [
              { sku: 'SKU-1', qty: 1 },
              { sku: 'SKU-1', qty: 2, name: 'Second line' },
            ]),
          ),
        },
      ],
    });
    const first = await engine.getOrder('default', '5000-1');
    const [line] = first.items;
    await engine.accept(engine.operator('default'), {
      order: { order_id: '5000-1', items: [{ item_id: line?.id as number, qty: 1 }] },
    });
    await engine.failOrder('default', '5001-1', 'flooded');
    const { id: storeId } = await engine.getStore('default');
    const expected = await documentsAndFresh(repository, storeId);

    // Back to the schema before the read model, with every order still in its queues.
    // Later migrations are undone too (newest first): they must apply after 0002 again.
    const migrations = await new FulfilMigrationProvider(SQLITE_SCHEMA_FLAGS).getMigrations();
    for (const name of Object.keys(migrations).sort().reverse()) {
      if (name > '0002_queue_documents') await migrations[name]?.down?.(repository.db);
    }
    await sql`alter table queue_entries drop column document`.execute(repository.db);
    await sql`delete from ${sql.table(MIGRATION_TABLE)} where name >= '0002'`.execute(
      repository.db,
    );
    await repository.close();

    repository = await openSqliteRepository(file);
    try {
      const rebuilt = await documentsAndFresh(repository, storeId);
      expect(rebuilt).toEqual(expected);
      for (const { stored, fresh } of rebuilt) expect(stored).toEqual(fresh);
      expect(rebuilt.map(({ stored }) => stored.length)).toEqual([100, 1, 0, 0, 1]);
      const missing = await sql<{ n: number }>`
        select count(*) as n from queue_entries where document is null`.execute(repository.db);
      expect(missing.rows[0]?.n).toBe(0);
    } finally {
      await repository.close();
    }
  });
});
