import { describe, expect, test } from 'vitest';
import { createAuthThrottle, createRequestHandler, type HttpRequest } from '../../src/index.js';
import { call, errorBody, jsonOf, serverPerTest, TOKENS } from './support.js';

/** Failed authentication is throttled per client address; valid tokens never are. */

const serve = serverPerTest();

const WAREHOUSES = '/V1/warehouses';
const BAD = 'not-a-token-of-this-store-0123456789';

describe('over HTTP', () => {
  test('the 21st failure within 10 s is 429 with Retry-After; a valid token is still served', async () => {
    const server = await serve();
    for (let attempt = 1; attempt <= 20; attempt++) {
      const reply = await call(server, 'GET', WAREHOUSES, { token: BAD });
      expect(reply.status, `attempt ${attempt}`).toBe(401);
    }
    for (const options of [{ token: BAD }, {}, { headers: { authorization: 'Basic x' } }]) {
      const reply = await call(server, 'GET', WAREHOUSES, options);
      expect(reply.status).toBe(429);
      const retryAfter = Number(reply.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(10);
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
      const message =
        'Too many failed authentications from this address: retry in %fieldValue seconds.';
      const parameters = [{ fieldName: 'Retry-After', fieldValue: String(retryAfter) }];
      expect(reply.body).toEqual(errorBody(message, 429, parameters));
      expect(reply.body.detail).toBe(
        `Too many failed authentications from this address: retry in ${retryAfter} seconds.`,
      );
    }
    const valid = await call(server, 'GET', WAREHOUSES, { token: TOKENS.partnerA });
    expect(valid.status).toBe(200);
    const forbidden = await call(server, 'GET', '/V1/fulfillmentOrders/pending_invoice', {
      token: TOKENS.partnerA,
    });
    expect(forbidden.status).toBe(403);
    // Probes need no token and are never throttled.
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    // The contract says so.
    const schema = await jsonOf(await fetch(`${server.url}/rest/default/schema`));
    expect(schema.paths[WAREHOUSES].get.responses['429']).toEqual({
      $ref: '#/components/responses/TooManyRequests',
    });
    expect(schema.components.responses.TooManyRequests.description).toContain('Retry-After');
  });
});

describe('the handler', () => {
  function request(address: string, token: string): HttpRequest {
    return {
      method: 'GET',
      path: '/rest/default/V1/warehouses',
      query: {},
      headers: { authorization: `Bearer ${token}` },
      body: Buffer.alloc(0),
      remoteAddress: address,
    };
  }

  test("one address's failures never throttle another; the block ends with the window", async () => {
    const server = await serve();
    let now = 1_000_000;
    const handler = createRequestHandler(server.engine, {
      log: () => {},
      authThrottle: createAuthThrottle({ now: () => now }),
    });
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await handler(request('10.0.0.1', BAD))).status).toBe(401);
      now += 100;
    }
    const blocked = await handler(request('10.0.0.1', BAD));
    expect(blocked.status).toBe(429);
    // This failure counts too: the oldest of the last 20 (at +100 ms) leaves the window in 8.1 s.
    expect(blocked.headers['retry-after']).toBe('9');
    expect((await handler(request('10.0.0.2', BAD))).status).toBe(401);
    expect((await handler(request('::ffff:10.0.0.1', BAD))).status).toBe(429);
    // IPv6 clients are told apart by their /64 network.
    for (let attempt = 0; attempt < 20; attempt++) {
      await handler(request(`2001:db8:1:2::${attempt.toString(16)}`, BAD));
    }
    expect((await handler(request('2001:db8:1:2:ffff::1', BAD))).status).toBe(429);
    expect((await handler(request('2001:db8:1:3::1', BAD))).status).toBe(401);

    now += 10_001;
    expect((await handler(request('10.0.0.1', BAD))).status).toBe(401);
  });
});

describe('createAuthThrottle', () => {
  test('remembers at most maxAddresses addresses', () => {
    let now = 0;
    const throttle = createAuthThrottle({ now: () => now, maxAddresses: 100 });
    for (let attempt = 0; attempt < 20; attempt++) throttle.fail('192.0.2.1');
    expect(throttle.retryAfter('192.0.2.1')).toBe(10);
    for (let index = 0; index < 1000; index++) {
      now += 1;
      throttle.fail(`198.51.100.${index % 256}-${index}`);
      expect(throttle.size()).toBeLessThanOrEqual(100);
    }
    now += 10_000;
    throttle.fail('203.0.113.1');
    expect(throttle.size()).toBeLessThanOrEqual(100);
  });
});
