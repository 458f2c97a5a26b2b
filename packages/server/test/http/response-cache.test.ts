import { describe, expect, test } from 'vitest';
import { call, serverPerTest, type TestServer, TOKENS } from './support.js';

/** Queue polls answered from memory while the database is unchanged (response-cache.ts). */

const serve = serverPerTest();

const PENDING = '/V1/fulfillmentOrders/pending_accept';

/** The `cache` field of each request's log line, in order: 'hit' or undefined. */
function cacheOfRequests(server: TestServer): (string | undefined)[] {
  return server.logs
    .map((line) => JSON.parse(line) as { msg: string; cache?: string })
    .filter((entry) => entry.msg === 'request')
    .map((entry) => entry.cache);
}

describe('the response cache', () => {
  test('answers a repeated poll from memory, byte for byte, per format', async () => {
    const server = await serve();
    const first = await call(server, 'GET', PENDING, { token: TOKENS.partnerA });
    const second = await call(server, 'GET', PENDING, { token: TOKENS.partnerA });
    const xml = await call(server, 'GET', PENDING, {
      token: TOKENS.partnerA,
      accept: 'application/xml',
    });
    const xmlAgain = await call(server, 'GET', PENDING, {
      token: TOKENS.partnerA,
      accept: 'application/xml',
    });
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThan(0);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(xml.text.startsWith('<?xml')).toBe(true);
    expect(xmlAgain.text).toBe(xml.text);
    expect(xmlAgain.headers.get('content-type')).toBe(xml.headers.get('content-type'));
    expect(cacheOfRequests(server)).toEqual([undefined, 'hit', undefined, 'hit']);
  });

  test('shows a change at the very next poll after the action that made it', async () => {
    const server = await serve();
    const before = await call(server, 'GET', PENDING, { token: TOKENS.partnerA });
    await call(server, 'GET', PENDING, { token: TOKENS.partnerA });
    const [order] = before.body as {
      fulfillment_order_number: string;
      items: { id: number; qty: number }[];
    }[];
    if (!order) throw new Error('fixture: no pending order');
    const accepted = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: {
        order: {
          order_id: order.fulfillment_order_number,
          items: order.items.map(({ id, qty }) => ({ item_id: id, qty })),
        },
      },
    });
    expect(accepted.status).toBe(200);
    const after = await call(server, 'GET', PENDING, { token: TOKENS.partnerA });
    const numbers = (after.body as { fulfillment_order_number: string }[]).map(
      (listed) => listed.fulfillment_order_number,
    );
    expect(numbers).not.toContain(order.fulfillment_order_number);
    expect(after.body).toHaveLength(before.body.length - 1);
    expect(cacheOfRequests(server)).toEqual([undefined, 'hit', undefined, undefined]);
  });

  test('never gives one token the answer kept for another', async () => {
    const server = await serve();
    const a = await call(server, 'GET', PENDING, { token: TOKENS.partnerA });
    const b = await call(server, 'GET', PENDING, { token: TOKENS.partnerB });
    const all = await call(server, 'GET', PENDING, { token: TOKENS.all });
    const warehousesOf = (reply: typeof a) =>
      new Set((reply.body as { warehouse_code: string }[]).map((order) => order.warehouse_code));
    expect(warehousesOf(a)).toEqual(new Set(['WH-A']));
    expect(warehousesOf(b)).toEqual(new Set(['WH-B']));
    expect(warehousesOf(all)).toEqual(new Set(['WH-A', 'WH-B']));
    // Another page or `date` is another answer.
    const page2 = await call(server, 'GET', `${PENDING}?page=2`, { token: TOKENS.partnerA });
    expect(page2.body).toEqual([]);
    expect(cacheOfRequests(server)).toEqual([undefined, undefined, undefined, undefined]);
  });

  test('refuses a cached token once it has expired, and a revoked one at once', async () => {
    const server = await serve();
    await server.engine.createToken('default', {
      name: 'short',
      token: 'short-lived-secret-0123456789abcdef',
      acl: 'partner',
      warehouses: ['WH-A'],
      expires_at: '2026-01-01 00:10:00',
    });
    const token = 'short-lived-secret-0123456789abcdef';
    expect((await call(server, 'GET', PENDING, { token })).status).toBe(200);
    expect((await call(server, 'GET', PENDING, { token })).status).toBe(200);
    server.clock.advance(10 * 60 * 1000);
    const expired = await call(server, 'GET', PENDING, { token });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe('The access token has expired.');

    expect((await call(server, 'GET', PENDING, { token: TOKENS.partnerA })).status).toBe(200);
    expect((await call(server, 'GET', PENDING, { token: TOKENS.partnerA })).status).toBe(200);
    await server.engine.revokeToken('default', 'partner-a');
    const revoked = await call(server, 'GET', PENDING, { token: TOKENS.partnerA });
    expect(revoked.status).toBe(401);
    expect(cacheOfRequests(server)).toEqual([
      undefined,
      'hit',
      undefined,
      undefined,
      'hit',
      undefined,
    ]);
  });

  test('keeps no failure: a bad token is refused and throttled as without the cache', async () => {
    const server = await serve();
    const bad = 'not-a-token-of-this-store-0123456789';
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect(
        (await call(server, 'GET', PENDING, { token: bad })).status,
        `attempt ${attempt}`,
      ).toBe(401);
    }
    expect((await call(server, 'GET', PENDING, { token: bad })).status).toBe(429);
    // A valid token is never throttled, cached or not.
    expect((await call(server, 'GET', PENDING, { token: TOKENS.partnerA })).status).toBe(200);
    expect((await call(server, 'GET', PENDING, { token: TOKENS.partnerA })).status).toBe(200);
    // Forbidden stays forbidden though the principal is cached.
    const forbidden = await call(server, 'GET', '/V1/fulfillmentOrders/pending_invoice', {
      token: TOKENS.partnerA,
    });
    expect(forbidden.status).toBe(403);
    expect(cacheOfRequests(server).filter((cache) => cache === 'hit')).toEqual(['hit']);
  });

  test('is off with entries 0', async () => {
    const server = await serve({ server: { responseCache: { entries: 0, bytes: 1 } } });
    for (let n = 0; n < 3; n++) await call(server, 'GET', PENDING, { token: TOKENS.partnerA });
    expect(cacheOfRequests(server)).toEqual([undefined, undefined, undefined]);
  });
});
