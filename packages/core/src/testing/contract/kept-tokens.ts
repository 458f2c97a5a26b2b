import { describe, expect, it, vi } from 'vitest';
import { token } from '../fixtures.js';
import { skipTest } from '../skip.js';
import type { ContractHarness } from './harness.js';

/**
 * The repository contract: `Repository.findStoreToken`, what authentication reads. An adapter
 * may answer it from tokens it read before, but never one older than what it has heard of.
 */
export function keptTokensContract(h: ContractHarness): void {
  const { write, read, seedStore } = h;
  const find = (hash: string, storeCode = 'default') =>
    h.repository().findStoreToken(hash, storeCode);

  describe('findStoreToken outside a transaction', () => {
    it('finds what the transaction’s findStoreToken finds, again and again', async () => {
      const store = await seedStore();
      await seedStore('other');
      const own = await write((tx) => tx.insertToken(token(store.id, 'partner')));
      for (let round = 0; round < 3; round++) {
        expect(await find(own.hash)).toEqual(own);
        expect(await find(own.hash, 'other')).toBeNull();
        expect(await find('0'.repeat(64))).toBeNull();
      }
      expect(await find(own.hash)).toEqual(
        await read((tx) => tx.findStoreToken(own.hash, 'default')),
      );
    });

    it('sees every write of a token through this repository at once', async () => {
      const store = await seedStore();
      const created = await write((tx) => tx.insertToken(token(store.id, 'partner')));
      expect(await find(created.hash)).toEqual(created);

      await write((tx) => tx.revokeToken(store.id, 'partner', '2026-02-01 00:00:00'));
      expect(await find(created.hash)).toMatchObject({ revoked_at: '2026-02-01 00:00:00' });

      const next = await write((tx) =>
        tx.insertToken(token(store.id, 'next', { hash: 'a'.repeat(64) })),
      );
      expect(await find(next.hash)).toEqual(next);
      await write((tx) => tx.retireToken(store.id, 'next', 'next~old', '2026-03-01 00:00:00'));
      expect(await find(next.hash)).toMatchObject({
        name: 'next~old',
        expires_at: '2026-03-01 00:00:00',
      });
    });

    it('sees a write of a token through another connection once it has heard of it', async (context) => {
      const other = await h.anotherOrSkip(context);
      if (!other) return;
      try {
        const store = await seedStore();
        const created = await write((tx) => tx.insertToken(token(store.id, 'partner')));
        expect(await find(created.hash)).toEqual(created);
        await other.transaction((tx) => tx.revokeToken(store.id, 'partner', '2026-02-01 00:00:00'));
        // At once on a SQLite file; on Postgres when the commit's notification arrives.
        await vi.waitFor(
          async () =>
            expect(await find(created.hash)).toMatchObject({ revoked_at: '2026-02-01 00:00:00' }),
          { timeout: 5_000, interval: 20 },
        );
      } finally {
        await other.close();
      }
    });
  });

  describe('onTokenChange', () => {
    it('tells of a token written through this repository once it has committed', async (context) => {
      const repository = h.repository();
      if (!repository.onTokenChange) {
        skipTest(context, 'this repository has no onTokenChange (optional in the port)');
        return;
      }
      const store = await seedStore();
      const created = await write((tx) => tx.insertToken(token(store.id, 'partner')));
      const seen: unknown[] = [];
      const stop = repository.onTokenChange(() => {
        seen.push(find(created.hash).then((record) => record?.revoked_at));
      });
      try {
        await expect(
          write(async (tx) => {
            await tx.revokeToken(store.id, 'partner', '2026-02-01 00:00:00');
            throw new Error('roll back');
          }),
        ).rejects.toThrow('roll back');
        const before = seen.length;
        await write((tx) => tx.revokeToken(store.id, 'partner', '2026-02-01 00:00:00'));
        // Told before the transaction's promise settles, and what it reads then is the commit's.
        expect(seen.length).toBeGreaterThan(before);
        expect(await seen[seen.length - 1]).toBe('2026-02-01 00:00:00');
      } finally {
        stop();
        // A notification heard late (Postgres) may have started a read: let it end before the
        // repository closes, or it fails unheard.
        await Promise.allSettled(seen);
      }
    });

    it('tells of a token written through another connection', async (context) => {
      const repository = h.repository();
      if (!repository.onTokenChange) {
        skipTest(context, 'this repository has no onTokenChange (optional in the port)');
        return;
      }
      const other = await h.anotherOrSkip(context);
      if (!other) return;
      const store = await seedStore();
      const created = await write((tx) => tx.insertToken(token(store.id, 'partner')));
      let calls = 0;
      const stop = repository.onTokenChange(() => {
        calls++;
      });
      try {
        // The first call says the watching has begun; only one after it can be the write's.
        await vi.waitFor(() => expect(calls).toBeGreaterThan(0), { timeout: 5_000, interval: 10 });
        const seen = calls;
        await other.transaction((tx) => tx.revokeToken(store.id, 'partner', '2026-02-01 00:00:00'));
        await vi.waitFor(() => expect(calls).toBeGreaterThan(seen), {
          timeout: 5_000,
          interval: 10,
        });
        expect(await find(created.hash)).toMatchObject({ revoked_at: '2026-02-01 00:00:00' });
      } finally {
        stop();
        await other.close();
      }
    });
  });
}
