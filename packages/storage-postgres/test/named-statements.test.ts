import { createEngine, type Engine } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { dropSchema, openOnOneConnection } from './one-connection.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;
const SECRET = 'named-statements-secret-0123456789abcdef';

/**
 * The hot statements run as named prepared statements (named-statements.ts): prepared once per
 * connection, and prepared again, without a failed request, when a migration changes the
 * columns a statement reads.
 */
describe('named prepared statements on Postgres', () => {
  if (!url) {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
    return;
  }
  const opened: { engine: Engine; schema: string }[] = [];

  afterEach(async () => {
    for (const { engine, schema } of opened.splice(0)) {
      await engine.close();
      await dropSchema(url as string, schema);
    }
  });

  /** An engine over one pooled connection, so that its session's statements can be listed. */
  async function open(preparedStatements?: boolean) {
    const { repository, schema } = await openOnOneConnection(
      url as string,
      'fulfil_named',
      preparedStatements === undefined ? {} : { preparedStatements },
    );
    const engine = createEngine({ repository });
    opened.push({ engine, schema });
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          warehouses: [{ code: 'WH-A', name: 'A' }],
          tokens: [{ name: 'partner', token: SECRET, acl: 'partner' }],
        },
      ],
    });
    const prepared = async () =>
      (
        await sql<{ name: string }>`select name from pg_prepared_statements`.execute(repository.db)
      ).rows
        .map((row) => row.name)
        .filter((name) => name.startsWith('fulfil_'));
    const poll = async () => {
      const principal = await engine.authenticate('default', SECRET);
      return engine.pollPage(principal, 'pending_accept', {});
    };
    return { repository, engine, schema, prepared, poll };
  }

  it('prepares a poll’s statements once on the connection, and runs them again by name', async () => {
    const { prepared, poll } = await open();
    await poll();
    const first = await prepared();
    // The token with its store, and the page of the queue.
    expect(first.length).toBeGreaterThanOrEqual(2);
    await poll();
    await poll();
    expect(await prepared()).toEqual(first);
  });

  it('keeps the inserts of an intake and its change id prepared: one text whatever the count', async () => {
    const { engine, repository } = await open();
    const texts = async () =>
      (
        await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements where name like 'fulfil_%'`.execute(
          repository.db,
        )
      ).rows.map((row) => row.statement);
    const intake = async (first: number, count: number) => {
      const orders = Array.from({ length: count }, (_, i) =>
        fixtures.salesOrder(String(first + i), [{ sku: 'SKU-1', qty: 1 }], {
          warehouse_code: 'WH-A',
        }),
      );
      const outcomes = await engine.intakeBatch('default', orders);
      expect(outcomes.every((outcome) => outcome.outcome === 'created')).toBe(true);
    };
    const inserts = async () =>
      (await texts()).filter((text) =>
        /^insert into "(fulfillment_orders|order_items|sales_order_sequences)"/.test(text),
      );
    await intake(810_000, 1);
    const kept = await inserts();
    expect(kept.map((text) => /^insert into "(\w+)"/.exec(text)?.[1]).sort()).toEqual([
      'fulfillment_orders',
      'order_items',
      'sales_order_sequences',
    ]);
    expect(await texts()).toContain('select pg_current_xact_id()::text::bigint as id');
    // A batch of more orders runs the very statements the first one prepared.
    await intake(820_000, 5);
    expect((await inserts()).sort()).toEqual([...kept].sort());
  });

  it('prepares none with preparedStatements: false', async () => {
    const { prepared, poll } = await open(false);
    await poll();
    expect(await prepared()).toEqual([]);
  });

  it('answers on after a migration adds a column to a table a prepared statement reads', async () => {
    const { prepared, poll, schema } = await open();
    await poll();
    const before = await prepared();
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query(`alter table "${schema}".tokens add column added_later integer`);
    } finally {
      await other.end();
    }
    // Without preparing afresh, Postgres refuses: cached plan must not change result type.
    const page = await poll();
    expect(page.documents).toEqual([]);
    const after = await prepared();
    expect(after.filter((name) => !before.includes(name)).length).toBeGreaterThan(0);
  });
});
