import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME, token } from '../fixtures.js';
import type { ContractHarness } from './harness.js';

/** The repository contract: tokens. */
export function tokensContract(h: ContractHarness): void {
  const { write, read, seedStore } = h;

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
      // A token never used has no last use (admin-api).
      expect(a).toEqual({
        id: expect.any(Number),
        ...token(store.id, 'partner'),
        last_used_at: null,
      });
      expect(b).toEqual({ id: expect.any(Number), ...scoped, last_used_at: null });
      expect(a.id).not.toBe(b.id);
      expect(await read((tx) => tx.findTokenByHash(scoped.hash))).toEqual(b);
      expect(await read((tx) => tx.findTokenByHash('0'.repeat(64)))).toBeNull();
    });

    it("findStoreToken finds a token by its hash in its own store's code only", async () => {
      const store = await seedStore();
      const other = await seedStore('other');
      const own = await write((tx) => tx.insertToken(token(store.id, 'partner')));
      const revoked = await write((tx) =>
        tx.insertToken(
          token(store.id, 'old', { hash: 'e'.repeat(64), revoked_at: '2026-01-01 00:00:00' }),
        ),
      );
      expect(await read((tx) => tx.findStoreToken(own.hash, 'default'))).toEqual(own);
      // Revoked ones too: refusing them, with the reason, is the caller's.
      expect(await read((tx) => tx.findStoreToken(revoked.hash, 'default'))).toEqual(revoked);
      expect(await read((tx) => tx.findStoreToken(own.hash, other.code))).toBeNull();
      expect(await read((tx) => tx.findStoreToken(own.hash, 'nowhere'))).toBeNull();
      expect(await read((tx) => tx.findStoreToken('0'.repeat(64), 'default'))).toBeNull();
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
      expect(await write((tx) => tx.revokeToken(store.id, 'partner', '2026-02-01 00:00:00'))).toBe(
        true,
      );
      expect(await write((tx) => tx.revokeToken(store.id, 'partner', '2026-03-01 00:00:00'))).toBe(
        true,
      );
      expect(await read((tx) => tx.findTokenByHash(created.hash))).toEqual({
        ...created,
        revoked_at: '2026-02-01 00:00:00',
      });
      expect(await write((tx) => tx.revokeToken(store.id, 'nope', FIXTURE_TIME))).toBe(false);
      expect(await write((tx) => tx.revokeToken(other.id, 'partner', FIXTURE_TIME))).toBe(false);
    });
  });
}
