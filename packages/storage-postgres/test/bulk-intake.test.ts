import { randomBytes } from 'node:crypto';
import { createEngine, type Engine } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/** A statement as pg's client was given it: its text, and its name when run as a prepared one. */
interface Sent {
  text: string;
  name: string | undefined;
}

/**
 * What a batch of intake sends to Postgres, counted at the driver: each statement is a round
 * trip, and each distinct text of an unnamed one is parsed and planned by the server every time.
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

    /** Takes in `count` new sales orders as one batch; the inserts it sent. */
    async function intake(first: number, count: number): Promise<Sent[]> {
      const orders = Array.from({ length: count }, (_, i) =>
        fixtures.salesOrder(String(first + i), [{ sku: 'SKU-1', qty: 1 }], {
          warehouse_code: 'WH-A',
        }),
      );
      const sent: Sent[] = [];
      const query = pg.Client.prototype.query;
      const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        const [config] = args as [string | { text?: string; name?: string }];
        if (typeof config === 'string') sent.push({ text: config, name: undefined });
        else if (typeof config?.text === 'string') {
          sent.push({ text: config.text, name: config.name });
        }
        return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
      });
      try {
        const outcomes = await engine.intakeBatch('default', orders);
        expect(outcomes.every((outcome) => outcome.outcome === 'created')).toBe(true);
      } finally {
        spy.mockRestore();
      }
      return sent.filter((statement) => /^insert into/.test(statement.text));
    }

    it('writes each table of a batch with one prepared statement, the same text for any count', async () => {
      const small = await intake(700_000, 3);
      const large = await intake(700_100, 37);
      const named = (sent: Sent[]) =>
        sent
          .filter((statement) => statement.name !== undefined)
          .map((statement) => /^insert into "(\w+)"/.exec(statement.text)?.[1])
          .sort();
      expect(named(small)).toEqual([
        'audit_events',
        'fulfillment_orders',
        'order_items',
        'queue_entries',
        'sales_order_sequences',
      ]);
      // 37 rows a table in the very statements that took 3: nothing is parsed per row count.
      expect(large).toEqual(small);
    });
  });
} else {
  it.skip('intake batches on Postgres: skipped because FULFIL_TEST_POSTGRES_URL is not set', () => {});
}
