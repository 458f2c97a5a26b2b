import {
  type CarrierAccounts,
  createEngine,
  type Engine,
  ManualClock,
  type StoreSettings,
  unverified,
} from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { builtInCouriers } from '../../src/couriers/registry.js';
import { type FakeHttpCourier, startFakeHttpCourier } from './fake-http-courier.js';

/**
 * docs/couriers.md: the installation's carrier accounts are an engine option; a store picks one
 * by name. A store set up before carrier accounts keeps its fields, and ships only through an
 * account the installation declares with exactly its type, URL and secret variable.
 */

const SECRET = 'bridge-secret-0123456789abcdef';
const ENV = { BRIDGE_SECRET: SECRET };
const NONE = { shipped: [], retrying: [], failed: [], voided: [], void_failed: [] };

let engine: Engine | undefined;
let bridge: FakeHttpCourier | undefined;
afterEach(async () => {
  await engine?.close();
  await bridge?.close();
  engine = bridge = undefined;
});

async function open(carrierAccounts: CarrierAccounts = {}) {
  const repository = await openSqliteRepository(':memory:');
  engine = createEngine({
    repository,
    clock: new ManualClock('2026-06-01T09:00:00Z'),
    couriers: builtInCouriers(ENV),
    carrierAccounts,
  });
  await engine.loadSeed({
    stores: [
      {
        code: 'default',
        warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
        stock: [{ warehouse_code: 'HQ', sku: 'SKU-1', qty: 10 }],
        orders: [fixtures.salesOrder('800', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'HQ' })],
      },
    ],
  });
  const [item] = (await engine.getOrder('default', '800-1')).items;
  await engine.allocate(engine.operator('default'), {
    allocation: { order_id: '800-1', items: [{ item_id: item?.id as number }] },
  });
  return { engine, repository };
}

/** What the release before carrier accounts stored for a store that a store admin set up. */
async function storeLegacySettings(
  repository: SqliteRepository,
  courier: Record<string, unknown>,
): Promise<void> {
  await repository.transaction(async (tx) => {
    const store = await tx.findStore('default');
    const settings = store?.settings as StoreSettings;
    await tx.upsertStore('default', {
      ...settings,
      courier: { ...settings.courier, max_attempts: 1, ...courier },
    } as StoreSettings);
  });
}

describe('the installation declares its carrier accounts', () => {
  it('a store ships through the account it picks, at the URL and with the secret the account names', async () => {
    bridge = await startFakeHttpCourier(SECRET);
    const { engine } = await open({
      bridge: { type: 'http', url: bridge.url, secret_env: 'BRIDGE_SECRET' },
    });
    const store = await engine.upsertStore('default', { courier: { account: 'bridge' } });
    expect(store.settings.courier).toMatchObject({ type: 'http', account: 'bridge' });
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, shipped: ['800-1'] });
    expect(bridge.requests.map((request) => [request.path, request.status])).toEqual([
      ['/shipments', 201],
    ]);
  });

  it('the embedded engine refuses a store that names a URL or a variable, or an account it lacks', async () => {
    const { engine } = await open({ bridge: { type: 'http', url: 'https://bridge.example' } });
    await expect(
      engine.upsertStore(
        'default',
        unverified({
          courier: { type: 'http', url: 'http://169.254.169.254/', secret_env: 'AWS_SECRET' },
        }),
      ),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      parameters: [
        { fieldName: 'settings.courier.secret_env', fieldValue: 'AWS_SECRET' },
        { fieldName: 'settings.courier.url', fieldValue: 'http://169.254.169.254/' },
      ],
    });
    await expect(
      engine.upsertStore('default', { courier: { account: 'elsewhere' } }),
    ).rejects.toThrow(/Declared: bridge/);
    await expect(engine.upsertStore('default', { courier: { type: 'http' } })).rejects.toThrow(
      /carrier account/,
    );
    expect((await engine.getStore('default')).settings.courier.type).toBe('simulated');
  });

  it('a seed file is held to the same: the error names the path', async () => {
    const { engine } = await open();
    const seed = (courier: unknown) =>
      unverified({ stores: [{ code: 'second', settings: { courier } }] });
    await expect(
      engine.loadSeed(seed({ type: 'shipengine', api_key_env: 'SHIPENGINE_API_KEY' })),
    ).rejects.toMatchObject({
      code: 'invalid_seed',
      parameters: [{ fieldName: 'stores[0].settings.courier.api_key_env' }],
    });
    await expect(engine.loadSeed(seed({ account: 'nowhere' }))).rejects.toMatchObject({
      code: 'invalid_seed',
      parameters: [{ fieldName: 'stores[0].settings.courier.account', fieldValue: 'nowhere' }],
    });
    expect((await engine.listStores()).map((store) => store.code)).toEqual(['default']);
  });

  it('an account of a type no courier is registered for, or a malformed one, stops createEngine', async () => {
    const repository = await openSqliteRepository(':memory:');
    try {
      expect(() =>
        createEngine({ repository, carrierAccounts: { mail: { type: 'pigeon' } } }),
      ).toThrow(/carrier account "mail" is of type "pigeon"/);
      expect(() =>
        createEngine({
          repository,
          couriers: builtInCouriers(ENV),
          carrierAccounts: { bridge: { type: 'http', url: 'ftp://bridge' } },
        }),
      ).toThrow(/carrierAccounts.bridge.url/);
    } finally {
      await repository.close();
    }
  });
});

describe('a store set up before carrier accounts', () => {
  it('sends nothing where its settings point until the installation declares exactly that account', async () => {
    bridge = await startFakeHttpCourier(SECRET);
    const { engine, repository } = await open();
    await storeLegacySettings(repository, {
      type: 'http',
      url: bridge.url,
      secret_env: 'BRIDGE_SECRET',
    });
    expect(await engine.dispatchCourier()).toEqual({ ...NONE, failed: ['800-1'] });
    expect(bridge.requests).toEqual([]);
    const { failure, audit } = await engine.getOrderHistory('default', '800-1');
    expect(failure?.reason).toContain('[courier_not_configured]');
    expect(failure?.reason).toContain(`url ${bridge.url}, secret in BRIDGE_SECRET`);
    expect(audit.at(-1)?.details).toMatchObject({ carrier: { code: 'courier_not_configured' } });
  });

  it('ships through the declared account of the same type, URL and variable, and keeps its fields', async () => {
    bridge = await startFakeHttpCourier(SECRET);
    const other = await startFakeHttpCourier(SECRET);
    try {
      const { engine, repository } = await open({
        // Same type and variable, another URL: not the store's.
        elsewhere: { type: 'http', url: other.url, secret_env: 'BRIDGE_SECRET' },
        bridge: { type: 'http', url: `${bridge.url}/`, secret_env: 'BRIDGE_SECRET' },
      });
      await storeLegacySettings(repository, {
        type: 'http',
        url: bridge.url,
        secret_env: 'BRIDGE_SECRET',
      });
      expect(await engine.dispatchCourier()).toEqual({ ...NONE, shipped: ['800-1'] });
      expect(bridge.requests.map((request) => request.path)).toEqual(['/shipments']);
      expect(other.requests).toEqual([]);
      expect((await engine.getStore('default')).settings.courier).toMatchObject({
        url: bridge.url,
        secret_env: 'BRIDGE_SECRET',
      });
    } finally {
      await other.close();
    }
  });

  it('its settings written back as read change nothing; another URL is refused; picking an account drops them', async () => {
    const { engine, repository } = await open({
      bridge: { type: 'http', url: 'https://bridge.example', secret_env: 'BRIDGE_SECRET' },
    });
    await storeLegacySettings(repository, {
      type: 'http',
      url: 'https://old-bridge.example',
      secret_env: 'BRIDGE_SECRET',
    });
    const read = await engine.getStore('default');
    // What the console does: every setting back, one of them changed.
    const written = await engine.upsertStore(
      'default',
      unverified({ ...read.settings, partial_items: true }),
    );
    expect(written.settings).toEqual({ ...read.settings, partial_items: true });
    await expect(
      engine.upsertStore('default', unverified({ courier: { url: 'https://evil.example' } })),
    ).rejects.toMatchObject({ parameters: [{ fieldName: 'settings.courier.url' }] });
    const picked = await engine.upsertStore('default', { courier: { account: 'bridge' } });
    expect(picked.settings.courier).toEqual({
      type: 'http',
      account: 'bridge',
      fail_skus: [],
      max_attempts: 1,
      delay_ms: 0,
    });
  });
});
