import { describe, expect, it } from 'vitest';
import type { Store } from '../../domain/types.js';
import type { RepositoryTx } from '../../ports/repository.js';
import { FIXTURE_TIME, order, storeSettings, token, warehouse } from '../fixtures.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: change stamp. */
export function changeStampContract(h: ContractHarness): void {
  const { write, read, seedStore } = h;

  describe('changeStamp', () => {
    /** Every kind of write the port offers, each as its own committed transaction. */
    const writesOfEveryKind = (
      store: Store,
    ): [string, (tx: RepositoryTx) => Promise<unknown>][] => [
      ['upsertStore', (tx) => tx.upsertStore('default', storeSettings({ reroute: false }))],
      ['upsertWarehouse', (tx) => tx.upsertWarehouse(warehouse(store.id, 'WH-D'))],
      [
        'setOnHand',
        (tx) => tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 5 }]),
      ],
      [
        'addMissingStock',
        (tx) => tx.addMissingStock(store.id, [{ warehouse_code: 'WH-B', sku: 'SKU-9', qty: 1 }]),
      ],
      [
        'adjustStock',
        (tx) =>
          tx.adjustStock(store.id, [
            { warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: -1, reserved: 1 },
          ]),
      ],
      ['insertToken', (tx) => tx.insertToken(token(store.id, 'partner'))],
      ['revokeToken', (tx) => tx.revokeToken(store.id, 'partner', FIXTURE_TIME)],
      ['insertOrder', (tx) => tx.insertOrder(order({ store_id: store.id }))],
      ['insertOrders', (tx) => tx.insertOrders([order({ store_id: store.id })])],
      [
        'saveOrder',
        async (tx) => {
          const [first] = await tx.pollQueue({
            store_id: store.id,
            queue: 'pending_accept',
            page: 1,
            page_size: 1,
            since: null,
            warehouses: null,
          });
          const locked = first && (await tx.lockOrderById(first.id));
          if (!locked) throw new Error('fixture: no order to save');
          const items = locked.items.map((i) => ({ ...i, status: 'rejected' as const }));
          return tx.saveOrder({ ...locked, items, status: 'rejected' });
        },
      ],
      ['nextFulfillmentSequence', (tx) => tx.nextFulfillmentSequence(store.id, 'S-1')],
      [
        'appendAudit',
        async (tx) => {
          const stored = await tx.insertOrder(order({ store_id: store.id }));
          await tx.appendAudit([
            { order_id: stored.id, at: FIXTURE_TIME, actor: 'x', action: 'y', details: {} },
          ]);
        },
      ],
    ];

    it('differs after each kind of committed write, and never comes back', async () => {
      const store = await seedStore();
      const seen = [await h.repository().changeStamp()];
      for (const [kind, work] of writesOfEveryKind(store)) {
        await write(work);
        const stamp = await h.repository().changeStamp();
        expect(seen, `after ${kind}`).not.toContain(stamp);
        seen.push(stamp);
      }
    });

    it('differs after a write committed through another connection', async (context) => {
      const other = await h.anotherOrSkip(context);
      if (!other) return;
      try {
        const store = await seedStore();
        const seen = [await h.repository().changeStamp()];
        for (const [kind, work] of writesOfEveryKind(store)) {
          await other.transaction(work);
          const stamp = await h.repository().changeStamp();
          expect(seen, `after ${kind} by the other connection`).not.toContain(stamp);
          seen.push(stamp);
        }
      } finally {
        await other.close();
      }
    });

    it('stays the same while nothing commits', async () => {
      await seedStore();
      // A server shared with other databases may move it at any time (conservative, allowed):
      // of a few back-to-back reads around a read transaction, one pair must be equal.
      let equalPairs = 0;
      for (let attempt = 0; attempt < 20 && equalPairs === 0; attempt++) {
        const before = await h.repository().changeStamp();
        await read((tx) => tx.listStores());
        if ((await h.repository().changeStamp()) === before) equalPairs++;
      }
      expect(equalPairs).toBe(1);
    });

    it('refuses to be read inside a transaction', async () => {
      await expect(read(() => h.repository().changeStamp())).rejects.toThrow(
        /outside transactions/,
      );
    });
  });
}
