import { describe, expect, it } from 'vitest';
import {
  type CarrierAccounts,
  patchCourier,
  resolveCarrier,
  withoutUnchangedCourierFields,
} from '../src/domain/carrier-accounts.js';
import type { StoreSettings } from '../src/domain/types.js';

/** docs/couriers.md: what a store may pick, and what its stored settings ship with. */

const ACCOUNTS: CarrierAccounts = {
  'se-us': { type: 'shipengine', secret_env: 'SE_US', stores: ['us'] },
  bridge: { type: 'http', url: 'https://bridge.example/', secret_env: 'BRIDGE' },
};

const stored = (courier: Partial<StoreSettings['courier']>): StoreSettings['courier'] => ({
  type: 'simulated',
  fail_skus: [],
  max_attempts: 3,
  delay_ms: 0,
  ...courier,
});

describe('resolveCarrier', () => {
  it('an account the store may pick; the simulated courier; nothing else', () => {
    expect(resolveCarrier(stored({ account: 'se-us' }), ACCOUNTS, 'us')).toEqual({
      name: 'se-us',
      account: ACCOUNTS['se-us'],
    });
    expect(resolveCarrier(stored({ account: 'se-us' }), ACCOUNTS, 'eu')).toEqual({
      problem: 'the carrier account "se-us" is not declared for store eu (declared: bridge)',
    });
    expect(resolveCarrier(stored({}), ACCOUNTS, 'eu')).toEqual({
      name: 'simulated',
      account: { type: 'simulated' },
    });
  });

  it('settings from before accounts ship through the account of exactly their type, URL and variable', () => {
    const legacy = stored({ type: 'http', url: 'https://bridge.example', secret_env: 'BRIDGE' });
    expect(resolveCarrier(legacy, ACCOUNTS, 'eu')).toMatchObject({ name: 'bridge' });
    // ShipEngine without base_url: the account without url; only for the stores it is open to.
    const shipengine = stored({ type: 'shipengine', api_key_env: 'SE_US' });
    expect(resolveCarrier(shipengine, ACCOUNTS, 'us')).toMatchObject({ name: 'se-us' });
    expect(resolveCarrier(shipengine, ACCOUNTS, 'eu')).toHaveProperty('problem');
    for (const other of [
      { ...legacy, secret_env: 'OTHER_TENANT_KEY' },
      { ...legacy, url: 'http://127.0.0.1:9999' },
      { ...legacy, type: 'shipengine' },
    ]) {
      expect(resolveCarrier(other, ACCOUNTS, 'eu')).toHaveProperty('problem');
    }
  });
});

describe('patchCourier', () => {
  it('an account sets the type and drops the fields from before accounts', () => {
    const legacy = stored({ type: 'http', url: 'https://old.example', secret_env: 'BRIDGE' });
    expect(patchCourier(legacy, { account: 'bridge' }, ACCOUNTS, 'eu')).toEqual({
      courier: { ...stored({}), type: 'http', account: 'bridge' },
      legacy: {},
      problems: [],
    });
    // Any other patch keeps them, and the account that was picked.
    expect(patchCourier(legacy, { max_attempts: 5 }, ACCOUNTS, 'eu')).toMatchObject({
      courier: { type: 'http', max_attempts: 5 },
      legacy: { url: 'https://old.example', secret_env: 'BRIDGE' },
    });
  });

  it('`simulated` leaves the account; another type alone, or a type the account is not, is refused', () => {
    const picked = stored({ type: 'http', account: 'bridge' });
    expect(patchCourier(picked, { type: 'simulated' }, ACCOUNTS, 'eu').courier).toEqual(stored({}));
    expect(patchCourier(picked, { type: 'shipengine' }, ACCOUNTS, 'eu').problems).toEqual([
      {
        message:
          'A courier of type %fieldValue ships through a carrier account the installation declares: set courier.account instead. Declared for this store: bridge.',
        parameters: [{ fieldName: 'settings.courier.type', fieldValue: 'shipengine' }],
      },
    ]);
    expect(
      patchCourier(undefined, { account: 'bridge', type: 'shipengine' }, ACCOUNTS, 'eu', 'x')
        .problems[0]?.parameters,
    ).toEqual([{ fieldName: 'x.courier.type', fieldValue: 'shipengine' }]);
  });
});

describe('withoutUnchangedCourierFields', () => {
  it('keeps only the courier fields that differ from the stored ones', () => {
    const legacy = stored({ type: 'http', url: 'https://old.example' });
    expect(
      withoutUnchangedCourierFields(
        { reroute: false, courier: { ...legacy, url: 'https://old.example', max_attempts: 4 } },
        legacy,
      ),
    ).toEqual({ reroute: false, courier: { max_attempts: 4 } });
    expect(withoutUnchangedCourierFields({ courier: { url: 'x' } }, undefined)).toEqual({
      courier: { url: 'x' },
    });
  });
});
