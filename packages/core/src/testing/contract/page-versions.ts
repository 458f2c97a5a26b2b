import { describe, expect, it } from 'vitest';
import type { Store } from '../../domain/types.js';
import { createEngine } from '../../engine.js';
import type { PollQuery, Repository } from '../../ports/repository.js';
import { order } from '../fixtures.js';
import { skipTest } from '../skip.js';
import type { ContractHarness } from './harness.js';

/**
 * The repository contract: a page's versions (`pollVersions`), which the engine's document cache
 * trusts to tell it exactly when a document it holds is no longer the stored one.
 */
export function pageVersionsContract(h: ContractHarness): void {
  const { read, seedStore, insert, update } = h;

  const pageQuery = (store: Store, overrides: Partial<PollQuery> = {}): PollQuery => ({
    store_id: store.id,
    queue: 'pending_accept',
    page: 1,
    page_size: 100,
    since: null,
    warehouses: null,
    ...overrides,
  });

  /** Engines over `repository` with the document cache on and off, and the store's operator. */
  const enginesOver = (repository: Repository, store: Store) => {
    const cached = createEngine({ repository });
    const plain = createEngine({ repository, documentCacheBytes: 0 });
    return { cached, plain, operator: cached.operator(store.code) };
  };

  describe('page versions (pollVersions)', () => {
    it('name the orders of pollEntries, in id order, each with the change that wrote it', async () => {
      const store = await seedStore();
      for (let i = 0; i < 4; i++) await insert({ store_id: store.id, warehouse_code: 'WH-A' });
      await insert({ store_id: store.id, warehouse_code: 'WH-B' });
      for (const overrides of [{}, { warehouses: ['WH-B'] }, { page: 2, page_size: 2 }]) {
        const query = pageQuery(store, overrides);
        const [{ horizon, entries }, stored, before] = await read(async (tx) => {
          const before = await tx.changeHorizon();
          return [await tx.pollVersions(query), await tx.pollEntries(query), before] as const;
        });
        expect(entries).toEqual(stored.map(({ order_id, change }) => ({ order_id, change })));
        expect(entries.map((entry) => entry.order_id)).toEqual(
          [...entries.map((entry) => entry.order_id)].sort((a, b) => a - b),
        );
        expect(horizon).toEqual(before);
      }
    });

    it('a scope of no warehouse names nothing and still gives the horizon', async () => {
      const store = await seedStore();
      await insert({ store_id: store.id });
      const { horizon, entries } = await read((tx) =>
        tx.pollVersions(pageQuery(store, { warehouses: [] })),
      );
      expect(entries).toEqual([]);
      expect(horizon).toEqual(await read((tx) => tx.changeHorizon()));
    });

    it('a rewritten entry has a new change; the entries left alone keep theirs', async () => {
      const store = await seedStore();
      const first = await insert({ store_id: store.id });
      await insert({ store_id: store.id });
      const before = (await read((tx) => tx.pollVersions(pageQuery(store)))).entries;
      await update(first, (o) => ({ ...o, customer_firstname: 'Grace' }));
      const after = (await read((tx) => tx.pollVersions(pageQuery(store)))).entries;
      expect(after[0]?.order_id).toBe(first.id);
      expect(after[0]?.change).not.toBe(before[0]?.change);
      expect(after[1]).toEqual(before[1]);
    });
  });

  describe('the queue version (queueVersion, where offered)', () => {
    it('moves after every write of the store’s queue entries, here or elsewhere, and never comes back', async (context) => {
      const store = await seedStore();
      const version = () => h.repository().queueVersion?.(store.id);
      if (version() === undefined) {
        skipTest(
          context,
          'this adapter cannot tell without a read (optional in the port: Postgres hears of other processes later)',
        );
      }
      const seen = [version()];
      // Nothing written: it stays.
      await read((tx) => tx.listStores());
      expect(version()).toBe(seen[0]);
      const first = await insert({ store_id: store.id });
      seen.push(version());
      await update(first, (o) => ({ ...o, customer_firstname: 'Grace' }));
      seen.push(version());
      const other = await h.openAnother?.();
      if (other) {
        try {
          await other.transaction((tx) => tx.insertOrder(order({ store_id: store.id })));
        } finally {
          await other.close();
        }
        seen.push(version());
      }
      expect(new Set(seen).size).toBe(seen.length);
    });
  });

  describe('the documents of named entries (entryDocuments)', () => {
    it('reads each entry named while its change still wrote it, and no other', async () => {
      const store = await seedStore();
      const first = await insert({ store_id: store.id });
      const second = await insert({ store_id: store.id });
      await insert({ store_id: store.id });
      const { entries } = await read((tx) => tx.pollVersions(pageQuery(store)));
      const stored = await read((tx) => tx.pollEntries(pageQuery(store)));
      const byId = (found: readonly { order_id: number }[]) =>
        [...found].sort((a, b) => a.order_id - b.order_id);
      expect(byId(await read((tx) => tx.entryDocuments('pending_accept', entries)))).toEqual(
        stored,
      );
      // The first rewritten, the second gone to another queue: only the third is as named.
      await update(first, (o) => ({ ...o, customer_firstname: 'Grace' }));
      await update(second, (o) => ({
        ...o,
        items: o.items.map((item) => ({ ...item, status: 'pending_allocation' as const })),
        status: 'pending_allocation',
      }));
      expect(await read((tx) => tx.entryDocuments('pending_accept', entries))).toEqual([stored[2]]);
      expect(await read((tx) => tx.entryDocuments('pending_allocation', entries))).toEqual([]);
      expect(await read((tx) => tx.entryDocuments('pending_accept', []))).toEqual([]);
    });
  });

  describe('the document cache over these versions', () => {
    it('answers every poll as the stored documents are, whichever connection wrote them', async () => {
      const store = await seedStore();
      const orders = [];
      for (let i = 0; i < 3; i++) orders.push(await insert({ store_id: store.id }));
      const [first, second, third] = orders;
      if (!first || !second || !third) throw new Error('fixture');
      const another = await h.openAnother?.();
      try {
        const writer = another ?? h.repository();
        const { cached, plain, operator } = enginesOver(h.repository(), store);
        // As a token's principal is: it knows its store, so a page answered before may be
        // answered again while the repository's queueVersion stays.
        const partner = { ...operator, store_id: store.id };
        const expectSame = async () => {
          const fresh = await plain.pollPage(operator, 'pending_accept');
          for (const principal of [partner, operator]) {
            const page = await cached.pollPage(principal, 'pending_accept');
            expect(page.documents).toEqual(fresh.documents);
            expect(Buffer.from(page.json ?? []).toString('utf8')).toBe(
              `[${fresh.documents.join(',')}]`,
            );
          }
          return fresh;
        };
        await expectSame();
        await expectSame();
        // A document rewritten by another connection: the next poll shows it, not the one held.
        await writer.transaction(async (tx) => {
          const locked = await tx.lockOrderById(first.id);
          if (!locked) throw new Error('fixture');
          return tx.saveOrder({ ...locked, customer_firstname: 'Grace' });
        });
        const renamed = await expectSame();
        expect(renamed.documents[0]).toContain('"Grace"');
        // An order that leaves the queue leaves the page; one that enters it appears.
        await update(second, (o) => ({
          ...o,
          items: o.items.map((item) => ({ ...item, status: 'pending_allocation' as const })),
          status: 'pending_allocation',
        }));
        const entered = await insert({ store_id: store.id });
        const moved = await expectSame();
        expect(moved.documents).toHaveLength(3);
        expect(moved.documents.join()).not.toContain(`"${second.fulfillment_order_number}"`);
        expect(moved.documents.at(-1)).toContain(`"${entered.fulfillment_order_number}"`);
      } finally {
        await another?.close();
      }
    });

    it('an empty page is `[]`', async () => {
      const store = await seedStore();
      const { cached, operator } = enginesOver(h.repository(), store);
      const page = await cached.pollPage(operator, 'pending_accept');
      expect(page.documents).toEqual([]);
      expect(Buffer.from(page.json ?? []).toString('utf8')).toBe('[]');
    });
  });
}
