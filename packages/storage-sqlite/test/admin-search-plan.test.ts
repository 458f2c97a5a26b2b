import { createEngine, deadlineClockOf, type OrderFilter, type OrderSearch } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import {
  courierDueQuery,
  expiredSessionsDelete,
  heldOrdersQuery,
  lateShipmentsQuery,
  orderCountQuery,
  orderSearchQuery,
} from '@fulfil/storage-kysely';
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { explainStatement } from '../src/explain-poll-query.js';
import { openSqliteRepository, type SqliteRepository } from '../src/index.js';

/** The index's definition as SQLite keeps it. */
async function indexSql(repository: SqliteRepository, name: string): Promise<string | undefined> {
  const index = await repository.db.executeQuery<{ sql: string }>(
    CompiledQuery.raw('select sql from sqlite_master where name = ?', [name]),
  );
  return index.rows[0]?.sql;
}

/**
 * The order search's two ways of filtering by sku, and by a text prefix, (admin-queries.ts: a list of the sku's orders,
 * or a check per order for a common sku) select the same orders in the same order.
 */
describe('the sku filter', () => {
  it('selects the same orders whichever plan runs it', async () => {
    const repository = await openSqliteRepository(':memory:');
    const engine = createEngine({ repository });
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          warehouses: [{ code: 'WH-A', name: 'A' }],
          orders: Array.from({ length: 40 }, (_, i) =>
            fixtures.salesOrder(String(100 + i), [
              { sku: i % 3 === 0 ? 'RARE' : 'COMMON', qty: 1 },
              { sku: 'COMMON', qty: 1, name: 'again' },
            ]),
          ),
        },
      ],
    });
    const storeId = (await engine.getStore('default')).id;
    for (const sku of ['RARE', 'COMMON', 'NONE']) {
      const ids = async (commonSku: boolean) => {
        const rows = await orderSearchQuery(
          repository.db,
          { sku, store_id: storeId, limit: 100 },
          { commonSku },
        ).execute();
        const count = await orderCountQuery(repository.db, storeId, { sku }, 1000, {
          commonSku,
        }).executeTakeFirst();
        return { ids: rows.map((row) => row.id), count: Number(count?.n) };
      };
      const [list, check] = [await ids(false), await ids(true)];
      expect(check, sku).toEqual(list);
      expect(list.ids.length, sku).toBe(sku === 'RARE' ? 14 : sku === 'COMMON' ? 40 : 0);
      expect(list.count).toBe(list.ids.length);
      expect([...list.ids].sort((a, b) => b - a)).toEqual(list.ids);
    }
    // The text prefix: read through the name indexes, or tested per order when common.
    for (const q of ['ada', 'LOVE', 'ada@', '110', '110-1', 'nobody']) {
      const ids = async (commonPrefix: boolean) =>
        (
          await orderSearchQuery(
            repository.db,
            { q, store_id: storeId, limit: 100 },
            { commonPrefix },
          ).execute()
        ).map((row) => row.id);
      expect(await ids(true), q).toEqual(await ids(false));
    }
    expect(
      (
        await orderSearchQuery(repository.db, {
          q: 'LOVE',
          store_id: storeId,
          limit: 100,
        }).execute()
      ).length,
    ).toBe(40);
    await engine.close();
  });
});

describe('deleting expired sessions', () => {
  it('seeks the expired rows by the expiry index, never scans the sessions', async () => {
    const repository = await openSqliteRepository(':memory:');
    expect(
      await explainStatement(
        repository,
        expiredSessionsDelete(repository.db, '2026-01-01 00:00:00').compile(),
      ),
    ).toEqual([
      expect.stringMatching(
        /^SEARCH operator_sessions USING (COVERING )?INDEX operator_sessions_expires/,
      ),
    ]);
    await repository.close();
  });
});

describe('the list of open holds', () => {
  it("reads the store's held orders through the partial index, never scans the orders", async () => {
    const repository = await openSqliteRepository(':memory:');
    expect(
      await explainStatement(repository, heldOrdersQuery(repository.db, 1, 100).compile()),
    ).toEqual([
      expect.stringMatching(/^SEARCH fulfillment_orders USING INDEX fulfillment_orders_held/),
    ]);
    await repository.close();
  });
});

describe("the courier loop's due orders", () => {
  it('are found through the partial index of due times, which orders without one stay out of', async () => {
    const repository = await openSqliteRepository(':memory:');
    expect(
      await explainStatement(
        repository,
        courierDueQuery(repository.db, '2026-01-01 00:00:00', 50).compile(),
      ),
    ).toContainEqual(expect.stringMatching(/^SEARCH o USING INDEX fulfillment_orders_courier_due/));
    expect(await indexSql(repository, 'fulfillment_orders_courier_due')).toMatch(
      /where "courier_next_attempt_at" is not null$/i,
    );
    await repository.close();
  });
});

describe("the metrics' late shipments", () => {
  it('read the shipped orders through the partial index of shipped_at, which intake writes nothing to', async () => {
    const repository = await openSqliteRepository(':memory:');
    expect(
      await explainStatement(
        repository,
        lateShipmentsQuery(repository.db, '2026-01-01 00:00:00').compile(),
      ),
    ).toContainEqual(
      expect.stringMatching(
        /^SEARCH fulfillment_orders USING INDEX fulfillment_orders_shipped_at \(shipped_at>\?\)/,
      ),
    );
    expect(await indexSql(repository, 'fulfillment_orders_shipped_at')).toMatch(
      /where "shipped_at" is not null$/i,
    );
    await repository.close();
  });
});

describe('the search by deadline', () => {
  it('reads each deadline filter and the sort from an index in the order of the page', async () => {
    const repository = await openSqliteRepository(':memory:');
    const clock = deadlineClockOf({}, '2026-07-01 12:00:00');
    const expected: [Partial<OrderSearch>, RegExp][] = [
      [
        { sort: 'fulfill_by' },
        /USING (COVERING )?INDEX fulfillment_orders_fulfill_by \(store_id=\?\)/,
      ],
      [{ deadline: 'overdue' }, /USING (COVERING )?INDEX fulfillment_orders_open_by_deadline/],
      [{ deadline: 'at_risk' }, /USING (COVERING )?INDEX fulfillment_orders_open_by_deadline/],
      [{ deadline: 'on_track' }, /USING (COVERING )?INDEX fulfillment_orders_open_by_deadline/],
      [
        { deadline: 'met' },
        /USING (COVERING )?INDEX fulfillment_orders_shipped_by_deadline \(store_id=\? AND <expr>=\?\)/,
      ],
      [
        { deadline: 'missed' },
        /USING (COVERING )?INDEX fulfillment_orders_shipped_by_deadline \(store_id=\? AND <expr>=\?\)/,
      ],
    ];
    for (const [search, index] of expected) {
      const filter = search.deadline ? { ...search, deadline_clock: clock } : search;
      const page = await explainStatement(
        repository,
        orderSearchQuery(repository.db, { ...filter, store_id: 1, limit: 51 }).compile(),
      );
      expect(page, JSON.stringify(search)).toContainEqual(expect.stringMatching(index));
      // No sort of what the index read: the page stops when it is full.
      if (
        search.deadline !== 'overdue' &&
        search.deadline !== 'at_risk' &&
        search.deadline !== 'on_track'
      )
        expect(page.join(' | '), JSON.stringify(search)).not.toMatch(/TEMP B-TREE/);
      if (!search.deadline) continue;
      const count = await explainStatement(
        repository,
        orderCountQuery(repository.db, 1, filter as OrderFilter, 10_001).compile(),
      );
      expect(count, `count ${JSON.stringify(search)}`).toContainEqual(expect.stringMatching(index));
    }
    await repository.close();
  });
});
