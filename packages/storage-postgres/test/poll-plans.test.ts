import { createEngine, type Engine, type PollQuery } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { explainPollQuery, type PostgresRepository } from '@fulfil/storage-postgres';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, openOnOneConnection } from './one-connection.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;
const SECRET = 'poll-plans-secret-0123456789abcdef';
const WAREHOUSES = ['WH-A', 'WH-B', 'WH-C'] as const;

/** What {@link storesOfSizes} opens, once its `beforeAll` has run. */
interface Opened {
  engine: Engine;
  repository: PostgresRepository;
  storeIds: number[];
}

/**
 * An engine over one connection of a fresh schema whose stores hold `orders` orders each in
 * pending_accept, a smaller store's spread evenly among a larger one's ids; then statistics
 * and a visibility map, as a database that has run a while has them. Dropped after the block.
 */
function storesOfSizes(orders: Record<string, number>): Opened {
  const opened = {} as Opened;
  let schema: string | undefined;
  beforeAll(async () => {
    const { repository, schema: created } = await openOnOneConnection(
      url as string,
      'fulfil_plans',
    );
    schema = created;
    const engine = createEngine({ repository });
    Object.assign(opened, { engine, repository });
    const codes = Object.keys(orders);
    await engine.loadSeed({
      stores: codes.map((code) => ({
        code,
        warehouses: WAREHOUSES.map((warehouse) => ({ code: warehouse, name: warehouse })),
        tokens: [{ name: 'partner', token: `${code}-${SECRET}`, acl: 'partner' }],
      })),
    });
    opened.storeIds = await Promise.all(
      codes.map(async (code) => (await engine.getStore(code)).id),
    );
    const most = Math.max(...Object.values(orders));
    await repository.transaction(async (tx) => {
      for (let index = 0; index < most; index++) {
        for (const [at, code] of codes.entries()) {
          if (index % (most / (orders[code] as number)) !== 0) continue;
          const order = fixtures.order({
            store_id: opened.storeIds[at] as number,
            warehouse_code: WAREHOUSES[index % WAREHOUSES.length],
          });
          await tx.insertOrder(order);
        }
      }
    });
    await sql`vacuum analyze queue_entries`.execute(repository.db);
  }, 120_000);
  afterAll(async () => {
    await opened.engine?.close();
    if (schema) await dropSchema(url as string, schema);
  });
  return opened;
}

/**
 * A poll statement is planned once per connection, not on every run, and the plan a connection
 * keeps seeks the page in the poll indexes, in id order, whatever store, page, date or scope is
 * asked: never the primary key's id order across every store.
 */
describe('poll statement plans on Postgres', () => {
  if (!url) {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
    return;
  }

  describe('one store, polled from the front of its queue', () => {
    const db = storesOfSizes({ solo: 2_000 });

    it('plans the versions statement at most five times per connection, then keeps one plan', async () => {
      // Values for which a plan of their own looks cheaper than one plan for all: Postgres
      // would plan every run afresh if it could see them.
      const partner = await db.engine.authenticate('solo', `solo-${SECRET}`);
      const queries = [
        {},
        { after: '0' },
        { date: '2020-01-01 00:00:00' },
        { page: '2' },
        { after: '3' },
        { page: '1', date: '2020-01-01 00:00:00' },
      ];
      for (let round = 0; round < 8; round++) {
        for (const query of queries) await db.engine.pollPage(partner, 'pending_accept', query);
      }
      const { rows } = await sql<{ statement: string; generic: number; custom: number }>`
        select statement, generic_plans::int as generic, custom_plans::int as custom
          from pg_prepared_statements where statement like '%pg_snapshot_xmin%'`.execute(
        db.repository.db,
      );
      // Paged by number, by id, by date (with a page number or not): 16 runs of each.
      expect(rows.map((row) => row.generic + row.custom)).toEqual([16, 16, 16]);
      for (const row of rows) expect(row.custom, row.statement).toBeLessThanOrEqual(5);
    });
  });

  describe('a small store beside a large one', () => {
    const db = storesOfSizes({ large: 2_000, small: 40 });

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

    /**
     * Every poll statement's plan, for every shape of poll of each store: an index seek on
     * (store, queue), rows in id order as the index holds them. With `covered`, the page's
     * versions come from the poll index alone.
     */
    async function expectPlansSeekThePollIndexes(covered: boolean): Promise<void> {
      for (const storeId of db.storeIds) {
        for (const [name, query] of Object.entries(pollsOf(storeId))) {
          const [versions, documents] = await explainPollQuery(db.repository, query);
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
      // In a transaction: the repository's connections declare their writer generation there.
      await db.repository.db
        .transaction()
        .execute((trx) => sql`update queue_entries set updated_at = updated_at`.execute(trx));
      await sql`analyze queue_entries`.execute(db.repository.db);
      await expectPlansSeekThePollIndexes(false);
    });
  });
});
