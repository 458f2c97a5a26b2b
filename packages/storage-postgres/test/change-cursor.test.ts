import { randomBytes } from 'node:crypto';
import { createEngine, type Engine, type FulfillmentOrder } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository, type PostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldOpen, pollUntilSettled } from './out-of-order.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/**
 * The change cursor (docs/polling.md) where it is hard: on Postgres, transactions take their
 * change (their transaction id) when they first write and may commit in any order. A transaction
 * that began writing first and commits last must still reach a poller whose cursor has already
 * moved past the one that committed before it.
 */
if (url) {
  describe('the change cursor on Postgres, under out-of-order commits', () => {
    const schema = `fulfil_cursor_${process.pid}_${randomBytes(4).toString('hex')}`;
    let repository: PostgresRepository;
    let engine: Engine;
    let storeId: number;

    beforeAll(async () => {
      repository = await openPostgresRepository({ connectionString: url, schema });
      engine = createEngine({ repository });
      await engine.loadSeed({
        stores: [{ code: 'default', warehouses: [{ code: 'WH-A', name: 'A' }] }],
      });
      storeId = (await engine.getStore('default')).id;
    });

    afterAll(async () => {
      await engine.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    });

    const poll = (since: string) =>
      engine.pollPage(engine.operator('default'), 'pending_accept', { since });
    const idsOf = (documents: readonly string[]) =>
      documents.map((document) => (JSON.parse(document) as { id: number }).id);

    it('a poller that saw the later commit misses neither', async () => {
      const start = (await engine.pollPage(engine.operator('default'), 'pending_accept')).cursor;

      // The first transaction writes (taking the older change) and stays open...
      const first = heldOpen(repository, (tx) =>
        tx.insertOrder(fixtures.order({ store_id: storeId })),
      );
      await first.written;
      // ...while a second one writes and commits.
      const second: FulfillmentOrder = await repository.transaction((tx) =>
        tx.insertOrder(fixtures.order({ store_id: storeId })),
      );

      // The poller sees the second commit: it must not move its cursor past the first's change.
      const during = await poll(start);

      first.release();
      const late = await first.done;
      const settled = await pollUntilSettled(poll, during);
      const after = settled.last;
      const seen = idsOf([...during.documents, ...settled.documents]);
      expect(seen).toContain(late.id);
      expect(seen).toContain(second.id);
      expect(new Set(seen).size).toBe(seen.length);
      // The second change waited for the first: it was held back, not served ahead of it.
      expect(during.pending).toBe(true);
      expect(after.pending).toBe(false);
      expect(idsOf((await poll(after.cursor)).documents)).toEqual([]);
    }, 60_000);
  });
} else {
  it('change cursor on Postgres', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
}
