import { createEngine } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import {
  courierDueQuery,
  expiredSessionsDelete,
  heldOrdersQuery,
  orderCountQuery,
  orderSearchQuery,
} from '@fulfil/storage-kysely';
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../src/index.js';

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
    const compiled = expiredSessionsDelete(repository.db, '2026-01-01 00:00:00').compile();
    const plan = await repository.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    expect(plan.rows.map((row) => row.detail)).toEqual([
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
    const compiled = heldOrdersQuery(repository.db, 1, 100).compile();
    const plan = await repository.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    expect(plan.rows.map((row) => row.detail)).toEqual([
      expect.stringMatching(/^SEARCH fulfillment_orders USING INDEX fulfillment_orders_held/),
    ]);
    await repository.close();
  });
});

describe("the courier loop's due orders", () => {
  it('are found through the partial index of due times, which orders without one stay out of', async () => {
    const repository = await openSqliteRepository(':memory:');
    const compiled = courierDueQuery(repository.db, '2026-01-01 00:00:00', 50).compile();
    const plan = await repository.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    expect(plan.rows.map((row) => row.detail)).toContainEqual(
      expect.stringMatching(/^SEARCH o USING INDEX fulfillment_orders_courier_due/),
    );
    const index = await repository.db.executeQuery<{ sql: string }>(
      CompiledQuery.raw(
        "select sql from sqlite_master where name = 'fulfillment_orders_courier_due'",
      ),
    );
    expect(index.rows[0]?.sql).toMatch(/where "courier_next_attempt_at" is not null$/i);
    await repository.close();
  });
});
