import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME, order, storeSettings, token, warehouse } from '../fixtures.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: transactions. */
export function transactionContract(h: ContractHarness): void {
  const { write, read, seedStore, expectFreshDocuments, insert, pollIds } = h;

  describe('transaction', () => {
    it('commits what the work wrote and returns its result', async () => {
      const result = await write(async (tx) => {
        await tx.upsertStore('default', storeSettings());
        return 42;
      });
      expect(result).toBe(42);
      expect(await read((tx) => tx.findStore('default'))).not.toBeNull();
    });

    it('rolls everything back and rethrows the same error when the work throws', async () => {
      const store = await seedStore();
      const existing = await insert({ store_id: store.id });
      await write((tx) =>
        tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 5 }]),
      );
      const failure = new Error('boom');
      await expect(
        write(async (tx) => {
          await tx.upsertStore('other', storeSettings());
          await tx.upsertStore('default', storeSettings({ reroute: false }));
          await tx.upsertWarehouse(warehouse(store.id, 'WH-Z'));
          await tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 99 }]);
          await tx.adjustStock(store.id, [
            { warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 0, reserved: 3 },
          ]);
          await tx.insertToken(token(store.id, 'partner'));
          await tx.insertOrder(order({ store_id: store.id }));
          const locked = await tx.lockOrderById(existing.id);
          if (!locked) throw new Error('missing');
          await tx.saveOrder({
            ...locked,
            items: locked.items.map((i) => ({ ...i, status: 'rejected' as const })),
            status: 'rejected',
          });
          await tx.nextFulfillmentSequence(store.id, 'S-1');
          await tx.appendAudit([
            { order_id: existing.id, at: FIXTURE_TIME, actor: 'x', action: 'y', details: {} },
          ]);
          throw failure;
        }),
      ).rejects.toBe(failure);

      await read(async (tx) => {
        expect((await tx.listStores()).map((s) => s.code)).toEqual(['default']);
        expect((await tx.findStore('default'))?.settings.reroute).toBe(true);
        expect((await tx.listWarehouses(store.id)).map((w) => w.code)).toEqual([
          'WH-A',
          'WH-B',
          'WH-C',
        ]);
        expect(await tx.listStock({ store_id: store.id, warehouses: null })).toEqual([
          { warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 5, reserved: 0 },
        ]);
        expect(await tx.listTokens(store.id)).toEqual([]);
        expect(await tx.findOrder(store.id, existing.fulfillment_order_number)).toEqual(existing);
        expect(await tx.listAudit(existing.id)).toEqual([]);
      });
      expect(await pollIds(store, 'pending_accept')).toEqual([existing.id]);
      await expectFreshDocuments(store.id);
      expect(await write((tx) => tx.nextFulfillmentSequence(store.id, 'S-1'))).toBe(1);
    });

    it('runs read transactions', async () => {
      await seedStore();
      const stores = await read((tx) => tx.listStores());
      expect(stores.map((s) => s.code)).toEqual(['default']);
    });

    it('runs autocommit work, statement after statement, each reading what has committed', async () => {
      const store = await seedStore();
      const autocommit = <T>(work: Parameters<typeof read<T>>[0]) =>
        h.repository().transaction(work, 'autocommit');
      expect(
        await autocommit(async (tx) => [await tx.findStore('default'), await tx.listStores()]),
      ).toEqual([store, [store]]);
      await write((tx) => tx.upsertStore('other', storeSettings()));
      expect((await autocommit((tx) => tx.listStores())).map((s) => s.code)).toEqual([
        'default',
        'other',
      ]);
    });
  });
}
