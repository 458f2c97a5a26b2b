import { randomBytes } from 'node:crypto';
import { createEngine, type Engine } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository, type PostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsSentBy } from './sent-statements.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/**
 * What an accept and an intake cost on Postgres, counted at the driver: every statement is a
 * round trip (docs/benchmarks.md, the write path). An accept: BEGIN; the store; the order
 * locked, with the transaction's change id; its items, shipments and invoices; every write as
 * one statement (the queue entry and the feed entry moved, the header, items, stock and audit
 * event: none of them reads its answer); COMMIT.
 */
describe('round trips of the write path on Postgres', () => {
  if (!url) {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
    return;
  }
  const schema = `fulfil_trips_${process.pid}_${randomBytes(4).toString('hex')}`;
  let engine: Engine;
  let repository: PostgresRepository;

  beforeAll(async () => {
    repository = await openPostgresRepository({ connectionString: url, schema });
    engine = createEngine({ repository });
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          warehouses: [{ code: 'WH-A', name: 'A' }],
          stock: [
            { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 },
            { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 100 },
          ],
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

  /**
   * The statements `work` sends, but for the announcements of commits to other processes: those
   * go from a connection of their own once a transaction has committed, several at once.
   */
  const sentBy = async (work: () => Promise<unknown>) =>
    (await statementsSentBy(work)).filter((text) => !text.startsWith('select pg_notify('));

  const intake = (number: string) =>
    engine.intake(
      'default',
      fixtures.salesOrder(number, [
        { sku: 'SKU-1', qty: 1 },
        { sku: 'SKU-2', qty: 1 },
      ]),
    );

  async function accept(number: string): Promise<string[]> {
    await intake(number);
    const order = await engine.getOrder('default', `${number}-1`);
    return sentBy(() =>
      engine.accept(engine.operator('default'), {
        order: {
          order_id: order.fulfillment_order_number,
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
        },
      }),
    );
  }

  it('takes 6, every write in one statement', async () => {
    await accept('810000001'); // statements compiled and column types read once
    const sent = await accept('810000002');
    expect(sent).toHaveLength(6);
    expect(sent[0]).toMatch(/^start transaction/);
    expect(sent[2]).toMatch(/pg_current_xact_id.*for update$/);
    // Announced to other processes after the commit, not by a NOTIFY inside the transaction.
    expect(sent.some((text) => text.includes('pg_notify'))).toBe(false);
    const [writes, ...others] = sent.filter((text) => text.startsWith('with w1 as'));
    expect(others).toEqual([]);
    for (const write of [
      'update "queue_entries"',
      'update "feed_entries"',
      'update "fulfillment_orders"',
      'insert into "audit_events"',
    ]) {
      expect(writes).toContain(write);
    }
    expect(sent.at(-1)).toBe('commit');
  });

  it('an intake takes 14: its queue and feed entries ride with the statements after them', async () => {
    await intake('810000011'); // statements compiled and column types read once
    const sent = await sentBy(() => intake('810000012'));
    expect(sent).toHaveLength(14);
    const carried = sent.filter((text) => text.startsWith('with w1 as'));
    expect(carried).toEqual([
      expect.stringMatching(
        /^with w1 as \(insert into "queue_entries".*\) insert into "sales_orders"/,
      ),
      expect.stringMatching(
        /^with w1 as \(insert into "feed_entries".*\) select .* from "stock" .*for update$/,
      ),
      expect.stringMatching(/^with w1 as \(insert into "stock"/),
    ]);
    expect(sent.some((text) => text.includes('pg_notify'))).toBe(false);
    expect(sent.at(-1)).toBe('commit');
  });

  it('writes the queue entry and the feed entry of an order that had neither', async () => {
    await engine.intake('default', fixtures.salesOrder('810000003', [{ sku: 'SKU-1', qty: 1 }]));
    const order = await engine.getOrder('default', '810000003-1');
    const salesOrder = repository.db
      .selectFrom('sales_orders')
      .select('id')
      .where('sales_order_number', '=', '810000003');
    await repository.writeTransaction(async (trx) => {
      const gone = await trx
        .deleteFrom('queue_entries')
        .where('order_id', '=', order.id)
        .where('queue', '=', 'pending_accept')
        .executeTakeFirst();
      expect(gone.numDeletedRows).toBe(1n);
      await trx
        .deleteFrom('feed_entries')
        .where('feed', '=', 'sales_orders')
        .where('entry_id', '=', salesOrder)
        .execute();
    });
    await engine.accept(engine.operator('default'), {
      order: {
        order_id: order.fulfillment_order_number,
        items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
      },
    });
    const queued = await repository.db
      .selectFrom('queue_entries')
      .select('queue')
      .where('order_id', '=', order.id)
      .execute();
    expect(queued).toEqual([{ queue: 'pending_allocation' }]);
    const entries = await repository.db
      .selectFrom('feed_entries')
      .select('change_id')
      .where('feed', '=', 'sales_orders')
      .where('entry_id', '=', salesOrder)
      .execute();
    expect(entries).toHaveLength(1);
  });
});
