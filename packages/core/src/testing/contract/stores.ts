import { describe, expect, it } from 'vitest';
import { storeSettings } from '../fixtures.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: stores. */
export function storesContract(h: ContractHarness): void {
  const { write, read } = h;

  describe('stores', () => {
    it('findStoreById finds the store by its id, null for an unknown id', async () => {
      const created = await write((tx) => tx.upsertStore('by-id', storeSettings()));
      expect(await read((tx) => tx.findStoreById(created.id))).toEqual(created);
      expect(await read((tx) => tx.findStoreById(created.id + 1000))).toBeNull();
    });

    it('findStore is null for an unknown code', async () => {
      expect(await read((tx) => tx.findStore('nope'))).toBeNull();
    });

    it('upsertStore creates, then replaces the settings of the same store', async () => {
      const created = await write((tx) => tx.upsertStore('default', storeSettings()));
      expect(created).toEqual({
        id: expect.any(Number),
        code: 'default',
        settings: storeSettings(),
      });
      const settings = storeSettings({
        partial_items: true,
        courier: { type: 'simulated', fail_skus: ['BAD'], max_attempts: 7, delay_ms: 5 },
      });
      const updated = await write((tx) => tx.upsertStore('default', settings));
      expect(updated).toEqual({ id: created.id, code: 'default', settings });
      expect(await read((tx) => tx.findStore('default'))).toEqual(updated);
    });

    it('listStores orders by code', async () => {
      await write(async (tx) => {
        for (const code of ['mid', 'b-store', 'Zeta', 'a-store']) {
          await tx.upsertStore(code, storeSettings());
        }
      });
      const codes = (await read((tx) => tx.listStores())).map((s) => s.code);
      expect(codes).toEqual(['Zeta', 'a-store', 'b-store', 'mid']);
    });
  });
}
