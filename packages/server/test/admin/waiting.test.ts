import { describe, expect, test } from 'vitest';
import { call, TOKENS } from '../http/support.js';
import { type AdminTestServer, adminCall, adminServerPerTest } from './support.js';

/**
 * What waits outside the queues (docs/admin-api.md): the open holds and the cancellation requests
 * awaiting their partner, as lists oldest first and as the dashboard's counts.
 */

const serve = adminServerPerTest();
const HOUR = 3_600_000;
const HOSTILE = '<img src=x onerror=alert(1)> "released_at":null';

async function hold(server: AdminTestServer, salesOrder: string, handle: string) {
  const reply = await adminCall(server, 'POST', `/stores/default/sales-orders/${salesOrder}/hold`, {
    secret: server.secrets.operator,
    json: { handle, reason: 'incorrect_address', note: HOSTILE },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
}

/** Accepts the order's lines as its partner, then asks to cancel them: a request to answer. */
async function requestCancellation(server: AdminTestServer, salesOrder: string) {
  const number = `${salesOrder}-1`;
  const detail = await adminCall(server, 'GET', `/stores/default/orders/${number}`, {
    secret: server.secrets.viewer,
  });
  const items = detail.body.order.items.map((item: { id: number; qty: number }) => ({
    item_id: item.id,
    qty: item.qty,
  }));
  const accepted = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
    token: TOKENS.partnerA,
    json: { order: { order_id: number, items } },
  });
  expect(accepted.status).toBe(200);
  const canceled = await adminCall(
    server,
    'POST',
    `/stores/default/sales-orders/${salesOrder}/cancel`,
    { secret: server.secrets.operator, json: { reason: 'fraud' } },
  );
  expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
  return items as { item_id: number; qty: number }[];
}

const defaultStore = async (server: AdminTestServer) =>
  (
    await adminCall(server, 'GET', '/dashboard', { secret: server.secrets.viewer })
  ).body.stores.find((store: { store_code: string }) => store.store_code === 'default');

describe('the open holds', () => {
  test('one row per hold, oldest placed first, paged, with their total', async () => {
    const server = await serve();
    const secret = server.secrets.viewer;
    await hold(server, '000123', 'first');
    server.clock.advance(HOUR);
    await hold(server, '100001001', 'second');
    await hold(server, '000123', 'third');
    const listed = await adminCall(server, 'GET', '/stores/default/holds', { secret });
    expect(listed.status).toBe(200);
    expect(listed.body.total).toEqual({ count: 3, capped: false });
    expect(listed.body.next_offset).toBeNull();
    expect(listed.body.holds.map((row: { handle: string }) => row.handle)).toEqual([
      'first',
      'third',
      'second',
    ]);
    expect(listed.body.holds[0]).toEqual({
      fulfillment_order_number: '000123-1',
      sales_order_number: '000123',
      warehouse_code: 'WH-A',
      status: 'pending_accept',
      handle: 'first',
      reason: 'incorrect_address',
      note: HOSTILE,
      placed_by: 'oscar',
      placed_at: expect.any(String),
    });
    const second = await adminCall(server, 'GET', '/stores/default/holds?limit=1&offset=1', {
      secret,
    });
    expect(second.body.holds.map((row: { handle: string }) => row.handle)).toEqual(['third']);
    expect(second.body.next_offset).toBe(2);
    // A released hold leaves the list; the order's other hold stays.
    await adminCall(server, 'POST', '/stores/default/sales-orders/000123/release', {
      secret: server.secrets.operator,
      json: { handle: 'first' },
    });
    const after = await adminCall(server, 'GET', '/stores/default/holds', { secret });
    expect(after.body.holds.map((row: { handle: string }) => row.handle)).toEqual([
      'third',
      'second',
    ]);
    const store = await defaultStore(server);
    expect(store.holds).toEqual({ open: 2, orders: 2, oldest_at: after.body.holds[0].placed_at });
  });

  test('a bad page is 400 naming the field; a store out of scope or missing is 404', async () => {
    const server = await serve();
    for (const query of ['offset=-1', 'offset=x', 'offset=10001', 'limit=0', 'limit=201']) {
      const refused = await adminCall(server, 'GET', `/stores/default/holds?${query}`, {
        secret: server.secrets.viewer,
      });
      expect(refused.status, query).toBe(400);
      expect(JSON.stringify(refused.body), query).toContain(query.split('=')[0] as string);
    }
    const other = await adminCall(server, 'GET', '/stores/default/holds', {
      secret: server.secrets.otherOperator,
    });
    // A store out of the operator's scope is answered as one that does not exist.
    expect(other.status).toBe(404);
    const missing = await adminCall(server, 'GET', '/stores/nowhere/cancellation-requests', {
      secret: server.secrets.viewer,
    });
    expect(missing.status).toBe(404);
  });
});

describe('the open cancellation requests', () => {
  test('list the requested lines, oldest first, marked overdue past the store time', async () => {
    const server = await serve();
    const secret = server.secrets.viewer;
    const list = async (query = '') =>
      (await adminCall(server, 'GET', `/stores/default/cancellation-requests${query}`, { secret }))
        .body;
    expect((await list()).requests).toEqual([]);
    const items = await requestCancellation(server, '000123');
    const first = await list();
    expect(first.total).toEqual({ count: 1, capped: false });
    expect(first.attention).toEqual({ after_hours: 4, since: expect.any(String) });
    expect(first.requests).toEqual([
      {
        id: 1,
        fulfillment_order_number: '000123-1',
        sales_order_number: '000123',
        warehouse_code: 'WH-A',
        reason: 'fraud',
        lines: [{ item_id: items[0]?.item_id, sku: 'SKU-2', qty: 3 }],
        requested_by: 'oscar',
        requested_at: expect.any(String),
        overdue: false,
      },
    ]);
    let store = await defaultStore(server);
    expect(store.cancellation_requests).toEqual({
      open: 1,
      oldest_at: first.requests[0].requested_at,
      attention: { after_hours: 4, since: first.attention.since, requests: 0 },
    });

    server.clock.advance(5 * HOUR);
    await requestCancellation(server, '100001002');
    const later = await list();
    expect(later.requests.map((r: { overdue: boolean }) => r.overdue)).toEqual([true, false]);
    const overdue = await list('?overdue=true');
    expect(
      overdue.requests.map((r: { sales_order_number: string }) => r.sales_order_number),
    ).toEqual(['000123']);
    expect(overdue.total.count).toBe(1);
    expect((await list('?overdue=false')).total.count).toBe(1);
    expect(
      (
        await adminCall(server, 'GET', '/stores/default/cancellation-requests?overdue=yes', {
          secret,
        })
      ).status,
    ).toBe(400);
    store = await defaultStore(server);
    expect(store.cancellation_requests).toMatchObject({ open: 2, attention: { requests: 1 } });

    // The partner's answer ends the request; a store with no threshold asks no one.
    const accepted = await call(server, 'POST', '/V1/fulfillmentOrder/acceptCancellation', {
      token: TOKENS.partnerA,
      json: { cancellation: { order_id: '000123-1' } },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const put = await adminCall(server, 'PUT', '/stores/default', {
      secret: server.secrets.admin,
      json: { settings: { attention_after_hours: { pending_cancellation: null } } },
    });
    expect(put.status).toBe(200);
    expect(put.body.settings.attention_after_hours.pending_cancellation).toBeNull();
    const none = await list();
    expect(none.attention).toBeNull();
    expect(none.requests.map((r: { sales_order_number: string }) => r.sales_order_number)).toEqual([
      '100001002',
    ]);
    store = await defaultStore(server);
    expect(store.cancellation_requests).toMatchObject({ open: 1, attention: null });
  });
});
