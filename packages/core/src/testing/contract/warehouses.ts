import { describe, expect, it } from 'vitest';
import { warehouse } from '../fixtures.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: warehouses. */
export function warehousesContract(h: ContractHarness): void {
  const { write, read, seedStore } = h;

  describe('warehouses', () => {
    it('upsertWarehouse creates, then replaces every field', async () => {
      const store = await seedStore();
      const replaced = warehouse(store.id, 'WH-A', {
        name: 'Renamed',
        active: false,
        fulfilled_by: 'courier',
        priority: 99,
      });
      expect(await write((tx) => tx.upsertWarehouse(replaced))).toEqual(replaced);
      const [first] = await read((tx) => tx.listWarehouses(store.id, ['WH-A']));
      expect(first).toEqual(replaced);
    });

    it('upsertWarehouse keeps what routing reads: coordinates to the digit, countries, daily capacity, safety stock', async () => {
      const store = await seedStore();
      const located = warehouse(store.id, 'WH-A', {
        latitude: 45.464203,
        longitude: -9.189982,
        countries: ['IT', 'CH', 'SM'],
        daily_capacity: 300,
        safety_stock: 12,
        timezone: 'Europe/Rome',
      });
      await write((tx) => tx.upsertWarehouse(located));
      expect(await read((tx) => tx.listWarehouses(store.id, ['WH-A']))).toEqual([located]);
      const cleared = warehouse(store.id, 'WH-A');
      expect(await write((tx) => tx.upsertWarehouse(cleared))).toEqual(cleared);
      expect(await read((tx) => tx.listWarehouses(store.id, ['WH-A']))).toEqual([cleared]);
    });

    it('countRouted counts per warehouse and day, never past a limit, and takes a count back', async () => {
      const store = await seedStore();
      const day = (warehouse_code: string, date: string, limit: number | null, by = 1) => ({
        warehouse_code,
        day: date,
        limit,
        by,
      });
      expect(await write((tx) => tx.countRouted(store.id, day('WH-A', '2026-05-01', 2)))).toBe(1);
      expect(await write((tx) => tx.countRouted(store.id, day('WH-A', '2026-05-01', 2)))).toBe(2);
      // Full: refused, and the count stays.
      expect(await write((tx) => tx.countRouted(store.id, day('WH-A', '2026-05-01', 2)))).toBe(
        null,
      );
      // Without a limit it counts on; another day and another warehouse count apart.
      expect(await write((tx) => tx.countRouted(store.id, day('WH-A', '2026-05-01', null)))).toBe(
        3,
      );
      expect(await write((tx) => tx.countRouted(store.id, day('WH-A', '2026-05-02', 2)))).toBe(1);
      expect(
        await write((tx) => tx.countRouted(store.id, day('WH-A', '2026-05-02', null, -1))),
      ).toBe(0);
      expect(
        await read((tx) =>
          tx.routedOn(store.id, [
            { warehouse_code: 'WH-A', day: '2026-05-01' },
            { warehouse_code: 'WH-B', day: '2026-05-01' },
            { warehouse_code: 'WH-A', day: '2026-05-02' },
          ]),
        ),
      ).toEqual([3, 0, 0]);
    });

    it('listWarehouses orders by code, filters by codes, and is per store', async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      await write((tx) => tx.upsertWarehouse(warehouse(store.id, 'AAA')));
      const all = await read((tx) => tx.listWarehouses(store.id));
      expect(all.map((w) => w.code)).toEqual(['AAA', 'WH-A', 'WH-B', 'WH-C']);
      expect(all.every((w) => w.store_id === store.id)).toBe(true);
      const some = await read((tx) => tx.listWarehouses(store.id, ['WH-C', 'WH-A', 'NOPE']));
      expect(some.map((w) => w.code)).toEqual(['WH-A', 'WH-C']);
      expect(await read((tx) => tx.listWarehouses(store.id, []))).toEqual([]);
      expect(await read((tx) => tx.listWarehouses(store.id, null))).toHaveLength(4);
      expect(await read((tx) => tx.listWarehouses(other.id))).toHaveLength(3);
    });
  });
}
