import { describe, expect, it } from 'vitest';
import { appendAll } from '../../domain/append-all.js';
import { type ChangePosition, positionAt } from '../../domain/change-cursor.js';
import type { QueueName, Store } from '../../domain/types.js';
import { order } from '../fixtures.js';
import { skipTest } from '../skip.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: keyset paging, the change feed and its notifications. */
export function changeFeedContract(h: ContractHarness): void {
  const { write, read, seedStore, insert, update, pollIds, settledHorizon } = h;

  /** Every entry of the queue after `from`, page by page, as `since` serves them. */
  const changesAfter = (store: Store, queue: QueueName, from: ChangePosition, pageSize = 2) =>
    settledHorizon().then(() =>
      read(async (tx) => {
        const horizon = await tx.changeHorizon();
        const ids: number[] = [];
        let after = from;
        for (;;) {
          const entries = await tx.pollChanges({
            store_id: store.id,
            queue,
            page_size: pageSize,
            warehouses: null,
            after,
          });
          const served = entries.filter((entry) => entry.change < horizon.horizon);
          appendAll(
            ids,
            served.map((entry) => entry.order_id),
          );
          const last = served.at(-1);
          if (served.length < pageSize || !last) return { ids, next: positionAt(horizon) };
          after = { ...after, change: last.change, order_id: last.order_id };
        }
      }),
    );

  const horizonNow = settledHorizon;

  describe('keyset paging (after)', () => {
    it('answers the orders with a greater id, in id order, without an offset', async () => {
      const store = await seedStore();
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await insert({ store_id: store.id })).id);
      const [first, second, third] = ids as [number, number, number];
      expect(await pollIds(store, 'pending_accept', { after: 0, page_size: 2 })).toEqual([
        first,
        second,
      ]);
      expect(await pollIds(store, 'pending_accept', { after: second, page_size: 2 })).toEqual(
        ids.slice(2, 4),
      );
      // `page` is ignored with `after`: the keyset alone decides.
      expect(await pollIds(store, 'pending_accept', { after: third, page: 7 })).toEqual(
        ids.slice(3),
      );
      expect(await pollIds(store, 'pending_accept', { after: ids.at(-1) })).toEqual([]);
    });
  });

  describe('change feed (changeHorizon, pollChanges)', () => {
    it('serves every entry written after a position once, in change order, and no other', async () => {
      const store = await seedStore();
      const before = await insert({ store_id: store.id });
      const start = positionAt(await horizonNow());
      const a = await insert({ store_id: store.id });
      const b = await insert({ store_id: store.id });
      const first = await changesAfter(store, 'pending_accept', start);
      expect(first.ids).toEqual([a.id, b.id]);
      expect(first.ids).not.toContain(before.id);

      // Changing an order moves it after every change before: it is served again, alone.
      await update(a, (o) => ({ ...o, customer_email: 'new@example.com' }));
      const second = await changesAfter(store, 'pending_accept', first.next);
      expect(second.ids).toEqual([a.id]);
      expect((await changesAfter(store, 'pending_accept', second.next)).ids).toEqual([]);
    });

    it('pages through many entries of one transaction by order id', async () => {
      const store = await seedStore();
      const start = positionAt(await horizonNow());
      const stored = await write((tx) =>
        tx.insertOrders(Array.from({ length: 5 }, () => order({ store_id: store.id }))),
      );
      const { ids } = await changesAfter(store, 'pending_accept', start, 2);
      expect(ids).toEqual(stored.map((o) => o.id).sort((x, y) => x - y));
    });

    it('never serves a rolled-back write, and the horizon does not pass a change to come', async () => {
      const store = await seedStore();
      const start = positionAt(await horizonNow());
      await expect(
        write(async (tx) => {
          await tx.insertOrder(order({ store_id: store.id }));
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await changesAfter(store, 'pending_accept', start)).ids).toEqual([]);
      const later = await insert({ store_id: store.id });
      expect((await changesAfter(store, 'pending_accept', start)).ids).toEqual([later.id]);
    });

    it('names its database: the epoch is the same on every read, and a position never passes newest', async () => {
      const store = await seedStore();
      const one = await horizonNow();
      await insert({ store_id: store.id });
      const two = await horizonNow();
      expect(two.epoch).toBe(one.epoch);
      expect(two.horizon).toBeGreaterThanOrEqual(one.horizon);
      expect(two.newest).toBeGreaterThanOrEqual(two.horizon);
    });
  });

  describe('onQueueChange', () => {
    it('tells of a committed write of the store, and not of a rolled-back one first', async (context) => {
      const repository = h.repository();
      if (!repository.onQueueChange) {
        skipTest(context, 'this repository has no onQueueChange (optional in the port)');
      }
      const store = await seedStore();
      const calls: (number | null)[] = [];
      const stop = repository.onQueueChange((storeId) => calls.push(storeId));
      try {
        await expect(
          write(async (tx) => {
            await tx.insertOrder(order({ store_id: store.id }));
            throw new Error('roll back');
          }),
        ).rejects.toThrow('roll back');
        expect(calls).not.toContain(store.id);
        // This process's commit is told before the transaction's promise settles.
        await insert({ store_id: store.id });
        expect(calls).toContain(store.id);
      } finally {
        stop();
      }
    });

    it('tells of a write committed through another connection', async (context) => {
      const repository = h.repository();
      const openAnother = h.openAnother;
      if (!repository.onQueueChange || !openAnother) {
        skipTest(
          context,
          'needs onQueueChange and a second connection to the same database (not an in-memory one)',
        );
      }
      const store = await seedStore();
      const other = await openAnother();
      let calls = 0;
      let called = () => {};
      const stop = repository.onQueueChange((storeId) => {
        if (storeId !== null && storeId !== store.id) return;
        calls++;
        called();
      });
      const call = (n: number) =>
        new Promise<void>((resolve) => {
          called = () => {
            if (calls >= n) resolve();
          };
          called();
        });
      try {
        // The first call says the watching has begun; only the one after it can be the write's.
        await call(1);
        const seen = calls;
        await other.transaction((tx) => tx.insertOrder(order({ store_id: store.id })));
        // Settles only once the listener was called again: a lost wake-up times the test out.
        await call(seen + 1);
      } finally {
        stop();
        await other.close();
      }
    });
  });
}
