import { createHash } from 'node:crypto';
import { FULFILLMENT_ACTIONS, INVENTORY_ACTIONS } from '@fulfil/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { domainError, fieldNames, type Harness, openHarness, SECRETS } from './harness.js';

const sha256 = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/**
 * docs/behaviour.md: tokens. Opaque secrets shown once and stored as SHA-256 hashes, bound to one
 * store, with an ACL, an optional warehouse scope and expiry, revocable.
 */
describe('docs/behaviour.md: tokens and access', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness();
  });
  afterEach(() => h.engine.close());

  async function expectUnauthenticated(store: string, secret: string | null) {
    const error = await domainError(h.engine.authenticate(store, secret));
    expect(error.code).toBe('unauthenticated');
  }

  it('docs/behaviour.md: createToken returns the secret once; it is stored only as its SHA-256 hash', async () => {
    const created = await h.engine.createToken('default', { name: 'ops', acl: 'all' });
    const other = await h.engine.createToken('default', { name: 'ops-2', acl: 'all' });
    // >= 32 bytes of entropy: 43+ base64url characters, different each time.
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(other.token).not.toBe(created.token);
    expect(created.info).toMatchObject({ name: 'ops', store_code: 'default', warehouses: null });
    expect(created.info).not.toHaveProperty('hash');
    expect(JSON.stringify(created.info)).not.toContain(created.token);

    const stored = JSON.stringify(await h.snapshot());
    expect(stored).not.toContain(created.token);
    expect(stored).toContain(sha256(created.token));
  });

  it('docs/behaviour.md: listTokens never shows secrets or hashes', async () => {
    const created = await h.engine.createToken('default', { name: 'ops', acl: 'erp' });
    const tokens = await h.engine.listTokens('default');
    expect(tokens.map((token) => token.name)).toEqual(['erp', 'ops', 'partner-a', 'partner-b']);
    const listed = JSON.stringify(tokens);
    for (const secret of [created.token, ...Object.values(SECRETS)]) {
      expect(listed).not.toContain(secret);
      expect(listed).not.toContain(sha256(secret));
    }
    for (const token of tokens) {
      expect(token).not.toHaveProperty('hash');
      expect(token).not.toHaveProperty('token');
    }
    expect(tokens.find((token) => token.name === 'partner-a')).toMatchObject({
      warehouses: ['WH-A'],
      revoked_at: null,
      expires_at: null,
    });
  });

  it('docs/behaviour.md: authenticate with the secret gives the principal of the token', async () => {
    const created = await h.engine.createToken('default', {
      name: 'scoped',
      acl: 'partner',
      warehouses: ['WH-B'],
    });
    const principal = await h.engine.authenticate('default', created.token);
    expect(principal).toMatchObject({
      store_code: 'default',
      name: 'scoped',
      warehouses: ['WH-B'],
    });
    expect([...principal.resources].sort()).toEqual(
      [
        'Fulfil_FulfillmentOrder::api_accept',
        'Fulfil_FulfillmentOrder::api_accept_cancellation',
        'Fulfil_FulfillmentOrder::api_pending_cancellation',
        'Fulfil_FulfillmentOrder::api_reject_cancellation',
        'Fulfil_FulfillmentOrder::api_failed',
        'Fulfil_FulfillmentOrder::api_pending_accept',
        'Fulfil_FulfillmentOrder::api_pending_shipment',
        'Fulfil_FulfillmentOrder::api_reject',
        'Fulfil_FulfillmentOrder::api_ship',
        'Fulfil_Inventory::api_stock_adjust',
        'Fulfil_Inventory::api_stock_items',
        'Fulfil_Inventory::api_warehouses',
        'Fulfil_Return::api_pending_receipt',
        'Fulfil_Return::api_receive',
      ].sort(),
    );
    // The seeded tokens authenticate too.
    expect((await h.engine.authenticate('default', SECRETS.erp)).warehouses).toBeNull();
  });

  it('docs/behaviour.md: a missing or unknown secret → unauthenticated', async () => {
    await expectUnauthenticated('default', null);
    await expectUnauthenticated('default', '');
    await expectUnauthenticated('default', `${SECRETS.partnerA}x`);
    await expectUnauthenticated('default', sha256(SECRETS.partnerA));
  });

  it('docs/behaviour.md: a revoked token (engine.revokeToken) → unauthenticated, at once; revoking twice is harmless', async () => {
    await h.engine.authenticate('default', SECRETS.partnerB);
    await h.engine.revokeToken('default', 'partner-b');
    await expectUnauthenticated('default', SECRETS.partnerB);
    await h.engine.revokeToken('default', 'partner-b');
    await expectUnauthenticated('default', SECRETS.partnerB);
    // Only that token.
    await h.engine.authenticate('default', SECRETS.partnerA);
    const listed = await h.engine.listTokens('default');
    expect(listed.find((token) => token.name === 'partner-b')?.revoked_at).toBe(
      '2026-03-01 09:00:00',
    );
    expect((await domainError(h.engine.revokeToken('default', 'nobody'))).code).toBe('not_found');
  });

  it('docs/behaviour.md: an expired token → unauthenticated (already past, and when the clock reaches expiry)', async () => {
    const past = await h.engine.createToken('default', {
      name: 'past',
      acl: 'erp',
      expires_at: '2026-03-01 08:59:59',
    });
    await expectUnauthenticated('default', past.token);

    const soon = await h.engine.createToken('default', {
      name: 'soon',
      acl: 'erp',
      expires_at: '2026-03-01 10:00:00',
    });
    expect((await h.engine.authenticate('default', soon.token)).name).toBe('soon');
    h.clock.set('2026-03-01T09:59:59Z');
    expect((await h.engine.authenticate('default', soon.token)).name).toBe('soon');
    h.clock.set('2026-03-01T10:00:01Z');
    await expectUnauthenticated('default', soon.token);
  });

  it("docs/behaviour.md: another store's token → unauthenticated, in both directions", async () => {
    await h.engine.upsertStore('eu');
    await h.engine.upsertWarehouse('eu', { code: 'EU-1', name: 'Europe' });
    const eu = await h.engine.createToken('eu', {
      name: 'partner-a',
      acl: 'partner',
      warehouses: ['EU-1'],
    });
    expect(await h.engine.authenticate('eu', eu.token)).toMatchObject({
      store_code: 'eu',
      name: 'partner-a',
    });
    await expectUnauthenticated('default', eu.token);
    await expectUnauthenticated('eu', SECRETS.partnerA);
    await expectUnauthenticated('no-such-store', SECRETS.partnerA);
  });

  it('docs/behaviour.md: authorize throws forbidden naming the missing resource', async () => {
    const error = await domainError(async () => h.engine.authorize(h.partnerA, 'allocate'));
    expect(error.code).toBe('forbidden');
    expect(error.parameters).toEqual([{ resources: 'Fulfil_FulfillmentOrder::api_allocate' }]);

    const stock = await domainError(async () => h.engine.authorize(h.erp, 'stock_items'));
    expect(stock.parameters).toEqual([{ resources: 'Fulfil_Inventory::api_stock_items' }]);

    // The presets grant exactly their actions.
    const grants = (principal: Harness['partnerA']) =>
      [...FULFILLMENT_ACTIONS, ...INVENTORY_ACTIONS].filter((action) => {
        try {
          h.engine.authorize(principal, action);
          return true;
        } catch {
          return false;
        }
      });
    expect(grants(h.partnerA).sort()).toEqual(
      [
        'pending_accept',
        'pending_shipment',
        'failed',
        'accept',
        'reject',
        'ship',
        'pending_cancellation',
        'accept_cancellation',
        'reject_cancellation',
        'warehouses',
        'stock_items',
        'stock_adjust',
      ].sort(),
    );
    expect(grants(h.erp).sort()).toEqual(
      [
        'pending_allocation',
        'pending_invoice',
        'failed',
        'allocate',
        'invoice',
        'warehouses',
      ].sort(),
    );
  });

  it('docs/behaviour.md: an ACL given as a list of resources grants exactly those', async () => {
    const created = await h.engine.createToken('default', {
      name: 'allocator',
      acl: [
        'Fulfil_FulfillmentOrder::api_allocate',
        'Fulfil_FulfillmentOrder::api_pending_allocation',
      ],
    });
    const principal = await h.engine.authenticate('default', created.token);
    expect(() => h.engine.authorize(principal, 'allocate')).not.toThrow();
    expect(() => h.engine.authorize(principal, 'pending_allocation')).not.toThrow();
    const error = await domainError(async () => h.engine.authorize(principal, 'invoice'));
    expect(error.code).toBe('forbidden');
    expect(error.parameters).toEqual([{ resources: 'Fulfil_FulfillmentOrder::api_invoice' }]);
  });

  it('docs/behaviour.md: token warehouses must exist in the store → invalid_request, nothing written', async () => {
    await h.engine.upsertStore('eu');
    await h.engine.upsertWarehouse('eu', { code: 'EU-1', name: 'Europe' });
    for (const warehouses of [['WH-Z'], ['WH-A', 'EU-1']]) {
      const before = await h.snapshot();
      const error = await domainError(
        h.engine.createToken('default', { name: 'bad', acl: 'partner', warehouses }),
      );
      expect(error.code).toBe('invalid_request');
      expect(fieldNames(error)).toEqual([`warehouses[${warehouses.length - 1}]`]);
      expect(await h.snapshot()).toEqual(before);
    }
  });

  it('docs/behaviour.md: a duplicate token name in the store → already_exists, the first token unchanged', async () => {
    const before = await h.snapshot();
    const error = await domainError(
      h.engine.createToken('default', { name: 'partner-a', acl: 'all' }),
    );
    expect(error.code).toBe('already_exists');
    expect(await h.snapshot()).toEqual(before);
    expect((await h.engine.authenticate('default', SECRETS.partnerA)).resources).not.toContain(
      'Fulfil_FulfillmentOrder::api_invoice',
    );
  });

  it('docs/behaviour.md: a malformed token spec → invalid_request naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', acl: 'admin' }, 'acl'],
      [{ name: 'x', acl: [] }, 'acl'],
      [{ name: 'x', acl: 'erp', token: 'too-short' }, 'token'],
      [{ name: 'x', acl: 'erp', expires_at: '2026-03-01T10:00:00Z' }, 'expires_at'],
      [{ name: '', acl: 'erp' }, 'name'],
    ];
    for (const [spec, field] of cases) {
      const error = await domainError(h.engine.createToken('default', spec));
      expect(error.code, JSON.stringify(spec)).toBe('invalid_request');
      expect(fieldNames(error), JSON.stringify(spec)).toContain(field);
    }
  });
});
