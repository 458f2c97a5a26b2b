import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accept } from '../domain/actions/accept.js';
import { allocate } from '../domain/actions/allocate.js';
import { invoice } from '../domain/actions/invoice.js';
import { cancel, fail, requeue } from '../domain/actions/operator.js';
import type { ActionOutcome } from '../domain/actions/outcome.js';
import { ship } from '../domain/actions/ship.js';
import { ACTIVE_QUEUES } from '../domain/item-stage.js';
import { deriveOrderStatus } from '../domain/order-status.js';
import { presentOrder } from '../domain/present.js';
import type { Timestamp } from '../domain/timestamp.js';
import type { FulfillmentOrder, QueueName, Store } from '../domain/types.js';
import type { PollQuery, Repository, RepositoryTx } from '../ports/repository.js';
import { address, FIXTURE_TIME, item, order, storeSettings, token, warehouse } from './fixtures.js';

/** What an adapter hands the contract: a fresh, empty, migrated repository per test. */
export interface RepositoryUnderTest {
  repository: Repository;
  /** Runs after `repository.close()`: drop the schema, delete the file, … */
  cleanup?: () => Promise<void>;
  /**
   * Opens another repository on the same database (another connection or pool), closed by the
   * test that opened it; absent where no other connection can reach it (`:memory:`).
   */
  openAnother?: () => Promise<Repository>;
}

export type RepositoryFactory = () => Promise<RepositoryUnderTest>;

/**
 * The storage contract of `Repository`, as vitest tests. Every adapter runs it with a factory
 * that returns a fresh, empty database each time:
 *
 * ```ts
 * runRepositoryContract('sqlite :memory:', async () => ({
 *   repository: await openSqliteRepository({ filename: ':memory:' }),
 * }));
 * ```
 *
 * One or more tests per guarantee written in the port's JSDoc. Concurrency tests start their
 * transactions together; an adapter whose transactions take turns anyway passes them trivially.
 */
export function runRepositoryContract(name: string, factory: RepositoryFactory): void {
  describe(`${name}: repository contract`, () => {
    let current: RepositoryUnderTest | undefined;
    let repository: Repository;

    beforeEach(async () => {
      current = await factory();
      repository = current.repository;
    });

    afterEach(async () => {
      const done = current;
      current = undefined;
      if (!done) return;
      try {
        await done.repository.close();
      } finally {
        await done.cleanup?.();
      }
    });

    const write = <T>(work: (tx: RepositoryTx) => Promise<T>): Promise<T> =>
      repository.transaction(work);
    const read = <T>(work: (tx: RepositoryTx) => Promise<T>): Promise<T> =>
      repository.transaction(work, 'read');

    /** A store with warehouses WH-A, WH-B (partners) and WH-C (courier). */
    const seedStore = (code = 'default'): Promise<Store> =>
      write(async (tx) => {
        const store = await tx.upsertStore(code, storeSettings());
        await tx.upsertWarehouse(warehouse(store.id, 'WH-A'));
        await tx.upsertWarehouse(warehouse(store.id, 'WH-B', { priority: 5 }));
        await tx.upsertWarehouse(warehouse(store.id, 'WH-C', { fulfilled_by: 'courier' }));
        return store;
      });

    /**
     * The read model agrees with the orders: on every page of every queue, the stored documents
     * are the orders of that page presented afresh, byte for byte.
     */
    const expectFreshDocuments = async (storeId: number): Promise<void> => {
      for (const queue of [...ACTIVE_QUEUES, 'failed'] as const) {
        for (let page = 1; ; page++) {
          const query = {
            store_id: storeId,
            queue,
            page,
            page_size: 50,
            since: null,
            warehouses: null,
          };
          const [orders, documents] = await read(
            async (tx) => [await tx.pollQueue(query), await tx.pollDocuments(query)] as const,
          );
          expect(documents).toEqual(
            orders.map((stored) => JSON.stringify(presentOrder(stored, { queue }))),
          );
          if (orders.length < query.page_size) break;
        }
      }
    };

    const insert = async (fixture: Parameters<typeof order>[0]): Promise<FulfillmentOrder> => {
      const stored = await write((tx) => tx.insertOrder(order(fixture)));
      await expectFreshDocuments(stored.store_id);
      return stored;
    };

    const poll = (
      store: Store,
      queue: QueueName,
      overrides: Partial<PollQuery> = {},
    ): Promise<FulfillmentOrder[]> =>
      read((tx) =>
        tx.pollQueue({
          store_id: store.id,
          queue,
          page: 1,
          page_size: 100,
          since: null,
          warehouses: null,
          ...overrides,
        }),
      );

    const pollIds = async (
      store: Store,
      queue: QueueName,
      overrides: Partial<PollQuery> = {},
    ): Promise<number[]> => (await poll(store, queue, overrides)).map((o) => o.id);

    /** Applies `change` to the locked order and saves it, as a use case would. */
    const update = async (
      target: FulfillmentOrder,
      change: (o: FulfillmentOrder) => FulfillmentOrder,
    ): Promise<FulfillmentOrder> => {
      const saved = await write(async (tx) => {
        const locked = await tx.lockOrderById(target.id);
        if (!locked) throw new Error(`order ${target.id} vanished`);
        const changed = change(locked);
        return tx.saveOrder({
          ...changed,
          status: deriveOrderStatus(changed.items, changed.failure),
        });
      });
      await expectFreshDocuments(saved.store_id);
      return saved;
    };

    /** Applies a domain action to the locked order and saves what it decided, as a use case would. */
    const act = (
      target: FulfillmentOrder,
      action: (o: FulfillmentOrder) => ActionOutcome,
    ): Promise<FulfillmentOrder> =>
      update(target, (locked) => {
        const outcome = action(locked);
        if (!outcome.changed) throw new Error('the action changed nothing');
        return outcome.order;
      });

    // ── transactions ─────────────────────────────────────────────────────────────────────

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
    });

    // ── change stamp ─────────────────────────────────────────────────────────────────────

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
        const seen = [await repository.changeStamp()];
        for (const [kind, work] of writesOfEveryKind(store)) {
          await write(work);
          const stamp = await repository.changeStamp();
          expect(seen, `after ${kind}`).not.toContain(stamp);
          seen.push(stamp);
        }
      });

      it('differs after a write committed through another connection', async (context) => {
        if (!current?.openAnother) {
          context.skip();
          return;
        }
        const other = await current.openAnother();
        try {
          const store = await seedStore();
          const seen = [await repository.changeStamp()];
          for (const [kind, work] of writesOfEveryKind(store)) {
            await other.transaction(work);
            const stamp = await repository.changeStamp();
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
          const before = await repository.changeStamp();
          await read((tx) => tx.listStores());
          if ((await repository.changeStamp()) === before) equalPairs++;
        }
        expect(equalPairs).toBe(1);
      });

      it('refuses to be read inside a transaction', async () => {
        await expect(read(() => repository.changeStamp())).rejects.toThrow(/outside transactions/);
      });
    });

    // ── stores ───────────────────────────────────────────────────────────────────────────

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

    // ── warehouses ───────────────────────────────────────────────────────────────────────

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

    // ── stock ────────────────────────────────────────────────────────────────────────────

    describe('stock', () => {
      it('setOnHand creates rows with reserved 0 and leaves reserved alone on existing ones', async () => {
        const store = await seedStore();
        await write((tx) =>
          tx.adjustStock(store.id, [
            { warehouse_code: 'WH-A', sku: 'S1', on_hand: 4, reserved: 3 },
          ]),
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
        await write((tx) =>
          tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', qty: 0 }]),
        );
        const [row] = await read((tx) =>
          tx.listStock({ store_id: store.id, warehouses: ['WH-A'], sku: 'S1' }),
        );
        expect(row).toEqual({ warehouse_code: 'WH-A', sku: 'S1', on_hand: 0, reserved: 3 });
      });

      it('addMissingStock creates only the rows that do not exist, and counts them', async () => {
        const store = await seedStore();
        await write((tx) =>
          tx.adjustStock(store.id, [
            { warehouse_code: 'WH-A', sku: 'S1', on_hand: 4, reserved: 3 },
          ]),
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
          keys(
            await read((tx) => tx.listStock({ store_id: store.id, warehouses: null, sku: 'A' })),
          ),
        ).toEqual(['WH-A/A', 'WH-B/A', 'WH-C/A']);
        expect(await read((tx) => tx.listStock({ store_id: store.id, warehouses: [] }))).toEqual(
          [],
        );
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
        await write((tx) =>
          tx.setOnHand(store.id, [{ warehouse_code: 'WH-A', sku: 'S1', qty: 10 }]),
        );
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

    // ── tokens ───────────────────────────────────────────────────────────────────────────

    describe('tokens', () => {
      it('insertToken stores every field and findTokenByHash finds it in any store', async () => {
        const store = await seedStore();
        const other = await seedStore('other');
        const scoped = token(other.id, 'erp', {
          warehouses: ['WH-A', 'WH-B'],
          resources: ['R1', 'R2'],
          expires_at: '2027-12-31 23:59:59',
        });
        const a = await write((tx) => tx.insertToken(token(store.id, 'partner')));
        const b = await write((tx) => tx.insertToken(scoped));
        expect(a).toEqual({ id: expect.any(Number), ...token(store.id, 'partner') });
        expect(b).toEqual({ id: expect.any(Number), ...scoped });
        expect(a.id).not.toBe(b.id);
        expect(await read((tx) => tx.findTokenByHash(scoped.hash))).toEqual(b);
        expect(await read((tx) => tx.findTokenByHash('0'.repeat(64)))).toBeNull();
      });

      it('insertToken fails with already_exists on a duplicate name in the store only', async () => {
        const store = await seedStore();
        const other = await seedStore('other');
        await write((tx) => tx.insertToken(token(store.id, 'partner')));
        await expect(
          write((tx) => tx.insertToken(token(store.id, 'partner', { hash: 'f'.repeat(64) }))),
        ).rejects.toMatchObject({ name: 'DomainError', code: 'already_exists' });
        // The same name in another store is another token.
        await write((tx) => tx.insertToken(token(other.id, 'partner')));
        expect(await read((tx) => tx.listTokens(store.id))).toHaveLength(1);
        expect(await read((tx) => tx.listTokens(other.id))).toHaveLength(1);
      });

      it('listTokens orders by name', async () => {
        const store = await seedStore();
        await write(async (tx) => {
          for (const name of ['zed', 'alpha', 'Mid']) await tx.insertToken(token(store.id, name));
        });
        const names = (await read((tx) => tx.listTokens(store.id))).map((t) => t.name);
        expect(names).toEqual(['Mid', 'alpha', 'zed']);
      });

      it('revokeToken marks the token, keeps the first time when repeated, false when unknown', async () => {
        const store = await seedStore();
        const other = await seedStore('other');
        const created = await write((tx) => tx.insertToken(token(store.id, 'partner')));
        expect(
          await write((tx) => tx.revokeToken(store.id, 'partner', '2026-02-01 00:00:00')),
        ).toBe(true);
        expect(
          await write((tx) => tx.revokeToken(store.id, 'partner', '2026-03-01 00:00:00')),
        ).toBe(true);
        expect(await read((tx) => tx.findTokenByHash(created.hash))).toEqual({
          ...created,
          revoked_at: '2026-02-01 00:00:00',
        });
        expect(await write((tx) => tx.revokeToken(store.id, 'nope', FIXTURE_TIME))).toBe(false);
        expect(await write((tx) => tx.revokeToken(other.id, 'partner', FIXTURE_TIME))).toBe(false);
      });
    });

    // ── orders ───────────────────────────────────────────────────────────────────────────

    describe('orders', () => {
      it('insertOrder assigns ids and the stored order reads back exactly', async () => {
        const store = await seedStore();
        const draft = order({
          store_id: store.id,
          allow_partial: false,
          customer_is_guest: true,
          shipping: {
            method_code: 'pickup',
            method_name: 'Pickup point',
            internal_method_code: 'pp',
            customer_note: 'ring twice',
            pickup_point_delivery: { location_id: 'L1', location_name: 'Kiosk' },
          },
          items: [
            item('SKU-1', { qty: 3, rejected_by: ['WH-B'] }),
            item('SKU-2', { warehouse_code: 'WH-B', amounts: {} }),
            item('SKU-3', { amounts: { price: 123_456_789, tax_rate: 0 } }),
          ],
        });
        const stored = await write((tx) => tx.insertOrder(draft));
        expect(stored.id).toBeGreaterThan(0);
        expect(stored.items.map((i) => i.id).every((id) => id > 0)).toBe(true);
        expect(new Set(stored.items.map((i) => i.id)).size).toBe(3);
        expect(stored).toEqual({
          ...draft,
          id: stored.id,
          items: draft.items.map((it, index) => ({ ...it, id: stored.items[index]?.id })),
        });
        expect(await read((tx) => tx.findOrder(store.id, draft.fulfillment_order_number))).toEqual(
          stored,
        );
        expect(await write((tx) => tx.lockOrder(store.id, draft.fulfillment_order_number))).toEqual(
          stored,
        );
        expect(await write((tx) => tx.lockOrderById(stored.id))).toEqual(stored);
      });

      it('money round-trips exactly and absent amounts stay absent', async () => {
        const store = await seedStore();
        const stored = await insert({
          store_id: store.id,
          amounts: { grand_total: 123_456_789, shipping_amount: 0, cod_amount: 9_007_199_254_740 },
          items: [item('SKU-1', { amounts: { price: 123_456_789, total_price: -5 } })],
        });
        const found = await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number));
        expect(found?.amounts).toStrictEqual({
          grand_total: 123_456_789,
          shipping_amount: 0,
          cod_amount: 9_007_199_254_740,
        });
        expect(found?.items[0]?.amounts).toStrictEqual({ price: 123_456_789, total_price: -5 });
      });

      it('timestamps round-trip as the same strings', async () => {
        const store = await seedStore();
        const stored = await insert({
          store_id: store.id,
          items: ['pending_shipment'],
          created_at: '2026-01-02 03:04:05',
          updated_at: '2026-12-31 23:59:59',
          allocated_at: '2026-02-28 00:00:00',
          courier: { attempts: 2, last_error: 'timeout', next_attempt_at: '2026-03-01 12:00:00' },
        });
        const found = await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number));
        expect(found?.created_at).toBe('2026-01-02 03:04:05');
        expect(found?.updated_at).toBe('2026-12-31 23:59:59');
        expect(found?.allocated_at).toBe('2026-02-28 00:00:00');
        expect(found?.shipped_at).toBeNull();
        expect(found?.courier).toEqual({
          attempts: 2,
          last_error: 'timeout',
          next_attempt_at: '2026-03-01 12:00:00',
        });
      });

      it('insertOrders stores awkward text, nulls and big integers exactly, many rows at once', async () => {
        const store = await seedStore();
        // Whatever a text encoding of many rows must escape (quotes, backslashes, the delimiters
        // of arrays and records, NULL spelled out, blanks) and text beyond ASCII.
        const awkward = [
          `O'Brien "the \\ one"`,
          '{a,b}',
          '(x, "y")',
          'NULL',
          '',
          'back\\\\slash\\"',
          '\\N',
          ' spaced ',
          'tab\there\nnewline\r',
          'Łódź 東京 🚚 e\u0301 \u202eRTL',
          '🚚 "quoted" \\ back\tslash',
          ',',
        ];
        const drafts = awkward.map((text, index) =>
          order({
            store_id: store.id,
            sales_order_number: `Ω${text}-${index}`,
            customer_firstname: text,
            customer_lastname: text.toUpperCase(),
            customer_email: '',
            allow_partial: [null, true, false][index % 3] as boolean | null,
            amounts:
              index % 2 === 0
                ? {}
                : {
                    grand_total: Number.MAX_SAFE_INTEGER,
                    cod_amount: -Number.MAX_SAFE_INTEGER,
                    shipping_amount: 0,
                  },
            billing_address: address({ street: text, company: '', vat_id: text }),
            payment: { method_code: text, method_name: `${text}\\` },
            courier: {
              attempts: index,
              last_error: index % 2 ? text : null,
              next_attempt_at: null,
            },
            items: [
              item(`SKU-${text}`, {
                name: text,
                rejected_by: [text, 'WH-"B"'],
                invoice_number: index % 2 ? text : null,
                amounts: { price: Number.MAX_SAFE_INTEGER, total_price: -1, tax_rate: 0 },
              }),
              item('SKU-2', { amounts: {} }),
            ],
          }),
        );
        const stored = await write((tx) => tx.insertOrders(drafts));
        for (const [index, draft] of drafts.entries()) {
          const found = await read((tx) => tx.findOrder(store.id, draft.fulfillment_order_number));
          const ids = stored[index]?.items.map((line) => line.id) ?? [];
          expect(found).toEqual({
            ...draft,
            id: stored[index]?.id,
            items: draft.items.map((line, position) => ({ ...line, id: ids[position] })),
          });
          expect(found?.amounts).toStrictEqual(draft.amounts);
          expect(found?.items.map((line) => line.amounts)).toStrictEqual(
            draft.items.map((line) => line.amounts),
          );
        }
        await expectFreshDocuments(store.id);
        const first = stored[0] as FulfillmentOrder;
        await write((tx) =>
          tx.appendAudit(
            awkward.map((text) => ({
              order_id: first.id,
              at: FIXTURE_TIME,
              actor: text,
              action: text,
              details: { text, big: Number.MAX_SAFE_INTEGER, none: null },
            })),
          ),
        );
        const trail = await read((tx) => tx.listAudit(first.id));
        expect(trail.map(({ actor, action, details }) => ({ actor, action, details }))).toEqual(
          awkward.map((text) => ({
            actor: text,
            action: text,
            details: { text, big: Number.MAX_SAFE_INTEGER, none: null },
          })),
        );
      });

      it('findOrder, lockOrder and lockOrderById are null when there is no such order', async () => {
        const store = await seedStore();
        const other = await seedStore('other');
        const stored = await insert({ store_id: store.id });
        await write(async (tx) => {
          expect(await tx.findOrder(store.id, 'nope')).toBeNull();
          expect(await tx.lockOrder(store.id, 'nope')).toBeNull();
          expect(await tx.lockOrderById(stored.id + 1000)).toBeNull();
          // Another store's number is not this store's order.
          expect(await tx.findOrder(other.id, stored.fulfillment_order_number)).toBeNull();
          expect(await tx.lockOrder(other.id, stored.fulfillment_order_number)).toBeNull();
        });
      });

      it('saveOrder writes header and items, inserts id-0 parts, and returns them with ids', async () => {
        const store = await seedStore();
        const stored = await insert({
          store_id: store.id,
          items: ['pending_shipment', 'pending_shipment'],
        });
        const [first, second] = stored.items;
        if (!first || !second) throw new Error('fixture');
        const shippedAt: Timestamp = '2026-01-16 08:30:00';
        const saved = await update(stored, (o) => ({
          ...o,
          shipped_at: shippedAt,
          updated_at: shippedAt,
          customer_email: 'new@example.com',
          allow_partial: true,
          amounts: { ...o.amounts, cod_amount: 10_000 },
          items: [
            { ...first, status: 'pending_invoice' },
            { ...second, qty: 1 },
            // A split-off line (e.g. a partial quantity), new.
            item('SKU-2', { id: 0, qty: 1, status: 'rejected', rejected_by: ['WH-A'] }),
          ],
          shipments: [
            {
              id: 0,
              items: [{ item_id: first.id, qty: 2 }],
              tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z' }],
              created_at: shippedAt,
            },
          ],
        }));
        expect(saved.items).toHaveLength(3);
        expect(saved.items[0]?.id).toBe(first.id);
        expect(saved.items[1]?.id).toBe(second.id);
        expect(saved.items[2]?.id).toBeGreaterThan(0);
        expect(saved.items[2]?.id).not.toBe(first.id);
        expect(saved.shipments[0]?.id).toBeGreaterThan(0);
        expect(saved.status).toBe('partially_shipped');
        const found = await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number));
        expect(found).toEqual(saved);

        // Existing shipments are kept as they are; a second save adds an invoice.
        const invoiced = await update(saved, (o) => ({
          ...o,
          items: o.items.map((i) =>
            i.id === first.id ? { ...i, status: 'invoiced', invoice_number: 'INV-1' } : i,
          ),
          invoices: [
            {
              id: 0,
              invoice_number: 'INV-1',
              item_ids: [first.id],
              shipping_amount_incl_tax: 50_000,
              invoice_time: '2026-01-17',
              additional_data: null,
              doc_binary: 'JVBERi0=',
              created_at: '2026-01-17 09:00:00',
            },
          ],
        }));
        expect(invoiced.invoices[0]?.id).toBeGreaterThan(0);
        expect(invoiced.shipments).toEqual(saved.shipments);
        expect(await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number))).toEqual(
          invoiced,
        );
      });

      it('lockOrder serializes concurrent transactions on one order: no update is lost', async () => {
        const store = await seedStore();
        const stored = await insert({ store_id: store.id, items: ['pending_shipment'] });
        const increments = 5;
        await Promise.all(
          Array.from({ length: increments }, () =>
            write(async (tx) => {
              const locked = await tx.lockOrder(store.id, stored.fulfillment_order_number);
              if (!locked) throw new Error('missing');
              // Read, wait while the others try to lock it, then write what was read + 1.
              await new Promise((resolve) => setTimeout(resolve, 20));
              await tx.saveOrder({
                ...locked,
                courier: { ...locked.courier, attempts: locked.courier.attempts + 1 },
              });
            }),
          ),
        );
        const found = await read((tx) => tx.findOrder(store.id, stored.fulfillment_order_number));
        expect(found?.courier.attempts).toBe(increments);
        await expectFreshDocuments(store.id);
      });
    });

    // ── queues ───────────────────────────────────────────────────────────────────────────

    describe('queues', () => {
      it('lists an order in every queue of its live items, refreshed by saveOrder', async () => {
        const store = await seedStore();
        const stored = await insert({
          store_id: store.id,
          items: ['pending_accept', 'pending_shipment', 'rejected'],
        });
        expect(await pollIds(store, 'pending_accept')).toEqual([stored.id]);
        expect(await pollIds(store, 'pending_shipment')).toEqual([stored.id]);
        expect(await pollIds(store, 'pending_allocation')).toEqual([]);
        expect(await pollIds(store, 'failed')).toEqual([]);

        const allocated = await update(stored, (o) => ({
          ...o,
          items: o.items.map((i) =>
            i.status === 'pending_accept' ? { ...i, status: 'pending_allocation' } : i,
          ),
        }));
        expect(await pollIds(store, 'pending_accept')).toEqual([]);
        expect(await pollIds(store, 'pending_allocation')).toEqual([allocated.id]);
        expect(await pollIds(store, 'pending_shipment')).toEqual([allocated.id]);
      });

      it('a failed order is listed only in failed, and again in its queues once requeued', async () => {
        const store = await seedStore();
        const stored = await insert({ store_id: store.id, items: ['pending_allocation'] });
        const failed = await update(stored, (o) => ({
          ...o,
          failure: {
            stage: 'allocation',
            reason: 'no stock',
            abandoned: false,
            failed_at: FIXTURE_TIME,
          },
        }));
        expect(failed.status).toBe('failed');
        expect(await pollIds(store, 'failed')).toEqual([stored.id]);
        for (const queue of [
          'pending_accept',
          'pending_allocation',
          'pending_shipment',
          'pending_invoice',
        ] as const) {
          expect(await pollIds(store, queue)).toEqual([]);
        }
        const [polled] = await poll(store, 'failed');
        expect(polled?.failure).toEqual(failed.failure);

        await update(failed, (o) => ({ ...o, failure: null }));
        expect(await pollIds(store, 'failed')).toEqual([]);
        expect(await pollIds(store, 'pending_allocation')).toEqual([stored.id]);
      });

      it('an order whose items are all invoiced or rejected leaves every queue', async () => {
        const store = await seedStore();
        const stored = await insert({
          store_id: store.id,
          items: ['pending_invoice', 'pending_invoice'],
        });
        expect(await pollIds(store, 'pending_invoice')).toEqual([stored.id]);
        await update(stored, (o) => ({
          ...o,
          items: o.items.map((i, index) =>
            index === 0
              ? { ...i, status: 'invoiced', invoice_number: 'INV-1' }
              : { ...i, status: 'rejected' },
          ),
        }));
        for (const queue of [
          'pending_accept',
          'pending_allocation',
          'pending_shipment',
          'pending_invoice',
          'failed',
        ] as const) {
          expect(await pollIds(store, queue)).toEqual([]);
        }
      });

      it('countQueues counts the orders each queue of each store lists', async () => {
        const store = await seedStore();
        const other = await seedStore('other');
        expect(await read((tx) => tx.countQueues())).toEqual([]);
        await insert({ store_id: store.id, items: ['pending_accept', 'pending_shipment'] });
        await insert({ store_id: store.id, items: ['pending_accept'] });
        await insert({ store_id: store.id, items: ['invoiced'] });
        await insert({ store_id: other.id, items: ['pending_invoice'] });
        const counts = await read((tx) => tx.countQueues());
        const sorted = [...counts].sort(
          (a, b) => a.store_id - b.store_id || a.queue.localeCompare(b.queue),
        );
        expect(sorted).toEqual([
          { store_id: store.id, queue: 'pending_accept', orders: 2 },
          { store_id: store.id, queue: 'pending_shipment', orders: 1 },
          { store_id: other.id, queue: 'pending_invoice', orders: 1 },
        ]);
      });

      it('the stored documents follow every action: accept, allocate, ship, invoice, fail, requeue, cancel', async () => {
        const store = await seedStore();
        const settings = storeSettings({ partial_items: true });
        const context = (now: Timestamp) => ({ now, settings });
        const warehouses = await read((tx) => tx.listWarehouses(store.id));
        const placed = await insert({
          store_id: store.id,
          items: [
            item('SKU-1', { qty: 2 }),
            item('SKU-2', { qty: 1, amounts: { price: 99_999, total_price: 99_999 } }),
            item('SKU-3', { qty: 4, amounts: {} }),
          ],
        });
        const [one, two, three] = placed.items.map((line) => ({ item_id: line.id }));
        if (!one || !two || !three) throw new Error('fixture');
        const id = placed.fulfillment_order_number;
        const at = (minute: number): Timestamp =>
          `2026-02-01 10:${String(minute).padStart(2, '0')}:00`;

        const accepted = await act(placed, (o) =>
          accept(
            o,
            {
              order_id: id,
              items: [
                { ...one, qty: 2 },
                { ...two, qty: 1 },
              ],
            },
            context(at(1)),
          ),
        );
        const allocated = await act(accepted, (o) =>
          allocate(o, { order_id: id, items: [one] }, { ...context(at(2)), warehouses }),
        );
        const shipped = await act(allocated, (o) =>
          ship(
            o,
            {
              order_id: id,
              items: [one],
              tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z' }],
            },
            context(at(3)),
          ),
        );
        const invoiced = await act(shipped, (o) =>
          invoice(o, { order_id: id, items: [one], invoice_number: 'INV-1' }, context(at(4))),
        );
        const failed = await act(invoiced, (o) => fail(o, 'flooded', at(5)));
        expect(await pollIds(store, 'failed')).toEqual([placed.id]);
        const requeued = await act(failed, (o) => requeue(o, at(6)));
        expect(await pollIds(store, 'failed')).toEqual([]);
        const canceled = await act(requeued, (o) => cancel(o, at(7)));
        for (const queue of [...ACTIVE_QUEUES, 'failed'] as const) {
          expect(await pollIds(store, queue)).toEqual([]);
        }
        expect(canceled.updated_at).toBe(at(7));
      });

      it('pollQueue pages by id: full pages, a short last page, then []', async () => {
        const store = await seedStore();
        const ids: number[] = [];
        for (let i = 0; i < 7; i++) ids.push((await insert({ store_id: store.id })).id);
        // Orders in another queue and another store never show.
        await insert({ store_id: store.id, items: ['pending_shipment'] });
        const other = await seedStore('other');
        await insert({ store_id: other.id });

        const page = (n: number) => pollIds(store, 'pending_accept', { page: n, page_size: 3 });
        expect(await page(1)).toEqual(ids.slice(0, 3));
        expect(await page(2)).toEqual(ids.slice(3, 6));
        expect(await page(3)).toEqual(ids.slice(6));
        expect(await page(4)).toEqual([]);
        expect(await page(50)).toEqual([]);
        expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      });

      it('pollQueue returns whole orders: items, shipments and invoices included', async () => {
        const store = await seedStore();
        const a = await insert({
          store_id: store.id,
          items: ['pending_shipment', 'pending_shipment'],
        });
        const b = await insert({ store_id: store.id, items: ['pending_shipment'] });
        const shipped = await update(a, (o) => ({
          ...o,
          items: o.items.map((i, index) => (index === 0 ? { ...i, status: 'pending_invoice' } : i)),
          shipments: [
            {
              id: 0,
              items: [{ item_id: o.items[0]?.id ?? 0, qty: 2 }],
              tracks: [],
              created_at: FIXTURE_TIME,
            },
          ],
        }));
        expect(await poll(store, 'pending_shipment')).toEqual([shipped, b]);
        expect(await poll(store, 'pending_invoice')).toEqual([shipped]);
      });

      it('pollQueue `since` keeps orders updated at or after it (inclusive)', async () => {
        const store = await seedStore();
        const early = await insert({ store_id: store.id, updated_at: '2026-01-01 09:59:59' });
        const exact = await insert({ store_id: store.id, updated_at: '2026-01-01 10:00:00' });
        const late = await insert({ store_id: store.id, updated_at: '2026-01-02 00:00:00' });
        expect(await pollIds(store, 'pending_accept', { since: '2026-01-01 10:00:00' })).toEqual([
          exact.id,
          late.id,
        ]);
        expect(await pollIds(store, 'pending_accept', { since: '2026-01-03 00:00:00' })).toEqual(
          [],
        );
        expect(await pollIds(store, 'pending_accept', { since: null })).toEqual([
          early.id,
          exact.id,
          late.id,
        ]);
        // saveOrder moves the order's `updated_at` in the queue too.
        await update(early, (o) => ({ ...o, updated_at: '2026-01-05 00:00:00' }));
        expect(await pollIds(store, 'pending_accept', { since: '2026-01-04 00:00:00' })).toEqual([
          early.id,
        ]);
      });

      it('pollQueue filters by order-level warehouse', async () => {
        const store = await seedStore();
        const a = await insert({ store_id: store.id, warehouse_code: 'WH-A' });
        const b = await insert({ store_id: store.id, warehouse_code: 'WH-B' });
        const c = await insert({ store_id: store.id, warehouse_code: 'WH-C' });
        expect(await pollIds(store, 'pending_accept', { warehouses: ['WH-B'] })).toEqual([b.id]);
        expect(await pollIds(store, 'pending_accept', { warehouses: ['WH-C', 'WH-A'] })).toEqual([
          a.id,
          c.id,
        ]);
        expect(await pollIds(store, 'pending_accept', { warehouses: [] })).toEqual([]);
        expect(await pollIds(store, 'pending_accept', { warehouses: null })).toEqual([
          a.id,
          b.id,
          c.id,
        ]);
      });
    });

    // ── sequences ────────────────────────────────────────────────────────────────────────

    describe('nextFulfillmentSequence', () => {
      it('counts 1, 2, 3 per sales order and store', async () => {
        const store = await seedStore();
        const other = await seedStore('other');
        const next = (storeId: number, number: string) =>
          write((tx) => tx.nextFulfillmentSequence(storeId, number));
        expect(await next(store.id, 'S-1')).toBe(1);
        expect(await next(store.id, 'S-1')).toBe(2);
        expect(await next(store.id, 'S-2')).toBe(1);
        expect(await next(other.id, 'S-1')).toBe(1);
        expect(await next(store.id, 'S-1')).toBe(3);
      });

      it('knownSalesOrders names the sales orders whose sequence was claimed, per store', async () => {
        const store = await seedStore();
        const other = await seedStore('other');
        await write(async (tx) => {
          await tx.nextFulfillmentSequence(store.id, 'S-1');
          await tx.nextFulfillmentSequence(store.id, 'S-3');
          await tx.nextFulfillmentSequence(other.id, 'S-2');
        });
        const many = Array.from({ length: 1200 }, (_, i) => `X-${i}`);
        const known = await read((tx) =>
          tx.knownSalesOrders(store.id, ['S-1', 'S-2', 'S-3', 'S-1', ...many]),
        );
        expect([...known].sort()).toEqual(['S-1', 'S-3']);
        expect(await read((tx) => tx.knownSalesOrders(store.id, []))).toEqual([]);
      });

      it('never hands out one number twice under concurrency', async () => {
        const store = await seedStore();
        const numbers = await Promise.all(
          Array.from({ length: 20 }, () =>
            write((tx) => tx.nextFulfillmentSequence(store.id, 'S-1')),
          ),
        );
        expect([...numbers].sort((a, b) => a - b)).toEqual(
          Array.from({ length: 20 }, (_, i) => i + 1),
        );
      });
    });

    describe('claimFulfillmentSequences', () => {
      it('claims count numbers per sales order in one call, continuing each sequence', async () => {
        const store = await seedStore();
        const other = await seedStore('other');
        await write((tx) => tx.nextFulfillmentSequence(store.id, 'S-2'));
        const claim = (storeId: number, claims: { sales_order_number: string; count: number }[]) =>
          write((tx) => tx.claimFulfillmentSequences(storeId, claims));
        // Answered in the order given, whatever order the rows were written in.
        expect(
          await claim(store.id, [
            { sales_order_number: 'S-3', count: 1 },
            { sales_order_number: 'S-2', count: 2 },
            { sales_order_number: 'S-1', count: 3 },
          ]),
        ).toEqual([1, 2, 1]);
        expect(await write((tx) => tx.nextFulfillmentSequence(store.id, 'S-1'))).toBe(4);
        expect(await write((tx) => tx.nextFulfillmentSequence(store.id, 'S-2'))).toBe(4);
        expect(await claim(other.id, [{ sales_order_number: 'S-1', count: 1 }])).toEqual([1]);
        expect(await claim(store.id, [])).toEqual([]);
        const many = Array.from({ length: 2500 }, (_, i) => ({
          sales_order_number: `M-${i}`,
          count: 1 + (i % 2),
        }));
        expect(await claim(store.id, many)).toEqual(many.map(() => 1));
        expect(await claim(store.id, many.slice(0, 3))).toEqual([2, 3, 2]);
        const known = await read((tx) =>
          tx.knownSalesOrders(store.id, ['S-1', 'S-2', 'S-3', 'M-2499', 'S-4']),
        );
        expect([...known].sort()).toEqual(['M-2499', 'S-1', 'S-2', 'S-3']);
      });

      it('refuses a claim that names one sales order twice, writing nothing', async () => {
        const store = await seedStore();
        await expect(
          write((tx) =>
            tx.claimFulfillmentSequences(store.id, [
              { sales_order_number: 'S-1', count: 1 },
              { sales_order_number: 'S-1', count: 1 },
            ]),
          ),
        ).rejects.toThrow(/twice/);
        expect(await read((tx) => tx.knownSalesOrders(store.id, ['S-1']))).toEqual([]);
      });

      it('never hands out one number twice when racing itself and nextFulfillmentSequence', async () => {
        const store = await seedStore();
        const numbers = new Map<string, number[]>([
          ['S-1', []],
          ['S-2', []],
          ['S-3', []],
        ]);
        const got = (number: string, first: number, count: number) => {
          for (let n = first; n < first + count; n++) numbers.get(number)?.push(n);
        };
        await Promise.all(
          Array.from({ length: 24 }, async (_, i) => {
            if (i % 3 === 2) {
              got('S-2', await write((tx) => tx.nextFulfillmentSequence(store.id, 'S-2')), 1);
              return;
            }
            // Half of the batches name the sales orders in the other order.
            const claims = [
              { sales_order_number: 'S-1', count: 2 },
              { sales_order_number: 'S-2', count: 1 },
              { sales_order_number: 'S-3', count: 3 },
            ];
            if (i % 2 === 1) claims.reverse();
            const firsts = await write((tx) => tx.claimFulfillmentSequences(store.id, claims));
            for (const [index, claim] of claims.entries()) {
              got(claim.sales_order_number, firsts[index] as number, claim.count);
            }
          }),
        );
        const upTo = (last: number) => Array.from({ length: last }, (_, i) => i + 1);
        const sorted = (list: number[] | undefined) => [...(list ?? [])].sort((a, b) => a - b);
        expect(sorted(numbers.get('S-1'))).toEqual(upTo(16 * 2));
        expect(sorted(numbers.get('S-2'))).toEqual(upTo(16 + 8));
        expect(sorted(numbers.get('S-3'))).toEqual(upTo(16 * 3));
      });
    });

    // ── courier ──────────────────────────────────────────────────────────────────────────

    describe('listCourierDue', () => {
      it('lists due pending_shipment orders at courier warehouses, oldest due first', async () => {
        const store = await seedStore();
        const other = await seedStore('other');
        const due = (at: Timestamp | null) => ({
          attempts: 0,
          last_error: null,
          next_attempt_at: at,
        });
        const courierOrder = (at: Timestamp | null, overrides: Partial<FulfillmentOrder> = {}) =>
          insert({
            store_id: store.id,
            warehouse_code: 'WH-C',
            items: ['pending_shipment'],
            courier: due(at),
            ...overrides,
          });
        const later = await courierOrder('2026-01-15 10:00:00');
        const earlier = await courierOrder('2026-01-15 09:00:00');
        const exactlyNow = await courierOrder('2026-01-15 11:00:00');
        const otherStore = await insert({
          store_id: other.id,
          warehouse_code: 'WH-C',
          items: ['pending_shipment'],
          courier: due('2026-01-15 09:30:00'),
        });
        // Not due, not planned, not at a courier warehouse, not in pending_shipment, or failed.
        await courierOrder('2026-01-15 11:00:01');
        await courierOrder(null);
        await insert({
          store_id: store.id,
          warehouse_code: 'WH-A',
          items: ['pending_shipment'],
          courier: due('2026-01-15 09:00:00'),
        });
        await courierOrder('2026-01-15 09:00:00', {
          items: [item('X', { status: 'pending_invoice', warehouse_code: 'WH-C' })],
        });
        await courierOrder('2026-01-15 09:00:00', {
          failure: { stage: 'shipment', reason: 'x', abandoned: false, failed_at: FIXTURE_TIME },
        });

        const now = '2026-01-15 11:00:00';
        expect(await read((tx) => tx.listCourierDue(now, 10))).toEqual([
          earlier.id,
          otherStore.id,
          later.id,
          exactlyNow.id,
        ]);
        expect(await read((tx) => tx.listCourierDue(now, 2))).toEqual([earlier.id, otherStore.id]);
      });
    });

    // ── audit ────────────────────────────────────────────────────────────────────────────

    describe('audit', () => {
      it('listAudit returns the order trail oldest first, details intact', async () => {
        const store = await seedStore();
        const a = await insert({ store_id: store.id });
        const b = await insert({ store_id: store.id });
        await write((tx) =>
          tx.appendAudit([
            {
              order_id: a.id,
              at: '2026-01-15 10:00:00',
              actor: 'partner-a',
              action: 'accept',
              details: { items: [1, 2] },
            },
            {
              order_id: b.id,
              at: '2026-01-15 10:00:00',
              actor: 'erp',
              action: 'allocate',
              details: {},
            },
          ]),
        );
        await write((tx) =>
          tx.appendAudit([
            // Same second as the first event: the order of appending decides.
            {
              order_id: a.id,
              at: '2026-01-15 10:00:00',
              actor: 'partner-a',
              action: 'ship',
              details: { tracks: [{ n: 'X' }], note: null },
            },
          ]),
        );
        const trail = await read((tx) => tx.listAudit(a.id));
        expect(trail.map((e) => e.action)).toEqual(['accept', 'ship']);
        expect(trail[0]).toEqual({
          id: expect.any(Number),
          order_id: a.id,
          at: '2026-01-15 10:00:00',
          actor: 'partner-a',
          action: 'accept',
          details: { items: [1, 2] },
        });
        expect(trail[1]?.details).toEqual({ tracks: [{ n: 'X' }], note: null });
        expect(await read((tx) => tx.listAudit(b.id))).toHaveLength(1);
        expect(await read((tx) => tx.listAudit(b.id + 1000))).toEqual([]);
      });
    });
  });
}
