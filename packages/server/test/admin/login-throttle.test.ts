import { describe, expect, test } from 'vitest';
import {
  createAuthThrottle,
  createLoginThrottle,
  createRequestHandler,
  type HttpRequest,
  type HttpResponse,
  type RequestHandler,
} from '../../src/index.js';
import { call } from '../http/support.js';
import { type AdminTestServer, adminCall, adminServerPerTest } from './support.js';

/**
 * Failed authentication (docs/limits.md): bad `/V1` tokens are throttled per client address,
 * operator logins by operator name and address, and neither locks an operator out for someone
 * else's failures.
 */

const serve = adminServerPerTest();

const BAD_TOKEN = 'not-a-token-of-this-store-0123456789';

function loginOver(server: AdminTestServer, name: string, secret: string) {
  return adminCall(server, 'POST', '/session', {
    json: { name, secret },
    headers: { 'sec-fetch-site': 'same-origin' },
  });
}

describe('over HTTP, as reported', () => {
  test('25 bad /V1 tokens from one address, then a valid login from it: 200', async () => {
    const server = await serve();
    for (let attempt = 0; attempt < 25; attempt++) {
      await call(server, 'GET', '/V1/warehouses', { token: BAD_TOKEN });
    }
    // The address is throttled for bad tokens…
    expect((await call(server, 'GET', '/V1/warehouses', { token: BAD_TOKEN })).status).toBe(429);
    // …and an operator logging in from it is not.
    expect((await loginOver(server, 'alice', server.secrets.admin)).status).toBe(200);
  });

  test('25 console loads without a session, then a valid login: 200', async () => {
    const server = await serve();
    for (let attempt = 0; attempt < 25; attempt++) {
      expect((await adminCall(server, 'GET', '/session')).status).toBe(401);
    }
    expect((await loginOver(server, 'alice', server.secrets.admin)).status).toBe(200);
  });
});

/** The handler itself, each request from the address it says, on a clock the test moves. */
function clocked(server: AdminTestServer, options: { trustProxy?: boolean } = {}) {
  let now = 1_000_000;
  const handler = createRequestHandler(server.engine, {
    log: () => {},
    admin: {},
    ...options,
    authThrottle: createAuthThrottle({ now: () => now }),
    loginThrottle: createLoginThrottle({ now: () => now }),
  });
  return {
    handler,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

function request(
  address: string,
  fields: Pick<HttpRequest, 'method' | 'path'> & {
    headers?: HttpRequest['headers'];
    json?: unknown;
  },
): HttpRequest {
  return {
    method: fields.method,
    path: fields.path,
    query: {},
    headers: {
      'sec-fetch-site': 'same-origin',
      ...(fields.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...fields.headers,
    },
    body: Buffer.from(fields.json === undefined ? '' : JSON.stringify(fields.json)),
    remoteAddress: address,
  };
}

const badToken = (handler: RequestHandler, address: string, headers = {}) =>
  handler(
    request(address, {
      method: 'GET',
      path: '/rest/default/V1/warehouses',
      headers: { authorization: `Bearer ${BAD_TOKEN}`, ...headers },
    }),
  );

const loginAs = (
  handler: RequestHandler,
  address: string,
  name: string,
  secret: string,
  headers = {},
): Promise<HttpResponse> =>
  handler(
    request(address, {
      method: 'POST',
      path: '/admin/api/session',
      json: { name, secret },
      headers,
    }),
  );

describe('the throttles, on a clock', () => {
  test('bad tokens at 2.5 a second from the address operators share: every valid login succeeds', async () => {
    const server = await serve();
    const { handler, advance } = clocked(server);
    const statuses: number[] = [];
    const tokenStatuses = new Set<number>();
    for (let tick = 0; tick < 100; tick++) {
      tokenStatuses.add((await badToken(handler, '10.0.0.1')).status);
      advance(400);
      if (tick % 14 === 13) {
        statuses.push((await loginAs(handler, '10.0.0.1', 'alice', server.secrets.admin)).status);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200]);
    // The bad tokens themselves are throttled all the while.
    expect(tokenStatuses).toEqual(new Set([401, 429]));
  });

  test('one name guessed from many addresses: each address is locked out of it, its operator is not', async () => {
    const server = await serve();
    const { handler } = clocked(server);
    for (let host = 1; host <= 30; host++) {
      const address = `198.51.100.${host}`;
      for (let attempt = 1; attempt <= 10; attempt++) {
        expect((await loginAs(handler, address, 'alice', 'guess')).status).toBe(401);
      }
      const locked = await loginAs(handler, address, 'alice', 'guess');
      expect(locked.status).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
      // Locked before its guess is looked at: the right secret from there is refused too.
      expect((await loginAs(handler, address, 'alice', server.secrets.admin)).status).toBe(429);
    }
    expect((await loginAs(handler, '10.0.0.1', 'alice', server.secrets.admin)).status).toBe(200);
  });

  test('one address trying many names: each name is locked from it, another operator there logs in', async () => {
    const server = await serve();
    const { handler, advance } = clocked(server);
    for (const name of ['alice', 'oscar', 'nobody', 'root']) {
      for (let attempt = 1; attempt <= 10; attempt++) {
        expect((await loginAs(handler, '10.0.0.9', name, 'guess')).status).toBe(401);
      }
      expect((await loginAs(handler, '10.0.0.9', name, 'guess')).status).toBe(429);
    }
    // Vera, behind the same address, never failed: she is served.
    expect((await loginAs(handler, '10.0.0.9', 'vera', server.secrets.viewer)).status).toBe(200);
    // Alice from her own address too.
    expect((await loginAs(handler, '10.0.0.2', 'alice', server.secrets.admin)).status).toBe(200);
    // The lock of a name at an address ends with its window (10 minutes).
    advance(10 * 60_000);
    expect((await loginAs(handler, '10.0.0.9', 'alice', server.secrets.admin)).status).toBe(200);
  });

  test('a failed login never throttles /V1 tokens, and wrong operator secrets count like bad tokens', async () => {
    const server = await serve();
    const { handler } = clocked(server);
    for (let attempt = 0; attempt < 30; attempt++) {
      await loginAs(handler, '10.0.0.3', `name-${attempt}`, 'guess');
    }
    expect((await badToken(handler, '10.0.0.3')).status).toBe(401);
    const wrongSecret = () =>
      handler(
        request('10.0.0.4', {
          method: 'GET',
          path: '/admin/api/dashboard',
          headers: { authorization: 'Bearer not-an-operator-secret' },
        }),
      );
    for (let attempt = 0; attempt < 20; attempt++) expect((await wrongSecret()).status).toBe(401);
    expect((await wrongSecret()).status).toBe(429);
    // A valid operator secret from that address is still served, and a login too.
    const valid = await handler(
      request('10.0.0.4', {
        method: 'GET',
        path: '/admin/api/dashboard',
        headers: { authorization: `Bearer ${server.secrets.viewer}` },
      }),
    );
    expect(valid.status).toBe(200);
    expect((await loginAs(handler, '10.0.0.4', 'alice', server.secrets.admin)).status).toBe(200);
  });

  test('behind --trust-proxy, the address is the one the proxy appended to X-Forwarded-For', async () => {
    const server = await serve();
    const { handler } = clocked(server, { trustProxy: true });
    const proxy = '127.0.0.1';
    // A client that writes its own X-Forwarded-For only adds entries before the proxy's.
    const from = (client: string, claimed?: string) => ({
      'x-forwarded-for': claimed === undefined ? client : `${claimed}, ${client}`,
    });
    for (let attempt = 0; attempt < 20; attempt++) {
      await badToken(handler, proxy, from('203.0.113.7', `192.0.2.${attempt}`));
    }
    expect((await badToken(handler, proxy, from('203.0.113.7', '192.0.2.99'))).status).toBe(429);
    // Another client behind the same proxy is another address.
    expect((await badToken(handler, proxy, from('203.0.113.8'))).status).toBe(401);
    for (let attempt = 0; attempt < 10; attempt++) {
      await loginAs(handler, proxy, 'alice', 'guess', from('203.0.113.7'));
    }
    expect((await loginAs(handler, proxy, 'alice', 'guess', from('203.0.113.7'))).status).toBe(429);
    const own = await loginAs(handler, proxy, 'alice', server.secrets.admin, from('203.0.113.8'));
    expect(own.status).toBe(200);
  });

  test('without --trust-proxy, X-Forwarded-For is ignored: the socket address counts', async () => {
    const server = await serve();
    const { handler } = clocked(server);
    for (let attempt = 0; attempt < 20; attempt++) {
      await badToken(handler, '10.0.0.5', { 'x-forwarded-for': `192.0.2.${attempt}` });
    }
    expect((await badToken(handler, '10.0.0.5', { 'x-forwarded-for': '192.0.2.200' })).status).toBe(
      429,
    );
  });
});
