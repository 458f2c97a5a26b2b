import { expect, type TestContext } from 'vitest';
import type { ActionOutcome } from '../../domain/actions/outcome.js';
import type { ChangeHorizon } from '../../domain/change-cursor.js';
import { ACTIVE_QUEUES } from '../../domain/item-stage.js';
import { deriveOrderStatus } from '../../domain/order-status.js';
import { presentOrder } from '../../domain/present.js';
import type { FulfillmentOrder, QueueName, Store } from '../../domain/types.js';
import type { PollQuery, Repository, RepositoryTx } from '../../ports/repository.js';
import { order, storeSettings, warehouse } from '../fixtures.js';
import { skipTest } from '../skip.js';

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
 * What every part of the contract works with: the repository of the running test, and the
 * helpers that act on it as a use case would.
 */
export type ContractHarness = ReturnType<typeof contractHarness>;

/** The helpers over `repository()`, which answers the running test's fresh repository. */
export function contractHarness(
  repository: () => Repository,
  openAnother: () => RepositoryUnderTest['openAnother'],
) {
  const write = <T>(work: (tx: RepositoryTx) => Promise<T>): Promise<T> =>
    repository().transaction(work);
  const read = <T>(work: (tx: RepositoryTx) => Promise<T>): Promise<T> =>
    repository().transaction(work, 'read');

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
        const [orders, documents, entries, versions] = await read(
          async (tx) =>
            [
              await tx.pollQueue(query),
              await tx.pollDocuments(query),
              await tx.pollEntries(query),
              await tx.pollVersions(query),
            ] as const,
        );
        expect(documents).toEqual(
          orders.map((stored) => JSON.stringify(presentOrder(stored, { queue }))),
        );
        // The same page with the changes that wrote it, and its versions alone.
        expect(entries.map((entry) => [entry.order_id, entry.document])).toEqual(
          orders.map((stored, index) => [stored.id, documents[index]]),
        );
        expect(versions.entries).toEqual(
          entries.map(({ order_id, change }) => ({ order_id, change })),
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

  /**
   * The change horizon once it has passed every change committed before the call. On Postgres
   * the horizon is the cluster's oldest running transaction: another connection's (another
   * test's, on a shared server) holds it back a moment, and a reader that did not wait would
   * see those changes later rather than now.
   */
  const settledHorizon = async (): Promise<ChangeHorizon> => {
    const { newest } = await read((tx) => tx.changeHorizon());
    for (let attempt = 0; ; attempt++) {
      const horizon = await read((tx) => tx.changeHorizon());
      if (horizon.horizon >= newest || attempt >= 400) return horizon;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  /**
   * Another repository on the same database, closed by the caller; the running test is skipped,
   * saying why, where the adapter cannot open one (an in-memory database).
   */
  const anotherOrSkip = async (context: TestContext): Promise<Repository | undefined> => {
    const open = openAnother();
    if (open) return open();
    return skipTest(
      context,
      'needs a second connection to the same database, which this adapter cannot open (an in-memory database)',
    );
  };

  return {
    repository,
    /** Another connection to the same database, when the adapter can open one. */
    get openAnother() {
      return openAnother();
    },
    anotherOrSkip,
    settledHorizon,
    write,
    read,
    seedStore,
    expectFreshDocuments,
    insert,
    poll,
    pollIds,
    update,
    act,
  };
}
