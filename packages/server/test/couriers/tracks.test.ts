import { type CarrierAccounts, createEngine, type Engine, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { builtInCouriers } from '../../src/couriers/registry.js';
import { databaseKinds, type TestDatabase } from '../databases/open.js';
import { startFakeHttpCourier } from './fake-http-courier.js';
import { startFakeShipEngine } from './fake-shipengine.js';
import { settings as shipEngineSettings } from './shipengine-settings.js';

/**
 * docs/couriers.md, docs/channel-guide.md: a courier shipment reaches the sales order view (and
 * so a storefront) with the carrier as the carrier named itself, in the carrier codes tracks use
 * everywhere else, its title, and the tracking page the label named: never the courier type.
 */

const SECRET = 'bridge-secret-0123456789abcdef';
const KEY = 'shipengine-key-0123456789';
const ENV = { BRIDGE_SECRET: SECRET, SHIPENGINE_API_KEY: KEY };

let closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

/** A store shipping `800` from its courier warehouse through `account`, allocated and due. */
async function courierStore(
  database: TestDatabase,
  accounts: CarrierAccounts,
  courier: Record<string, unknown>,
): Promise<Engine> {
  const engine = createEngine({
    repository: database.repository,
    clock: new ManualClock('2026-06-01T09:00:00Z'),
    couriers: builtInCouriers(ENV),
    carrierAccounts: accounts,
  });
  await engine.loadSeed({
    stores: [
      {
        code: 'default',
        settings: { courier },
        warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
        stock: [{ warehouse_code: 'HQ', sku: 'SKU-1', qty: 10 }],
        tokens: [{ name: 'shop', token: fixtures.SEED_TOKENS.channel, acl: 'channel' }],
        orders: [fixtures.salesOrder('800', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'HQ' })],
      },
    ],
  });
  const [item] = (await engine.getOrder('default', '800-1')).items;
  await engine.allocate(engine.operator('default'), {
    allocation: { order_id: '800-1', items: [{ item_id: item?.id as number }] },
  });
  return engine;
}

async function tracksOfView(engine: Engine) {
  const shop = await engine.authenticate('default', fixtures.SEED_TOKENS.channel);
  const view = await engine.getSalesOrder(shop, '800');
  return view.shipments.flatMap((shipment) => shipment.tracks);
}

describe.each(databaseKinds())('courier tracks on $name', (kind) => {
  it('a bridge that names its carrier: the track reads it in the API’s carrier codes, with the label’s tracking page', async () => {
    const database = await kind.open();
    closing.push(() => database.drop());
    const bridge = await startFakeHttpCourier(SECRET, { carrier: 'DHL Express' });
    closing.push(() => bridge.close());
    const engine = await courierStore(
      database,
      { bridge: { type: 'http', url: bridge.url, secret_env: 'BRIDGE_SECRET' } },
      { account: 'bridge' },
    );
    expect((await engine.dispatchCourier()).shipped).toEqual(['800-1']);
    const [label] = await engine.listLabels('default', '800-1');
    expect(await tracksOfView(engine)).toEqual([
      {
        carrier_code: 'dhl_express',
        title: 'DHL Express',
        track_number: label?.tracking_number,
        tracking_url: `https://track.example/${label?.tracking_number}`,
      },
    ]);
    // The fulfillment order's own history says the same.
    const history = await engine.getOrderHistory('default', '800-1');
    expect(history.shipments[0]?.tracks[0]?.carrier_code).toBe('dhl_express');
  });

  it('ShipEngine’s carrier codes read as the API’s (stamps_com is USPS), with USPS’s tracking page', async () => {
    const database = await kind.open();
    closing.push(() => database.drop());
    const fake = await startFakeShipEngine(KEY);
    closing.push(() => fake.close());
    const { type: _type, account: _account, ...rest } = shipEngineSettings;
    const engine = await courierStore(
      database,
      { shipengine: { type: 'shipengine', url: fake.url, secret_env: 'SHIPENGINE_API_KEY' } },
      { ...rest, account: 'shipengine' },
    );
    expect((await engine.dispatchCourier()).shipped).toEqual(['800-1']);
    const [label] = await engine.listLabels('default', '800-1');
    const number = label?.tracking_number as string;
    expect(await tracksOfView(engine)).toEqual([
      {
        carrier_code: 'usps',
        title: 'USPS',
        track_number: number,
        tracking_url: `https://tools.usps.com/go/TrackConfirmAction?tLabels=${number}`,
      },
    ]);
  });

  it('a carrier that names none: the track names the carrier account, never the courier type', async () => {
    const database = await kind.open();
    closing.push(() => database.drop());
    const bridge = await startFakeHttpCourier(SECRET);
    closing.push(() => bridge.close());
    const engine = await courierStore(
      database,
      { 'brt-bridge': { type: 'http', url: bridge.url, secret_env: 'BRIDGE_SECRET' } },
      { account: 'brt-bridge' },
    );
    expect((await engine.dispatchCourier()).shipped).toEqual(['800-1']);
    const [track] = await tracksOfView(engine);
    expect(track).toMatchObject({ carrier_code: 'brt_bridge', title: 'brt-bridge' });
    expect(track?.carrier_code).not.toBe('http');
  });
});
