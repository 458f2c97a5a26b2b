import { describe, expect, it } from 'vitest';
import type { ContractHarness } from './harness.js';

/** The repository contract: stock. */
export function stockContract(h: ContractHarness): void {
  const { write, read, seedStore } = h;

  describe('stock', () => {
    it('setOnHand creates rows with reserved 0 and leaves reserved alone on existing ones', async () => {
      const store = await seedStore();
      await write((tx) =>
        tx.adjustStock(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', on_hand: 4, reserved: 3 }]),
      );
      await write((tx) =>
        tx.setOnHand(store.id, [
          { warehouse_code: 'WH-A', sku: 'S1', qty: 10 },
          { warehouse_code: 'WH-B', sku: 'S1', qty: 7 },
        ]),
      );
      expect(await read((tx) => tx.listStock({ store_id: store.id, warehouses: null }))).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', on_hand: 10, reserved: 3 },
        { warehouse_code: 'WH-B', sku: 'S1', on_hand: 7, reserved: 0 },
      ]);
      await write((tx) => tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', qty: 0 }]));
      const [row] = await read((tx) =>
        tx.listStock({ store_id: store.id, warehouses: ['WH-A'], sku: 'S1' }),
      );
      expect(row).toEqual({ warehouse_code: 'WH-A', sku: 'S1', on_hand: 0, reserved: 3 });
    });

    it('setSafetyStock sets and clears the override, leaving on hand and reserved alone', async () => {
      const store = await seedStore();
      await write((tx) =>
        tx.adjustStock(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', on_hand: 4, reserved: 3 }]),
      );
      await write((tx) =>
        tx.setSafetyStock(store.id, [
          { warehouse_code: 'WH-A', sku: 'S1', safety_stock: 2 },
          { warehouse_code: 'WH-B', sku: 'S1', safety_stock: 0 },
        ]),
      );
      expect(await read((tx) => tx.listStock({ store_id: store.id, warehouses: null }))).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', on_hand: 4, reserved: 3, safety_stock: 2 },
        { warehouse_code: 'WH-B', sku: 'S1', on_hand: 0, reserved: 0, safety_stock: 0 },
      ]);
      await write((tx) =>
        tx.setSafetyStock(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', safety_stock: null }]),
      );
      await write((tx) => tx.setOnHand(store.id, [{ warehouse_code: 'WH-B', sku: 'S1', qty: 9 }]));
      expect(await read((tx) => tx.listStock({ store_id: store.id, warehouses: null }))).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', on_hand: 4, reserved: 3 },
        { warehouse_code: 'WH-B', sku: 'S1', on_hand: 9, reserved: 0, safety_stock: 0 },
      ]);
    });

    it('addMissingStock creates only the rows that do not exist, and counts them', async () => {
      const store = await seedStore();
      await write((tx) =>
        tx.adjustStock(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', on_hand: 4, reserved: 3 }]),
      );
      const created = await write((tx) =>
        tx.addMissingStock(store.id, [
          { warehouse_code: 'WH-A', sku: 'S1', qty: 10 },
          { warehouse_code: 'WH-B', sku: 'S1', qty: 7 },
          { warehouse_code: 'WH-B', sku: 'S2', qty: 0 },
        ]),
      );
      expect(created).toBe(2);
      expect(await read((tx) => tx.listStock({ store_id: store.id, warehouses: null }))).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', on_hand: 4, reserved: 3 },
        { warehouse_code: 'WH-B', sku: 'S1', on_hand: 7, reserved: 0 },
        { warehouse_code: 'WH-B', sku: 'S2', on_hand: 0, reserved: 0 },
      ]);
      expect(
        await write((tx) =>
          tx.addMissingStock(store.id, [{ warehouse_code: 'WH-B', sku: 'S1', qty: 1 }]),
        ),
      ).toBe(0);
    });

    it('lockStock reads the rows of its keys in order, creating the missing ones at 0', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      await write(async (tx) => {
        await tx.adjustStock(store.id, [
          { warehouse_code: 'WH-B', sku: 'S1', on_hand: 4, reserved: 3 },
        ]);
        await tx.setOnHand(other.id, [{ warehouse_code: 'WH-A', sku: 'S1', qty: 9 }]);
      });
      const levels = await write((tx) =>
        tx.lockStock(store.id, [
          { warehouse_code: 'WH-B', sku: 'S1' },
          { warehouse_code: 'WH-A', sku: 'S1' },
          { warehouse_code: 'WH-B', sku: 'S1' },
        ]),
      );
      expect(levels).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', on_hand: 0, reserved: 0 },
        { warehouse_code: 'WH-B', sku: 'S1', on_hand: 4, reserved: 3 },
      ]);
      expect(await read((tx) => tx.listStock({ store_id: other.id, warehouses: null }))).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', on_hand: 9, reserved: 0 },
      ]);
    });

    it('lockStock reads more keys than one statement lists, and a rollback keeps no created row', async () => {
      const store = await seedStore();
      const keys = Array.from({ length: 1200 }, (_, i) => ({
        warehouse_code: i % 2 ? 'WH-A' : 'WH-B',
        sku: `SKU-${String(i).padStart(5, '0')}`,
      }));
      const levels = await write((tx) => tx.lockStock(store.id, keys));
      expect(levels).toHaveLength(1200);
      expect(levels.every((level) => level.on_hand === 0 && level.reserved === 0)).toBe(true);
      expect(levels[0]).toMatchObject({ warehouse_code: 'WH-A', sku: 'SKU-00001' });
      const fresh = await seedStore('fresh');
      await expect(
        write(async (tx) => {
          await tx.lockStock(fresh.id, keys.slice(0, 3));
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await read((tx) => tx.listStock({ store_id: fresh.id, warehouses: null }))).toEqual(
        [],
      );
    });

    it('setOnHand writes a batch of thousands of rows', async () => {
      const store = await seedStore();
      const entries = Array.from({ length: 2500 }, (_, i) => ({
        warehouse_code: i % 2 ? 'WH-A' : 'WH-B',
        sku: `SKU-${String(i).padStart(5, '0')}`,
        qty: i,
      }));
      await write((tx) => tx.setOnHand(store.id, entries));
      const rows = await read((tx) => tx.listStock({ store_id: store.id, warehouses: null }));
      expect(rows).toHaveLength(2500);
      expect(rows.find((r) => r.sku === 'SKU-01234')).toEqual({
        warehouse_code: 'WH-B',
        sku: 'SKU-01234',
        on_hand: 1234,
        reserved: 0,
      });
    });

    it('listStock orders by warehouse then sku and filters by warehouses and sku', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      await write(async (tx) => {
        await tx.setOnHand(store.id, [
          { warehouse_code: 'WH-B', sku: 'A', qty: 1 },
          { warehouse_code: 'WH-A', sku: 'B', qty: 2 },
          { warehouse_code: 'WH-A', sku: 'A', qty: 3 },
          { warehouse_code: 'WH-C', sku: 'A', qty: 4 },
        ]);
        await tx.setOnHand(other.id, [{ warehouse_code: 'WH-A', sku: 'A', qty: 50 }]);
      });
      const keys = (rows: { warehouse_code: string; sku: string }[]) =>
        rows.map((r) => `${r.warehouse_code}/${r.sku}`);
      expect(
        keys(await read((tx) => tx.listStock({ store_id: store.id, warehouses: null }))),
      ).toEqual(['WH-A/A', 'WH-A/B', 'WH-B/A', 'WH-C/A']);
      expect(
        keys(
          await read((tx) => tx.listStock({ store_id: store.id, warehouses: ['WH-C', 'WH-B'] })),
        ),
      ).toEqual(['WH-B/A', 'WH-C/A']);
      expect(
        keys(await read((tx) => tx.listStock({ store_id: store.id, warehouses: null, sku: 'A' }))),
      ).toEqual(['WH-A/A', 'WH-B/A', 'WH-C/A']);
      expect(await read((tx) => tx.listStock({ store_id: store.id, warehouses: [] }))).toEqual([]);
    });

    it('listStock filters by a list of skus, however long, still in order', async () => {
      const store = await seedStore();
      const skus = Array.from({ length: 1100 }, (_, i) => `S${String(i).padStart(4, '0')}`);
      await write((tx) =>
        tx.setOnHand(store.id, [
          ...skus.map((sku) => ({ warehouse_code: 'WH-B', sku, qty: 1 })),
          { warehouse_code: 'WH-A', sku: 'S1099', qty: 2 },
          { warehouse_code: 'WH-A', sku: 'OTHER', qty: 3 },
        ]),
      );
      const rows = await read((tx) =>
        tx.listStock({ store_id: store.id, warehouses: null, skus: [...skus].reverse() }),
      );
      expect(rows).toHaveLength(1101);
      expect(rows[0]).toEqual({ warehouse_code: 'WH-A', sku: 'S1099', on_hand: 2, reserved: 0 });
      expect(rows.slice(1).map((row) => row.sku)).toEqual(skus);
      expect(
        await read((tx) =>
          tx.listStock({ store_id: store.id, warehouses: ['WH-A'], skus: ['OTHER', 'NONE'] }),
        ),
      ).toEqual([{ warehouse_code: 'WH-A', sku: 'OTHER', on_hand: 3, reserved: 0 }]);
      expect(
        await read((tx) => tx.listStock({ store_id: store.id, warehouses: null, skus: [] })),
      ).toEqual([]);
    });

    it('adjustStock adds deltas, creating missing rows from 0, summing repeated keys', async () => {
      const store = await seedStore();
      await write((tx) => tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', qty: 10 }]));
      await write((tx) =>
        tx.adjustStock(store.id, [
          { warehouse_code: 'WH-A', sku: 'S1', on_hand: -2, reserved: 3 },
          { warehouse_code: 'WH-A', sku: 'S1', on_hand: -1, reserved: -1 },
          { warehouse_code: 'WH-B', sku: 'S2', on_hand: 0, reserved: 4 },
        ]),
      );
      expect(await read((tx) => tx.listStock({ store_id: store.id, warehouses: null }))).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', on_hand: 7, reserved: 2 },
        { warehouse_code: 'WH-B', sku: 'S2', on_hand: 0, reserved: 4 },
      ]);
    });

    it('adjustStock never loses an update among 20 concurrent transactions', async () => {
      const store = await seedStore();
      await write((tx) =>
        tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', qty: 100 }]),
      );
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          write(async (tx) => {
            await tx.adjustStock(store.id, [
              { warehouse_code: 'WH-A', sku: 'S1', on_hand: -1, reserved: 2 },
              { warehouse_code: i % 2 ? 'WH-B' : 'WH-C', sku: 'S1', on_hand: 1, reserved: 0 },
            ]);
            // Keep the transaction open a moment so that the others really overlap it.
            await new Promise((resolve) => setTimeout(resolve, 2));
            await tx.adjustStock(store.id, [
              { warehouse_code: 'WH-A', sku: 'S2', on_hand: 1, reserved: 1 },
            ]);
          }),
        ),
      );
      expect(await read((tx) => tx.listStock({ store_id: store.id, warehouses: null }))).toEqual([
        { warehouse_code: 'WH-A', sku: 'S1', on_hand: 80, reserved: 40 },
        { warehouse_code: 'WH-A', sku: 'S2', on_hand: 20, reserved: 20 },
        { warehouse_code: 'WH-B', sku: 'S1', on_hand: 10, reserved: 0 },
        { warehouse_code: 'WH-C', sku: 'S1', on_hand: 10, reserved: 0 },
      ]);
    });
  });
}
