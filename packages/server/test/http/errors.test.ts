import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ErrorBodySchema } from '../../src/index.js';
import {
  advance,
  call,
  errorBody,
  findInQueue,
  jsonOf,
  type Reply,
  readXml,
  startTestServer,
  type TestServer,
  TOKENS,
} from './support.js';

/** Every status of docs/behaviour.md, the order in which they are checked, and the error body. */

function expectError(reply: Reply, status: number) {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return v.parse(ErrorBodySchema, reply.body);
}

const POLL = '/V1/fulfillmentOrders/pending_accept';

describe('read-only requests', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  describe('400', () => {
    test.each(['0', 'abc', '1.5', '-1', ''])('page=%j', async (page) => {
      const body = expectError(
        await call(server, 'GET', `${POLL}?page=${page}`, { token: TOKENS.all }),
        400,
      );
      expect(body.code).toBe(1001);
      expect(body.message).toContain('%fieldName');
      expect(body.parameters).toEqual([{ fieldName: 'page', fieldValue: page }]);
    });

    // Past 2^63 / 100 the OFFSET no longer fits the database's integer: the schema caps it.
    test('a page too large for an offset is 400, not 500', async () => {
      const page = '99999999999999999999999';
      const reply = await call(server, 'GET', `${POLL}?page=${page}`, { token: TOKENS.all });
      expect(reply.status).toBe(400);
    });

    test('a bad page on warehouses too', async () => {
      const body = expectError(
        await call(server, 'GET', '/V1/warehouses?page=x', { token: TOKENS.all }),
        400,
      );
      expect(body.parameters?.[0]?.fieldName).toBe('page');
    });

    test.each([
      '2026-01-01',
      '2026-13-01 00:00:00',
      '2026-02-30 00:00:00',
      '2026-01-01T00:00:00',
      'yesterday',
    ])('date=%j', async (date) => {
      const reply = await call(server, 'GET', `${POLL}?date=${encodeURIComponent(date)}`, {
        token: TOKENS.all,
      });
      const body = expectError(reply, 400);
      expect(body.parameters).toEqual([{ fieldName: 'date', fieldValue: date }]);
    });
  });

  describe('401', () => {
    function expectUnauthenticated(reply: Reply, challenge: string) {
      const body = expectError(reply, 401);
      expect(body.code).toBe(1401);
      expect(reply.headers.get('www-authenticate')).toBe(challenge);
      return body;
    }

    test('no token', async () => {
      expectUnauthenticated(await call(server, 'GET', POLL), 'Bearer realm="fulfil"');
    });

    test.each(['Basic eDp5', 'Bearer', 'Bearer ', `Bearer ${TOKENS.all} extra`, TOKENS.all])(
      'malformed Authorization %j',
      async (authorization) => {
        const reply = await call(server, 'GET', POLL, { headers: { authorization } });
        expectUnauthenticated(reply, 'Bearer realm="fulfil", error="invalid_request"');
      },
    );

    test.each([
      ['unknown', 'no-such-token-0123456789abcdefghijkl'],
      ['revoked', TOKENS.revoked],
      ['expired', TOKENS.expired],
      ['of another store', TOKENS.otherStore],
    ])('a token that is %s', async (_what, token) => {
      const reply = await call(server, 'GET', POLL, { token });
      expectUnauthenticated(reply, 'Bearer realm="fulfil", error="invalid_token"');
      const viaApiKey = await call(server, 'GET', POLL, { apiKey: token });
      expectUnauthenticated(viaApiKey, 'Bearer realm="fulfil", error="invalid_token"');
    });

    test('a store that does not exist', async () => {
      const reply = await call(server, 'GET', POLL, { token: TOKENS.all, store: 'nowhere' });
      expectUnauthenticated(reply, 'Bearer realm="fulfil", error="invalid_token"');
    });

    test('the token of the other store works there', async () => {
      const reply = await call(server, 'GET', '/V1/warehouses', {
        token: TOKENS.otherStore,
        store: 'other',
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual([{ name: 'Elsewhere', code: 'WH-X', active: true }]);
    });
  });

  test('api_key header and Bearer are equivalent', async () => {
    const bearer = await call(server, 'GET', POLL, { token: TOKENS.partnerA });
    const apiKey = await call(server, 'GET', POLL, { apiKey: TOKENS.partnerA });
    expect(apiKey.status).toBe(200);
    expect(apiKey.body).toEqual(bearer.body);
    const forbidden = await call(server, 'GET', '/V1/fulfillmentOrders/pending_invoice', {
      apiKey: TOKENS.partnerA,
    });
    expect(forbidden.status).toBe(403);
  });

  test('403 names the missing ACL resource in parameters', async () => {
    const reply = await call(server, 'GET', '/V1/fulfillmentOrders/pending_allocation', {
      token: TOKENS.partnerA,
    });
    const body = expectError(reply, 403);
    expect(body).toEqual(
      errorBody('The access token is not allowed to use %resources.', 1403, [
        { resources: 'Fulfil_FulfillmentOrder::api_pending_allocation' },
      ]),
    );
    const stock = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.erp,
      json: { stock_items: [] },
    });
    expect(expectError(stock, 403).parameters).toEqual([
      { resources: 'Fulfil_Inventory::api_stock_items' },
    ]);
  });

  describe('404', () => {
    test.each([
      ['GET', '/rest/default/V1/nothing'],
      ['GET', '/rest/default/V1/fulfillmentOrders/shipped'],
      ['GET', '/rest/default/V1/warehouses/'],
      ['POST', '/rest/default/V1/fulfillmentOrder/cancel'],
      ['GET', '/rest/default/V2/warehouses'],
      ['GET', '/index.html'],
      ['GET', '/rest/%E0%A4%A/V1/warehouses'],
    ])('%s %s: no such route, checked before the token', async (method, path) => {
      const response = await fetch(`${server.url}${path}`, { method });
      const body = expectError(
        {
          status: response.status,
          headers: response.headers,
          text: '',
          body: await jsonOf(response),
        },
        404,
      );
      expect(body.message).toBe('Request does not match any route.');
      expect(body.code).toBe(404);
    });
  });

  describe('405', () => {
    test.each([
      ['POST', '/V1/warehouses', 'GET'],
      ['DELETE', '/V1/fulfillmentOrders/failed', 'GET'],
      ['GET', '/V1/fulfillmentOrder/accept', 'POST'],
      ['PUT', '/V1/stockItems', 'POST'],
    ])('%s %s allows only %s, checked before the token', async (method, path, allow) => {
      const reply = await call(server, method, path);
      const body = expectError(reply, 405);
      expect(reply.headers.get('allow')).toBe(allow);
      expect(body.parameters).toEqual([{ fieldName: 'method', fieldValue: method }]);
    });
  });

  describe('406', () => {
    test.each([
      'text/html',
      'application/json;q=0, application/xml;q=0',
      'image/*',
      'application/pdf, text/plain;q=0.5',
    ])('Accept: %s', async (accept) => {
      const body = expectError(await call(server, 'GET', POLL, { token: TOKENS.all, accept }), 406);
      expect(body.parameters).toEqual([{ fieldName: 'Accept', fieldValue: accept }]);
    });

    test.each([
      ['*/*', 'application/json; charset=utf-8'],
      ['application/*', 'application/json; charset=utf-8'],
      ['text/*', 'text/xml; charset=utf-8'],
      ['application/json;q=0.5, application/xml', 'application/xml; charset=utf-8'],
      ['application/xml;q=0.9, */*;q=0.1', 'application/xml; charset=utf-8'],
      ['text/html, application/json;q=0.1', 'application/json; charset=utf-8'],
    ])('Accept: %s is answered with %s', async (accept, contentType) => {
      const reply = await call(server, 'GET', '/V1/warehouses', { token: TOKENS.all, accept });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe(contentType);
    });

    test('403 is checked before 406', async () => {
      const reply = await call(server, 'GET', '/V1/fulfillmentOrders/pending_invoice', {
        token: TOKENS.partnerA,
        accept: 'text/html',
      });
      expectError(reply, 403);
    });
  });

  describe('415 and undecodable bodies', () => {
    test.each([
      ['text/plain'],
      ['application/x-www-form-urlencoded'],
      ['application/json; charset=latin1'],
    ])('Content-Type: %s', async (contentType) => {
      const reply = await call(server, 'POST', '/V1/stockItems', {
        token: TOKENS.all,
        headers: { 'content-type': contentType },
        json: { stock_items: [] },
      });
      expectError(reply, 415);
    });

    test('no Content-Type', async () => {
      const response = await fetch(`${server.url}/rest/default/V1/stockItems`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKENS.all}` },
        body: new Uint8Array(Buffer.from('{"stock_items":[]}')),
      });
      expect(response.status).toBe(415);
      expect((await jsonOf(response)).parameters).toEqual([
        { fieldName: 'Content-Type', fieldValue: '(none)' },
      ]);
    });

    test('406 is checked before 415', async () => {
      const reply = await call(server, 'POST', '/V1/stockItems', {
        token: TOKENS.all,
        accept: 'text/html',
        headers: { 'content-type': 'text/plain' },
        json: {},
      });
      expectError(reply, 406);
    });

    test.each(['{"stock_items": [', '', 'null x', "{'a':1}"])('JSON %j is 400', async (text) => {
      const reply = await call(server, 'POST', '/V1/stockItems', {
        token: TOKENS.all,
        headers: { 'content-type': 'application/json' },
        xml: text,
      });
      const body = expectError(reply, 400);
      expect(body.message).toMatch(/^The request body is not valid JSON/);
    });

    test('invalid UTF-8 is 400', async () => {
      const response = await fetch(`${server.url}/rest/default/V1/stockItems`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKENS.all}`, 'content-type': 'application/json' },
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      });
      expect(response.status).toBe(400);
    });

    test.each([
      [
        'DOCTYPE',
        '<?xml version="1.0"?><!DOCTYPE request [<!ENTITY x "y">]><request>&x;</request>',
      ],
      [
        'billion laughs',
        '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><request><stock_items>&lol2;</stock_items></request>',
      ],
      [
        'external entity',
        '<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><request>&xxe;</request>',
      ],
      ['lowercase doctype', '<!doctype request><request/>'],
    ])('XML with a %s is 400, nothing expanded', async (_what, xml) => {
      const reply = await call(server, 'POST', '/V1/stockItems', { token: TOKENS.all, xml });
      const body = expectError(reply, 400);
      expect(body.message).toBe('XML with a DOCTYPE or entity declaration is not accepted.');
    });

    test.each([
      ['malformed', '<request><stock_items></request>'],
      ['not XML', 'stock_items=1'],
      ['another root', '<order><stock_items/></order>'],
      ['two roots', '<request/><request/>'],
      ['a reserved name', '<request><__proto__><x>1</x></__proto__></request>'],
    ])('XML %s is 400', async (_what, xml) => {
      const reply = await call(server, 'POST', '/V1/stockItems', { token: TOKENS.all, xml });
      expectError(reply, 400);
    });

    test('an empty XML <stock_items/> is an empty batch', async () => {
      const reply = await call(server, 'POST', '/V1/stockItems', {
        token: TOKENS.all,
        xml: '<request><stock_items/></request>',
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual([]);
    });

    test('XML values that do not fit the schema are reported by validation with their path', async () => {
      const reply = await call(server, 'POST', '/V1/stockItems', {
        token: TOKENS.all,
        xml: '<request><stock_items><item><warehouse_code>WH-A</warehouse_code><sku>S</sku><qty>seven</qty></item></stock_items></request>',
      });
      const body = expectError(reply, 400);
      expect(body.code).toBe(1009);
      expect(body.parameters).toEqual([{ fieldName: 'stock_items[0].qty', fieldValue: 'seven' }]);
    });
  });

  test('errors are XML when the client negotiated XML', async () => {
    const reply = await call(server, 'GET', '/V1/fulfillmentOrders/pending_allocation', {
      token: TOKENS.partnerA,
      accept: 'application/xml',
    });
    expect(reply.status).toBe(403);
    expect(reply.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(reply.text).toBe(
      '<?xml version="1.0"?>\n<response><message>The access token is not allowed to use %resources.</message>' +
        '<detail>The access token is not allowed to use Fulfil_FulfillmentOrder::api_pending_allocation.</detail><code>1403</code>' +
        '<parameters><item><resources>Fulfil_FulfillmentOrder::api_pending_allocation</resources></item></parameters>' +
        '<errors><item><message>The access token is not allowed to use %resources.</message>' +
        '<detail>The access token is not allowed to use Fulfil_FulfillmentOrder::api_pending_allocation.</detail>' +
        '<parameters><item><resources>Fulfil_FulfillmentOrder::api_pending_allocation</resources></item></parameters></item></errors></response>',
    );
    const missing = await call(server, 'GET', '/V1/nothing', { accept: 'text/xml' });
    expect(missing.status).toBe(404);
    expect(readXml(missing.text).response).toMatchObject({
      message: 'Request does not match any route.',
      code: '404',
    });
  });

  test('page past the end is []; the date filter is inclusive', async () => {
    const past = await call(server, 'GET', `${POLL}?page=2`, { token: TOKENS.all });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    const far = await call(server, 'GET', `${POLL}?page=99999999999`, { token: TOKENS.all });
    expect(far.body).toEqual([]);
    const exactly = await call(server, 'GET', `${POLL}?date=2026-01-01%2000:00:00`, {
      token: TOKENS.all,
    });
    expect(exactly.body).toHaveLength(4);
    const after = await call(server, 'GET', `${POLL}?date=2026-01-01+00:00:01`, {
      token: TOKENS.all,
    });
    expect(after.body).toEqual([]);
  });

  test('one log line per request, with the token name and never the secret', async () => {
    const before = server.logs.length;
    await call(server, 'GET', `${POLL}?page=1&secret=${TOKENS.erp}`, { token: TOKENS.partnerA });
    await call(server, 'GET', POLL, { apiKey: TOKENS.revoked });
    const lines = server.logs.slice(before).map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: `/rest/default${POLL}`,
        status: 200,
        token: 'partner-a',
        level: 'info',
      }),
      expect.objectContaining({ method: 'GET', path: `/rest/default${POLL}`, status: 401 }),
    ]);
    expect(lines[1]).not.toHaveProperty('token');
    expect(typeof lines[0].duration_ms).toBe('number');
    for (const token of Object.values(TOKENS)) expect(server.logs.join('\n')).not.toContain(token);
  });
});

describe('requests that change orders', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  test('400 unknown item', async () => {
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: { order: { order_id: '100001002-1', items: [{ item_id: 999999, qty: 1 }] } },
    });
    const body = expectError(reply, 400);
    expect(body).toMatchObject({
      message: 'Item %fieldValue does not belong to this order.',
      code: 1002,
      parameters: [{ fieldName: 'order.items[0].item_id', fieldValue: '999999' }],
    });
  });

  test('400 when a subset is listed and partials are off', async () => {
    const order = await findInQueue(server, 'pending_accept', TOKENS.partnerA, '100001001-1');
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: { order: { order_id: '100001001-1', items: [{ item_id: order.items[0].id, qty: 2 }] } },
    });
    const body = expectError(reply, 400);
    expect(body.code).toBe(1003);
    expect(body.parameters).toEqual([
      { fieldName: 'order.items', fieldValue: String(order.items[1].id) },
    ]);
  });

  test('400 for a body that fails validation names each field', async () => {
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/ship', {
      token: TOKENS.partnerA,
      json: { shipment: { order_id: '', items: [{ item_id: 'one' }] } },
    });
    const body = expectError(reply, 400);
    expect(body.errors?.map((error) => error.parameters[0]?.fieldName)).toEqual([
      'shipment.order_id',
      'shipment.items[0].item_id',
    ]);
  });

  test('400 invoice mismatch names each mismatching field and the expected value', async () => {
    await advance(server, '100001001-1', 'pending_invoice');
    const order = await findInQueue(server, 'pending_invoice', TOKENS.erp, '100001001-1');
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/invoice', {
      token: TOKENS.erp,
      json: {
        invoice: {
          order_id: '100001001-1',
          items: [{ item_id: order.items[0].id }],
          invoice_number: 'INV-9',
          shipping_amount_incl_tax: 4.99,
        },
      },
    });
    const body = expectError(reply, 400);
    expect(body.code).toBe(1007);
    expect(body.errors).toEqual([
      {
        message: `%fieldName must list exactly the shipped items awaiting invoice: [${order.items.map((item: { id: number }) => item.id).join(',')}].`,
        detail: `invoice.items must list exactly the shipped items awaiting invoice: [${order.items.map((item: { id: number }) => item.id).join(',')}].`,
        parameters: [{ fieldName: 'invoice.items', fieldValue: String(order.items[0].id) }],
      },
      {
        message: '%fieldName must be 5.0000.',
        detail: 'invoice.shipping_amount_incl_tax must be 5.0000.',
        parameters: [{ fieldName: 'invoice.shipping_amount_incl_tax', fieldValue: '4.9900' }],
      },
    ]);
  });

  test("404 for an unknown order and for another warehouse's order, alike", async () => {
    const unknown = await call(server, 'POST', '/V1/fulfillmentOrder/reject', {
      token: TOKENS.partnerA,
      json: { order: { order_id: 'nope-1', items: [{ item_id: 1 }] } },
    });
    const other = await call(server, 'POST', '/V1/fulfillmentOrder/reject', {
      token: TOKENS.partnerA,
      json: { order: { order_id: '100001003-1', items: [{ item_id: 1 }] } },
    });
    const unknownBody = expectError(unknown, 404);
    const otherBody = expectError(other, 404);
    expect(unknownBody.code).toBe(1404);
    expect(otherBody.message).toBe(unknownBody.message);
    expect(otherBody.parameters).toEqual([
      { fieldName: 'order.order_id', fieldValue: '100001003-1' },
    ]);
  });

  test('400 for an action on a failed order', async () => {
    await advance(server, '100001002-1', 'pending_allocation');
    await server.engine.failOrder('default', '100001002-1', 'no stock', 'allocation');
    const order = await findInQueue(server, 'failed', TOKENS.erp, '100001002-1');
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/allocate', {
      token: TOKENS.erp,
      json: { allocation: { order_id: '100001002-1', items: [{ item_id: order.items[0].id }] } },
    });
    expect(expectError(reply, 400).code).toBe(1006);
  });

  test('prices are omitted in pending_accept and failed, present in pending_allocation', async () => {
    const priceFields = ['grand_total', 'shipping_amount', 'tax_amount', 'package_value'];
    const pending = await findInQueue(server, 'pending_accept', TOKENS.all, '100001001-1');
    for (const field of priceFields) expect(pending).not.toHaveProperty(field);
    expect(pending.items[0]).not.toHaveProperty('price');

    await advance(server, '100001001-1', 'pending_allocation');
    const allocation = await findInQueue(server, 'pending_allocation', TOKENS.erp, '100001001-1');
    expect(allocation).toMatchObject({
      grand_total: 35,
      shipping_amount: 5,
      tax_amount: 6.3,
      package_value: 30,
    });
    expect(allocation.items[0]).toMatchObject({
      price: 10,
      price_excl_tax: 8.2,
      total_price: 20,
      warehouse_code: 'WH-A',
    });

    await server.engine.failOrder('default', '100001001-1', 'lost', 'allocation');
    const failed = await findInQueue(server, 'failed', TOKENS.partnerA, '100001001-1');
    expect(failed.status).toBe('failed');
    for (const field of priceFields) expect(failed).not.toHaveProperty(field);
    expect(failed.items[0]).not.toHaveProperty('price');
  });

  test('the date filter keeps orders updated at or after the moment', async () => {
    server.clock.set('2026-01-02T08:00:00Z');
    await advance(server, '100001002-1', 'pending_allocation');
    server.clock.set('2026-01-02T09:00:00Z');
    await advance(server, '000123-1', 'pending_allocation');
    const poll = async (date: string) =>
      (
        await call(
          server,
          'GET',
          `/V1/fulfillmentOrders/pending_allocation?date=${encodeURIComponent(date)}`,
          { token: TOKENS.erp },
        )
      ).body.map((order: { fulfillment_order_number: string }) => order.fulfillment_order_number);
    expect(await poll('2026-01-02 08:00:00')).toEqual(['100001002-1', '000123-1']);
    expect(await poll('2026-01-02 08:00:01')).toEqual(['000123-1']);
    expect(await poll('2026-01-02 09:00:00')).toEqual(['000123-1']);
    expect(await poll('2026-01-02 09:00:01')).toEqual([]);
  });

  test('a retried accept is a 200 no-op', async () => {
    const order = await findInQueue(server, 'pending_accept', TOKENS.partnerA, '100001002-1');
    const body = {
      order: { order_id: '100001002-1', items: [{ item_id: order.items[0].id, qty: 1 }] },
    };
    const first = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: body,
    });
    server.clock.advance(60_000);
    const again = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: body,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});
