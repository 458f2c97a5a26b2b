import { randomBytes } from 'node:crypto';
import { createEngine, type Engine } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsSentBy } from './sent-statements.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/**
 * What a batch of intake sends to Postgres, counted at the driver: each statement is a round
 * trip, and the server parses and plans each one it is sent.
 */
if (url) {
  describe('intake batches on Postgres', () => {
    const schema = `fulfil_bulk_${process.pid}_${randomBytes(4).toString('hex')}`;
    let engine: Engine;

    beforeAll(async () => {
      engine = createEngine({
        repository: await openPostgresRepository({ connectionString: url, schema }),
      });
      await engine.loadSeed({
        stores: [
          {
            code: 'default',
            warehouses: [{ code: 'WH-A', name: 'A' }],
            stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1000 }],
          },
        ],
      });
    });

    afterAll(async () => {
      await engine.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    });

    /** Takes in `count` new sales orders as one batch; the texts of the inserts it sent. */
    async function intake(first: number, count: number): Promise<string[]> {
      const orders = Array.from({ length: count }, (_, i) =>
        fixtures.salesOrder(String(first + i), [{ sku: 'SKU-1', qty: 1 }], {
          warehouse_code: 'WH-A',
        }),
      );
      const sent = await statementsSentBy(async () => {
        const outcomes = await engine.intakeBatch('default', orders);
        expect(outcomes.every((outcome) => outcome.outcome === 'created')).toBe(true);
      });
      // Writes nobody reads the answer of go together, as clauses of one statement.
      return sent.filter((text) => /^(insert into|with w1 as \(insert into)/.test(text));
    }

    it('writes each table of a batch with one statement, the same text for any count', async () => {
      // The first batch reads each table's column types once; the batches after it are alike.
      await intake(699_000, 1);
      const small = await intake(700_000, 3);
      const large = await intake(700_100, 37);
      const tables = small
        .flatMap((text) => [...text.matchAll(/(?:^|\(|\) )insert into "(\w+)"/g)].map((m) => m[1]))
        .sort();
      expect(tables).toEqual([
        'audit_events',
        'feed_entries',
        'fulfillment_orders',
        'order_items',
        'queue_entries',
        'sales_order_sequences',
        'sales_orders',
        // Every line reserves its qty where it was routed, all in one upsert.
        'stock',
      ]);
      // 37 rows a table in the very statements that took 3: nothing is parsed per row count.
      expect(large).toEqual(small);
    });
  });
} else {
  it(
    'intake batches on Postgres',
    skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'),
    () => {},
  );
}
