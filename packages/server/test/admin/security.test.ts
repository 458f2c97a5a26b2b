import { describe, expect, test } from 'vitest';
import { ADMIN_ROUTES } from '../../src/http/admin-handler.js';
import { ADMIN_OPERATIONS } from '../../src/http/admin-routes.js';
import { createAuthThrottle } from '../../src/index.js';
import { call, serverPerTest, TOKENS } from '../http/support.js';
import { adminCall, adminServerPerTest, login, OPERATORS } from './support.js';

/** The admin API's security acceptance (docs/admin-api.md), over HTTP. */

const serve = adminServerPerTest();
const serveV1 = serverPerTest();

/** A concrete path of a route pattern: parameters filled with values that exist. */
function pathOf(pattern: string): string {
  return pattern
    .replace('/admin/api', '')
    .replace(':store', 'default')
    .replace(':number', '100001001-1')
    .replace(':warehouse', 'WH-A')
    .replace(':code', 'WH-A')
    .replace(':sku', 'SKU-1')
    .replace(':name', 'partner-a');
}

/** A body every route accepts as far as its shape goes. */
const BODY = { reason: 'test', dry_run: true, filter: {}, on_hand: 1, allow: true };

describe('authentication', () => {
  test('every admin route in the route table answers 401 without credentials', async () => {
    // More refusals than the default throttle lets through from one address.
    const server = await serve({ server: { authThrottle: createAuthThrottle({ limit: 1000 }) } });
    const open = new Set(['POST /admin/api/session', 'GET /admin/api/openapi.json']);
    const checked: string[] = [];
    for (const { method, pattern } of ADMIN_ROUTES) {
      if (open.has(`${method} ${pattern}`)) continue;
      const reply = await adminCall(server, method, pathOf(pattern), {
        ...(method === 'GET' ? {} : { json: BODY }),
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(reply.status, `${method} ${pattern}`).toBe(401);
      expect(reply.body.code).toBe(1401);
      expect(reply.headers.get('content-type')).toContain('application/json');
      checked.push(`${method} ${pattern}`);
    }
    // Every operation of the table, plus the session's who-am-I and logout.
    expect(checked.length).toBe(ADMIN_OPERATIONS.length + 2);
    // A /V1 token is no operator credential.
    const withToken = await adminCall(server, 'GET', '/dashboard', { secret: TOKENS.all });
    expect(withToken.status).toBe(401);
  });

  test('the login sets an HttpOnly, SameSite=Strict cookie for where it was made; a wrong secret is 401', async () => {
    const server = await serve();
    const { cookie, reply } = await login(server, 'alice', server.secrets.admin);
    expect(reply.body).toEqual({ name: 'alice', role: 'admin', store_code: null });
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    // No Path: the browser scopes it to the login URL's directory, `<mount>/api`, behind any prefix.
    expect(cookie).not.toMatch(/Path=/i);
    expect(cookie).not.toMatch(/Secure/);
    const wrong = await adminCall(server, 'POST', '/session', {
      json: { name: 'alice', secret: server.secrets.viewer },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    // A body that is no login at all is bad input, named field by field.
    for (const json of [{}, { name: 'alice' }, { name: 7, secret: 'x' }, []]) {
      const bad = await adminCall(server, 'POST', '/session', {
        json,
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(bad.status, JSON.stringify(json)).toBe(400);
      expect(bad.body.code).toBe(1001);
    }
  });

  test('behind a trusted https proxy the cookie is Secure', async () => {
    const server = await serve({ server: { admin: { trustProxy: true } } });
    const reply = await adminCall(server, 'POST', '/session', {
      json: { name: 'alice', secret: server.secrets.admin },
      headers: { 'sec-fetch-site': 'same-origin', 'x-forwarded-proto': 'https' },
    });
    expect(reply.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  test('logging out ends every session the browser sent, an older cookie of another path too', async () => {
    const server = await serve();
    const older = await login(server, 'alice', server.secrets.admin);
    const newer = await login(server, 'alice', server.secrets.admin);
    const out = await fetch(`${server.url}/admin/api/session`, {
      method: 'DELETE',
      headers: {
        cookie: `fulfil_session=${newer.session}; fulfil_session=${older.session}`,
        'sec-fetch-site': 'same-origin',
      },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^fulfil_session=; HttpOnly; .*Max-Age=0/);
    for (const { session } of [older, newer]) {
      expect((await adminCall(server, 'GET', '/session', { session })).status).toBe(401);
    }
  });

  test('logging out or revoking the operator ends the session', async () => {
    const server = await serve();
    const first = await login(server, 'oscar', server.secrets.operator);
    expect((await adminCall(server, 'GET', '/session', { session: first.session })).status).toBe(
      200,
    );
    const out = await adminCall(server, 'DELETE', '/session', { session: first.session });
    expect(out.status).toBe(200);
    expect((await adminCall(server, 'GET', '/session', { session: first.session })).status).toBe(
      401,
    );

    const second = await login(server, 'oscar', server.secrets.operator);
    const revoked = await adminCall(server, 'POST', '/operators/oscar/revoke', {
      secret: server.secrets.admin,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.operator.revoked_at).not.toBeNull();
    expect((await adminCall(server, 'GET', '/session', { session: second.session })).status).toBe(
      401,
    );
    expect(
      (await adminCall(server, 'GET', '/dashboard', { secret: server.secrets.operator })).status,
    ).toBe(401);
  });

  test('failed logins are throttled per operator name and address', async () => {
    const server = await serve();
    for (let attempt = 1; attempt <= 10; attempt++) {
      const reply = await adminCall(server, 'POST', '/session', {
        json: { name: 'alice', secret: 'guess' },
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      expect(reply.status, `attempt ${attempt}`).toBe(401);
    }
    // Even the right secret of that name is refused from that address until Retry-After.
    const blocked = await adminCall(server, 'POST', '/session', {
      json: { name: 'alice', secret: server.secrets.admin },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.body.message).toBe(
      'Too many failed logins of this operator from this address: retry in %fieldValue seconds.',
    );
    // Another operator from the same address is not.
    const other = await adminCall(server, 'POST', '/session', {
      json: { name: 'oscar', secret: server.secrets.operator },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(other.status).toBe(200);
  });
});

describe('same origin', () => {
  test('a cross-origin POST with a valid session is refused and changes nothing', async () => {
    const server = await serve();
    const { session } = await login(server, 'alice', server.secrets.admin);
    const before = await adminCall(server, 'GET', '/stores/default/tokens', { session });
    for (const headers of [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': '', origin: 'http://evil.example' },
    ]) {
      const attempt = await fetch(`${server.url}/admin/api/stores/default/tokens`, {
        method: 'POST',
        headers: {
          cookie: `fulfil_session=${session}`,
          'content-type': 'application/json',
          ...(headers['sec-fetch-site'] ? { 'sec-fetch-site': headers['sec-fetch-site'] } : {}),
          ...('origin' in headers ? { origin: headers.origin } : {}),
        },
        body: JSON.stringify({ name: 'evil', acl: 'all' }),
      });
      expect(attempt.status, JSON.stringify(headers)).toBe(403);
    }
    const after = await adminCall(server, 'GET', '/stores/default/tokens', { session });
    expect(after.body).toEqual(before.body);
    // Without Sec-Fetch-Site, an Origin equal to the server's own passes.
    const own = await fetch(`${server.url}/admin/api/stores/default/tokens`, {
      method: 'POST',
      headers: {
        cookie: `fulfil_session=${session}`,
        'content-type': 'application/json',
        origin: server.url,
      },
      body: JSON.stringify({ name: 'mine', acl: 'partner' }),
    });
    expect(own.status).toBe(201);
  });
});

describe('roles and scope', () => {
  test('a viewer reads but cannot intervene on any route that needs more', async () => {
    const server = await serve();
    const secret = server.secrets.viewer;
    expect((await adminCall(server, 'GET', '/stores/default/orders', { secret })).status).toBe(200);
    const snapshot = await adminCall(server, 'GET', '/stores/default/orders/100001001-1', {
      secret,
    });
    let refused = 0;
    for (const operation of ADMIN_OPERATIONS) {
      if (operation.role === 'viewer') continue;
      const reply = await adminCall(
        server,
        operation.method,
        pathOf(`/admin/api${operation.path}`),
        {
          secret,
          ...(operation.method === 'GET' ? {} : { json: { ...BODY, dry_run: false } }),
        },
      );
      expect(reply.status, `${operation.method} ${operation.path}`).toBe(403);
      refused++;
    }
    expect(refused).toBeGreaterThan(10);
    const after = await adminCall(server, 'GET', '/stores/default/orders/100001001-1', { secret });
    expect(after.body).toEqual(snapshot.body);
  });

  test('an operator scoped to one store cannot see another', async () => {
    const server = await serve();
    const secret = server.secrets.otherOperator;
    expect(OPERATORS.otherOperator.store_code).toBe('other');
    const stores = await adminCall(server, 'GET', '/stores', { secret });
    expect(stores.body.stores.map((store: { store_code: string }) => store.store_code)).toEqual([
      'other',
    ]);
    const dashboard = await adminCall(server, 'GET', '/dashboard', { secret });
    expect(dashboard.body.stores.map((store: { store_code: string }) => store.store_code)).toEqual([
      'other',
    ]);
    for (const path of [
      '/stores/default',
      '/stores/default/orders',
      '/stores/default/orders/100001001-1',
      '/stores/default/stock',
      '/stores/default/tokens',
    ]) {
      const reply = await adminCall(server, 'GET', path, { secret });
      expect(reply.status, path).toBe(404);
    }
    const cancel = await adminCall(server, 'POST', '/stores/default/orders/100001001-1/cancel', {
      secret,
      json: {},
    });
    expect(cancel.status).toBe(404);
    const order = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: TOKENS.all,
    });
    expect(
      order.body.map((o: { fulfillment_order_number: string }) => o.fulfillment_order_number),
    ).toContain('100001001-1');
    // Managing operators is for admins of every store.
    expect((await adminCall(server, 'GET', '/operators', { secret })).status).toBe(403);
  });
});

describe('the /V1 surface', () => {
  test('does not change by one byte with the admin API on: its document and its answers', async () => {
    const plain = await serveV1();
    const withAdmin = await serve();
    for (const path of [
      '/rest/default/schema',
      '/rest/default/V1/warehouses',
      '/rest/default/V1/fulfillmentOrders/pending_accept',
    ]) {
      const [a, b] = await Promise.all(
        [plain, withAdmin].map(async (server) => {
          const response = await fetch(`${server.url}${path}`, {
            headers: { authorization: `Bearer ${TOKENS.all}` },
          });
          return {
            status: response.status,
            // The date, and the cursor, which names each server's own database, differ by nature.
            headers: [...response.headers].filter(
              ([name]) => name !== 'date' && name !== 'fulfil-cursor',
            ),
            // The schema names the server's own origin, which differs by port between the two.
            text: (await response.text()).replaceAll(server.url, '<origin>'),
          };
        }),
      );
      expect(b, path).toEqual(a);
    }
  });
});

describe('the admin OpenAPI document', () => {
  test('is public and describes every operation of the route table', async () => {
    const server = await serve();
    const reply = await adminCall(server, 'GET', '/openapi.json');
    expect(reply.status).toBe(200);
    const documented = Object.entries(
      reply.body.paths as Record<string, Record<string, unknown>>,
    ).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const operation of ADMIN_OPERATIONS) {
      const path = operation.path.replace(/:(\w+)/g, '{$1}');
      expect(documented).toContain(`${operation.method} ${path}`);
    }
    expect(documented).toHaveLength(ADMIN_OPERATIONS.length + 4);
  });
});
