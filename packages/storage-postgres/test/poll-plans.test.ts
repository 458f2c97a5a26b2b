import { createEngine, type Engine, type PollQuery, type Principal } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { explainPollQuery, type PostgresRepository } from '@fulfil/storage-postgres';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, openOnOneConnection } from './one-connection.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;
const SECRET = 'poll-plans-secret-0123456789abcdef';
const STORES = ['north', 'south'] as const;
const WAREHOUSES = ['WH-A', 'WH-B', 'WH-C'] as const;
/** Orders a store holds in pending_accept: pages enough that a plan shows what it costs. */
const ORDERS_PER_STORE = 1_200;

/**
 * A poll statement is planned once per connection, not on every run, and the plan a connection
 * keeps seeks the page in the poll indexes, in id order, whatever store, page, date or scope is
 * asked: never the primary key's id order across every store.
 */
describe('poll statement plans on Postgres', () => {
  if (!url) {
    it.skip('skipped because FULFIL_TEST_POSTGRES_URL is not set', () => {});
    return;
  }
  let schema: string;
  let repository: PostgresRepository;
  let engine: Engine;
  let storeIds: number[];

  beforeAll(async () => {
    // One connection: every statement the polls run is prepared on it, where it can be counted.
    ({ repository, schema } = await openOnOneConnection(url, 'fulfil_plans'));
    engine = createEngine({ repository });
    await engine.loadSeed({
      stores: STORES.map((code) => ({
        code,
        warehouses: WAREHOUSES.map((warehouse) => ({ code: warehouse, name: warehouse })),
        tokens: [{ name: 'partner', token: `${code}-${SECRET}`, acl: 'partner' }],
      })),
    });
    storeIds = await Promise.all(STORES.map(async (code) => (await engine.getStore(code)).id));
    await repository.transaction(async (tx) => {
      for (let index = 0; index < ORDERS_PER_STORE; index++) {
        for (const storeId of storeIds) {
          const warehouse = WAREHOUSES[index % WAREHOUSES.length];
          await tx.insertOrder(fixtures.order({ store_id: storeId, warehouse_code: warehouse }));
        }
      }
    });
    // Statistics and a visibility map, as a database that has run a while has them: the plans
    // below are the ones such a database makes.
    await sql`vacuum analyze queue_entries`.execute(repository.db);
  }, 120_000);

  afterAll(async () => {
    await engine?.close();
    if (schema) await dropSchema(url, schema);
  });

  /** A poll of each shape: by number, by id, by date, scoped to warehouses. */
  const pollsOf = (storeId: number): Record<string, PollQuery> => {
    const base: PollQuery = {
      store_id: storeId,
      queue: 'pending_accept',
      page: 1,
      page_size: 100,
      since: null,
      warehouses: null,
      after: null,
    };
    return {
      'page 1': base,
      'a later page': { ...base, page: 7 },
      'after an id': { ...base, after: 400 },
      'since a date': { ...base, since: '2020-01-01 00:00:00' },
      'one warehouse': { ...base, warehouses: ['WH-B'] },
      'two warehouses, after an id': { ...base, warehouses: ['WH-A', 'WH-C'], after: 300 },
    };
  };

  it('plans the versions statement at most five times per connection, then keeps one plan', async () => {
    const principals: Principal[] = await Promise.all(
      STORES.map((code) => engine.authenticate(code, `${code}-${SECRET}`)),
    );
    const queries = [
      {},
      { page: '2' },
      { after: '17' },
      { after: '250' },
      { date: '2020-01-01 00:00:00' },
      { page: '3', date: '2020-01-01 00:00:00' },
    ];
    for (let round = 0; round < 4; round++) {
      for (const principal of principals) {
        for (const query of queries) await engine.pollPage(principal, 'pending_accept', query);
      }
    }
    const { rows } = await sql<{ statement: string; generic: number; custom: number }>`
      select statement, generic_plans::int as generic, custom_plans::int as custom
        from pg_prepared_statements where statement like '%pg_snapshot_xmin%'`.execute(
      repository.db,
    );
    // Paged by number, by id, by date (with a page number or not): 16 runs of each.
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.custom, row.statement).toBeLessThanOrEqual(5);
      expect(row.generic, row.statement).toBeGreaterThanOrEqual(3);
    }
    expect(rows.map((row) => row.generic + row.custom)).toEqual([16, 16, 16]);
  });

  /**
   * Every poll statement's plan, for every shape of poll of each store: an index seek on
   * (store, queue), rows in id order as the index holds them. With `covered`, the page's
   * versions come from the poll index alone.
   */
  async function expectPlansSeekThePollIndexes(covered: boolean): Promise<void> {
    for (const storeId of storeIds) {
      for (const [name, query] of Object.entries(pollsOf(storeId))) {
        const [versions, documents] = await explainPollQuery(repository, query);
        for (const statement of [versions, documents]) {
          const plan = statement?.plan.join('\n') ?? '';
          const shown = `${name}: ${statement?.sql}\n${plan}`;
          expect(plan, shown).toMatch(
            /Index (Only )?Scan using queue_entries_poll\w* on queue_entries[^\n]*\n\s+Index Cond: \(\(ROW\(store_id, queue/,
          );
          expect(plan, shown).not.toMatch(/\bSort\b|Seq Scan on queue_entries|queue_entries_pk/);
        }
        if (covered && query.warehouses === null) {
          const plan = versions?.plan.join('\n') ?? '';
          expect(plan, `${name}: ${versions?.sql}\n${plan}`).toMatch(
            /Index Only Scan using queue_entries_poll on queue_entries/,
          );
        }
      }
    }
  }

  it('seeks every page in the poll indexes, the versions in the poll index alone', async () => {
    await expectPlansSeekThePollIndexes(true);
  });

  it('keeps those plans while entries change faster than vacuum catches up', async () => {
    // Rewritten entries leave pages that are not all-visible: an index-only scan must visit
    // the table for them, which makes other indexes look as cheap as the poll index.
    await sql`update queue_entries set updated_at = updated_at`.execute(repository.db);
    await sql`analyze queue_entries`.execute(repository.db);
    await expectPlansSeekThePollIndexes(false);
  });
});
