import { describe, expect, it } from 'vitest';
import type { StockAdjustmentRecord } from '../../domain/stock-adjustment.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: stock adjustments, once per number in a store. */
export function stockAdjustmentsContract(h: ContractHarness): void {
  const { write, read, seedStore } = h;

  const record = (store_id: number, adjustment_number: string): StockAdjustmentRecord => ({
    id: 0,
    store_id,
    adjustment_number,
    token_name: 'partner',
    created_at: '2026-11-28 08:40:31',
    items: [
      { warehouse_code: 'WH-B', sku: 'S2', delta: 5, reason: 'received', on_hand: 5 },
      { warehouse_code: 'WH-A', sku: 'S1', delta: -2, reason: 'damaged', on_hand: 0 },
    ],
  });

  describe('stock adjustments', () => {
    it('insertStockAdjustment stores the lines in order; findStockAdjustment reads them back', async () => {
      const store = await seedStore();
      const stored = await write((tx) => tx.insertStockAdjustment(record(store.id, 'ADJ-1')));
      expect(stored?.id).toBeGreaterThan(0);
      const found = await read((tx) => tx.findStockAdjustment(store.id, 'ADJ-1'));
      expect(found).toEqual({ ...record(store.id, 'ADJ-1'), id: stored?.id });
      expect(await read((tx) => tx.findStockAdjustment(store.id, 'ADJ-2'))).toBeNull();
    });

    it('insertStockAdjustment writes nothing for a number the store has, another store may', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      await write((tx) => tx.insertStockAdjustment(record(store.id, 'ADJ-1')));
      const again = await write((tx) =>
        tx.insertStockAdjustment({ ...record(store.id, 'ADJ-1'), token_name: 'someone else' }),
      );
      expect(again).toBeNull();
      expect((await read((tx) => tx.findStockAdjustment(store.id, 'ADJ-1')))?.token_name).toBe(
        'partner',
      );
      expect(
        await write((tx) => tx.insertStockAdjustment(record(other.id, 'ADJ-1'))),
      ).not.toBeNull();
    });
  });
}
