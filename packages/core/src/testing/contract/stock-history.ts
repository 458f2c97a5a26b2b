import { describe, expect, it } from 'vitest';
import type { StockHistoryEntry, StockSetSource } from '../../domain/stock-history.js';
import type { RepositoryTx } from '../../ports/repository.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: the stock history, sets and adjustment lines merged newest first. */
export function stockHistoryContract(h: ContractHarness): void {
  const { write, read, seedStore } = h;

  /** An absolute set of WH-A/S1 (or `sku`) recorded in the history, then applied. */
  const set = async (
    tx: RepositoryTx,
    storeId: number,
    created_at: string,
    qty: number,
    extra: {
      sku?: string;
      change_from?: number;
      actor?: string;
      source?: StockSetSource;
      request_id?: string;
    } = {},
  ): Promise<void> => {
    const entry = {
      warehouse_code: 'WH-A',
      sku: extra.sku ?? 'S1',
      qty,
      ...(extra.change_from === undefined ? {} : { change_from: extra.change_from }),
    };
    await tx.recordStockSets(storeId, [entry], {
      actor: extra.actor ?? 'partner',
      source: extra.source ?? 'stock_items',
      request_id: extra.request_id ?? null,
      created_at,
    });
    await tx.setOnHand(storeId, [entry]);
  };

  const adjust = (store_id: number, adjustment_number: string, created_at: string) => ({
    id: 0,
    store_id,
    adjustment_number,
    token_name: 'erp',
    created_at,
    items: [
      { warehouse_code: 'WH-A', sku: 'S1', delta: 3, reason: 'received' as const, on_hand: 8 },
      { warehouse_code: 'WH-B', sku: 'S1', delta: 1, reason: 'found' as const, on_hand: 1 },
      { warehouse_code: 'WH-A', sku: 'S1', delta: -1, reason: 'damaged' as const, on_hand: 7 },
    ],
  });

  const summary = (entries: StockHistoryEntry[]) =>
    entries.map((entry) => `${entry.at.slice(11)} ${entry.kind} ${entry.on_hand_after}`);

  describe('stock history', () => {
    it('merges sets and adjustment lines newest first, each kind of the one warehouse and sku', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      await write(async (tx) => {
        await set(tx, store.id, '2026-11-28 08:00:00', 5);
        await set(tx, store.id, '2026-11-28 08:00:00', 9, { sku: 'S2' });
        await set(tx, other.id, '2026-11-28 08:00:05', 4);
        await tx.insertStockAdjustment(adjust(store.id, 'ADJ-1', '2026-11-28 08:00:01'));
        // What the adjustment's lines did to the row (the record alone does not touch it).
        await tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', qty: 7 }]);
        await set(tx, store.id, '2026-11-28 08:00:02', 2, {
          change_from: 7,
          actor: 'oscar',
          source: 'admin',
          request_id: 'req-1',
        });
      });
      const history = await read((tx) =>
        tx.stockHistory({ store_id: store.id, warehouse_code: 'WH-A', sku: 'S1', limit: 10 }),
      );
      expect(summary(history)).toEqual([
        '08:00:02 set 2',
        '08:00:01 adjustment 7',
        '08:00:01 adjustment 8',
        '08:00:00 set 5',
      ]);
      expect(history[0]).toMatchObject({
        delta: -5,
        on_hand_before: 7,
        by: 'oscar',
        source: 'admin',
        request_id: 'req-1',
      });
      expect(history[1]).toMatchObject({
        delta: -1,
        reason: 'damaged',
        by: 'erp',
        adjustment_number: 'ADJ-1',
      });
      expect(history[3]).not.toHaveProperty('request_id');
    });

    it('records a batch of sets with the on hand each replaces, read from the stock rows as they are', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      await write(async (tx) => {
        await tx.setOnHand(store.id, [
          { warehouse_code: 'WH-A', sku: 'S1', qty: 5 },
          { warehouse_code: 'WH-B', sku: 'S1', qty: 2 },
        ]);
        await tx.setOnHand(other.id, [{ warehouse_code: 'WH-A', sku: 'S2', qty: 40 }]);
        const entries = [
          { warehouse_code: 'WH-A', sku: 'S1', qty: 8, change_from: 5 },
          // No row yet, and not the other store's: the set replaced 0.
          { warehouse_code: 'WH-A', sku: 'S2', qty: 3 },
          { warehouse_code: 'WH-B', sku: 'S1', qty: 1 },
          // The last entry of a key wins, as `setOnHand` writes it.
          { warehouse_code: 'WH-A', sku: 'S1', qty: 9 },
        ];
        await tx.recordStockSets(store.id, entries, {
          actor: 'partner',
          source: 'stock_items',
          request_id: 'req-2',
          created_at: '2026-11-28 10:00:00',
        });
        await tx.setOnHand(store.id, entries);
      });
      const historyOf = (warehouse_code: string, sku: string) =>
        read((tx) => tx.stockHistory({ store_id: store.id, warehouse_code, sku, limit: 10 }));
      const [s1] = await historyOf('WH-A', 'S1');
      expect(s1).toMatchObject({
        kind: 'set',
        on_hand_before: 5,
        on_hand_after: 9,
        delta: 4,
        by: 'partner',
        source: 'stock_items',
        request_id: 'req-2',
      });
      expect(await historyOf('WH-A', 'S2')).toMatchObject([
        { on_hand_before: 0, on_hand_after: 3, delta: 3 },
      ]);
      expect(await historyOf('WH-B', 'S1')).toMatchObject([
        { on_hand_before: 2, on_hand_after: 1, delta: -1 },
      ]);
      expect(await historyOf('WH-A', 'S1')).toHaveLength(1);
    });

    it('pages by the last entry read, without skipping or repeating one of either kind', async () => {
      const store = await seedStore();
      await write(async (tx) => {
        // Sets and adjustments in the same second, and in seconds apart.
        await set(tx, store.id, '2026-11-28 09:00:00', 1);
        await tx.insertStockAdjustment(adjust(store.id, 'ADJ-1', '2026-11-28 09:00:00'));
        await set(tx, store.id, '2026-11-28 09:00:00', 2);
        await tx.insertStockAdjustment(adjust(store.id, 'ADJ-2', '2026-11-28 09:00:01'));
        await set(tx, store.id, '2026-11-28 09:00:01', 3);
      });
      const all = await read((tx) =>
        tx.stockHistory({ store_id: store.id, warehouse_code: 'WH-A', sku: 'S1', limit: 100 }),
      );
      expect(all).toHaveLength(7);
      const paged: StockHistoryEntry[] = [];
      let before: StockHistoryEntry | undefined;
      do {
        const page: StockHistoryEntry[] = await read((tx) =>
          tx.stockHistory({
            store_id: store.id,
            warehouse_code: 'WH-A',
            sku: 'S1',
            limit: 2,
            ...(before ? { before } : {}),
          }),
        );
        for (const entry of page) paged.push(entry);
        before = page.length === 2 ? page[1] : undefined;
      } while (before);
      expect(paged).toEqual(all);
    });
  });
}
