import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '@fulfil/core';
import { afterEach, describe, expect, test } from 'vitest';
import { builtInCouriers } from '../../src/couriers/registry.js';
import { adminCall, adminServerPerTest, allocatedCourierOrder } from './support.js';

/**
 * Outbound calls go only where the installation allows (docs/couriers.md): a store admin picks
 * one of the carrier accounts the installation declares, and can never name a URL or an
 * environment variable of its own.
 */

const serve = adminServerPerTest();

/** Every request a listener received: what an attacker's own server would see. */
interface Listener {
  url: string;
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

const listeners: Listener[] = [];
afterEach(async () => {
  for (const listener of listeners.splice(0)) await listener.close();
});

async function startListener(): Promise<Listener> {
  const requests: Listener['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
    });
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const listener = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
  listeners.push(listener);
  return listener;
}

/** Keys of two tenants, in the server's environment. */
const ENV = { SE_KEY_DEFAULT: 'key-of-store-default', SE_KEY_OTHER: 'key-of-store-other' };

const SHIPENGINE_IDS = { carrier_id: 'se-1', service_code: 'usps', warehouse_id: 'se-2' };

/** The installation: one ShipEngine account per store, each with its own key. */
function installation() {
  return {
    couriers: builtInCouriers(ENV),
    carrierAccounts: {
      'shipengine-default': {
        type: 'shipengine',
        secret_env: 'SE_KEY_DEFAULT',
        stores: ['default'],
      },
      'shipengine-other': { type: 'shipengine', secret_env: 'SE_KEY_OTHER', stores: ['other'] },
    },
  };
}

async function storeAdmin(engine: Engine): Promise<string> {
  const created = await engine.admin.createOperator({
    name: 'sam',
    role: 'admin',
    store_code: 'default',
  });
  return created.secret;
}

const fieldsOf = (body: { errors?: { parameters: { fieldName?: string }[] }[] }) =>
  (body.errors ?? []).flatMap((error) => error.parameters.map((p) => p.fieldName));

/**
 * A store-scoped admin sends `courier` as its store's settings; then a courier order is booked.
 * Answers the PUT's reply, and every request the listener received meanwhile.
 */
async function attack(courier: (listener: string) => Record<string, unknown>) {
  const listener = await startListener();
  const server = await serve({ engine: installation() });
  const reply = await adminCall(server, 'PUT', '/stores/default', {
    secret: await storeAdmin(server.engine),
    json: { settings: { courier: courier(listener.url) } },
  });
  // Whatever the answer said, nothing may leave for the listener when the courier runs.
  await allocatedCourierOrder(server.engine, '500001');
  await server.engine.dispatchCourier();
  await sleep(500);
  return {
    reply,
    received: listener.requests,
    settings: (await server.engine.getStore('default')).settings,
  };
}

describe('a store admin cannot send a secret of the server anywhere', () => {
  test('a ShipEngine courier pointed at a listener of its own, with another tenant key: 400, and the listener receives nothing', async () => {
    const { reply, received, settings } = await attack((url) => ({
      type: 'shipengine',
      base_url: url,
      api_key_env: 'SE_KEY_OTHER',
      ...SHIPENGINE_IDS,
    }));
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply.body)).toEqual([
      'settings.courier.api_key_env',
      'settings.courier.base_url',
    ]);
    expect(reply.body.message).toContain('courier.account');
    expect(received).toEqual([]);
    expect(settings.courier).toMatchObject({ type: 'simulated' });
    expect(settings.courier).not.toHaveProperty('base_url');
  });

  test('SSRF: an HTTP courier at an internal address is refused the same way', async () => {
    const { reply, received } = await attack((url) => ({
      type: 'http',
      url: `${url}/admin`,
      secret_env: 'SE_KEY_OTHER',
    }));
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply.body)).toEqual(['settings.courier.secret_env', 'settings.courier.url']);
    expect(received).toEqual([]);
  });

  test("a store admin picks among its store's accounts only, by name; the answer says which exist", async () => {
    const server = await serve({ engine: installation() });
    const secret = await storeAdmin(server.engine);
    const other = await adminCall(server, 'PUT', '/stores/default', {
      secret,
      json: { settings: { courier: { account: 'shipengine-other', ...SHIPENGINE_IDS } } },
    });
    expect(other.status).toBe(400);
    expect(other.body.parameters).toEqual([
      { fieldName: 'settings.courier.account', fieldValue: 'shipengine-other' },
    ]);
    expect(other.body.errors[0].message).toContain('shipengine-default');
    const unknown = await adminCall(server, 'PUT', '/stores/default', {
      secret,
      json: { settings: { courier: { account: 'nowhere' } } },
    });
    expect(unknown.status).toBe(400);

    const own = await adminCall(server, 'PUT', '/stores/default', {
      secret,
      json: { settings: { courier: { account: 'shipengine-default', ...SHIPENGINE_IDS } } },
    });
    expect(own.status).toBe(200);
    expect(own.body.settings.courier).toMatchObject({
      type: 'shipengine',
      account: 'shipengine-default',
      ...SHIPENGINE_IDS,
    });
    // A patch of one courier field keeps the account and the rest.
    const patched = await adminCall(server, 'PUT', '/stores/default', {
      secret,
      json: { settings: { courier: { max_attempts: 5 } } },
    });
    expect(patched.body.settings.courier).toEqual({
      ...own.body.settings.courier,
      max_attempts: 5,
    });
  });
});
