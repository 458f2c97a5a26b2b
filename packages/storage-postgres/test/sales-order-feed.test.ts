import { randomBytes } from 'node:crypto';
import { createEngine, type Engine } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository, type PostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldOpen, pollUntilSettled } from './out-of-order.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/**
 * The sales orders feed where it is hard, as the queues' cursor (change-cursor.test.ts): a
 * transaction that moved a sales order first and commits last still reaches a channel whose
 * cursor already saw a later commit.
 */
describe(
  'the sales orders feed on Postgres, under out-of-order commits',
  skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'),
  () => {
    const schema = `fulfil_feed_${process.pid}_${randomBytes(4).toString('hex')}`;
    let repository: PostgresRepository;
    let engine: Engine;

    beforeAll(async () => {
      repository = await openPostgresRepository({ connectionString: url as string, schema });
      engine = createEngine({ repository });
      await engine.loadSeed(fixtures.seed());
      for (const number of ['F-1', 'F-2']) {
        await engine.intake('default', fixtures.salesOrder(number, [{ sku: 'SKU-1', qty: 1 }]));
      }
    });

    afterAll(async () => {
      await engine.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    });

    const operator = () => engine.operator('default');
    const poll = (since: string) => engine.pollSalesOrders(operator(), { since });
    const numbersOf = (documents: readonly string[]) =>
      documents.map(
        (document) => (JSON.parse(document) as { sales_order_number: string }).sales_order_number,
      );

    it('a channel that saw the later commit misses neither', async () => {
      const start = (await engine.pollSalesOrders(operator())).cursor;
      // F-1's fulfillment order changes first (its change taken at its first write) and its
      // transaction stays open...
      const first = heldOpen(repository, async (tx) => {
        const store = await tx.findStore('default');
        const order = await tx.lockOrder(store?.id ?? 0, 'F-1-1');
        if (!order) throw new Error('fixture');
        await tx.saveOrder({ ...order, customer_email: 'first@example.com' });
      });
      await first.written;
      // ...while F-2's commits.
      await repository.transaction(async (tx) => {
        const store = await tx.findStore('default');
        const order = await tx.lockOrder(store?.id ?? 0, 'F-2-1');
        if (!order) throw new Error('fixture');
        await tx.saveOrder({ ...order, customer_email: 'second@example.com' });
      });
      const during = await poll(start);
      first.release();
      await first.done;
      const settled = await pollUntilSettled(poll, during);
      const after = settled.last;
      const seen = numbersOf([...during.documents, ...settled.documents]);
      expect(seen.sort()).toEqual(['F-1', 'F-2']);
      expect(during.pending).toBe(true);
      expect(numbersOf((await poll(after.cursor)).documents)).toEqual([]);
    }, 60_000);
  },
);
