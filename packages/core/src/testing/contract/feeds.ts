import { describe, expect, it } from 'vitest';
import { appendAll } from '../../domain/append-all.js';
import { type ChangePosition, positionAt } from '../../domain/change-cursor.js';
import type { FeedName } from '../../domain/feeds.js';
import type { Store } from '../../domain/types.js';
import type { FeedEntryWrite, FeedPageQuery } from '../../ports/repository.js';
import { skipTest } from '../skip.js';
import type { ContractHarness } from './harness.js';

const FEED: FeedName = 'sales_orders';

/** The repository contract: feeds other than the queues (writeFeedEntries, pollFeed, …). */
export function feedsContract(h: ContractHarness): void {
  const { write, read, seedStore, settledHorizon } = h;

  const entry = (store: Store, id: number, overrides: Partial<FeedEntryWrite> = {}) => ({
    entry_id: id,
    store_id: store.id,
    warehouse_code: null,
    updated_at: '2026-01-15 10:00:00',
    ...overrides,
  });

  const page = (store: Store, overrides: Partial<FeedPageQuery> = {}) =>
    read(async (tx) =>
      (
        await tx.pollFeed({
          store_id: store.id,
          feed: FEED,
          page: 1,
          page_size: 100,
          since: null,
          warehouses: null,
          ...overrides,
        })
      ).map((found) => found.entry_id),
    );

  /** Every entry written after `from`, page by page, as `since` serves them. */
  const changesAfter = (store: Store, from: ChangePosition, warehouses: string[] | null = null) =>
    settledHorizon().then(() =>
      read(async (tx) => {
        const horizon = await tx.changeHorizon();
        const ids: number[] = [];
        let after = from;
        for (;;) {
          const entries = await tx.pollFeedChanges({
            store_id: store.id,
            feed: FEED,
            page_size: 2,
            warehouses,
            after,
          });
          const served = entries.filter((found) => found.change < horizon.horizon);
          appendAll(
            ids,
            served.map((found) => found.entry_id),
          );
          const last = served.at(-1);
          if (served.length < 2 || !last) return { ids, next: positionAt(horizon) };
          after = { ...after, change: last.change, order_id: last.entry_id };
        }
      }),
    );

  const horizonNow = settledHorizon;

  describe('feeds (writeFeedEntries, pollFeed, pollFeedChanges)', () => {
    it('pages a feed by id: page, after, since (updated_at) and the warehouses of a scope', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      await write((tx) =>
        tx.writeFeedEntries(FEED, [
          entry(store, 30, { warehouse_code: 'WH-B' }),
          entry(store, 10, { warehouse_code: 'WH-A', updated_at: '2026-01-16 00:00:00' }),
          entry(store, 20),
          entry(other, 15),
        ]),
      );
      expect(await page(store)).toEqual([10, 20, 30]);
      expect(await page(store, { page_size: 2, page: 2 })).toEqual([30]);
      expect(await page(store, { after: 10 })).toEqual([20, 30]);
      expect(await page(store, { since: '2026-01-16 00:00:00' })).toEqual([10]);
      // A scope sees its warehouses' entries; a store-wide entry (no warehouse) is no scope's.
      expect(await page(store, { warehouses: ['WH-A', 'WH-B'] })).toEqual([10, 30]);
      expect(await page(store, { warehouses: [] })).toEqual([]);
      expect(await page(other)).toEqual([15]);
    });

    it('serves every entry written after a position once, in change order; a rewrite comes again', async () => {
      const store = await seedStore();
      await write((tx) => tx.writeFeedEntries(FEED, [entry(store, 1)]));
      const start = positionAt(await horizonNow());
      await write((tx) => tx.writeFeedEntries(FEED, [entry(store, 3), entry(store, 2)]));
      await write((tx) => tx.writeFeedEntries(FEED, [entry(store, 4, { warehouse_code: 'WH-A' })]));
      const first = await changesAfter(store, start);
      expect(first.ids).toEqual([2, 3, 4]);
      expect((await changesAfter(store, start, ['WH-A'])).ids).toEqual([4]);

      await write((tx) => tx.writeFeedEntries(FEED, [entry(store, 2)]));
      const second = await changesAfter(store, first.next);
      expect(second.ids).toEqual([2]);
      expect((await changesAfter(store, second.next)).ids).toEqual([]);
    });

    it('never serves a rolled-back write; a removed entry is gone from both pages', async () => {
      const store = await seedStore();
      const start = positionAt(await horizonNow());
      await expect(
        write(async (tx) => {
          await tx.writeFeedEntries(FEED, [entry(store, 7)]);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await changesAfter(store, start)).ids).toEqual([]);
      expect(await page(store)).toEqual([]);

      await write((tx) => tx.writeFeedEntries(FEED, [entry(store, 8), entry(store, 9)]));
      await write((tx) => tx.removeFeedEntries(FEED, [8, 99]));
      expect(await page(store)).toEqual([9]);
      expect((await changesAfter(store, start)).ids).toEqual([9]);
    });

    it('tells onQueueChange of a committed feed write', async (context) => {
      const repository = h.repository();
      if (!repository.onQueueChange) {
        skipTest(context, 'this repository has no onQueueChange (optional in the port)');
        return;
      }
      const store = await seedStore();
      const calls: (number | null)[] = [];
      const stop = repository.onQueueChange((storeId) => calls.push(storeId));
      try {
        await write((tx) => tx.writeFeedEntries(FEED, [entry(store, 5)]));
        expect(calls).toContain(store.id);
      } finally {
        stop();
      }
    });
  });
}
