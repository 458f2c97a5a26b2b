import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Engine, Principal } from '@fulfil/core';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  buildOpenApiDocument,
  createRequestHandler,
  type HttpEngine,
  startCourierLoop,
  startHttpServer,
} from '../../src/index.js';
import {
  call,
  errorBody,
  jsonOf,
  PATIENCE,
  salesOrder,
  startTestServer,
  type TestServer,
  TOKENS,
  testSeed,
} from './support.js';

/** The node adapter (limits, shutdown), the 500 path, the OpenAPI document and the courier loop. */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  cleanups.push(() => server.close());
  return server;
}

const principal: Principal = {
  store_code: 'default',
  name: 'stub',
  warehouses: null,
  resources: [],
};

/** An engine whose every call fails unexpectedly, except that it lets anyone in. */
function brokenEngine(
  pollDocuments: HttpEngine['pollDocuments'] = async () =>
    Promise.reject(new Error('disk on fire at /var/db')),
): HttpEngine {
  const fail = async () => {
    throw new Error('unexpected');
  };
  return {
    authenticate: async () => principal,
    authorize: () => {},
    pollDocuments,
    pollPage: async (actor, queue, query) => ({
      documents: await pollDocuments(actor, queue, query),
      cursor: 'cursor',
      pending: false,
      store_id: 1,
    }),
    listWarehouses: fail,
    syncStock: fail,
    adjustStock: fail,
    accept: fail,
    reject: fail,
    allocate: fail,
    ship: fail,
    invoice: fail,
    acceptCancellation: fail,
    rejectCancellation: fail,
    createSalesOrder: fail,
    createSalesOrders: fail,
    getSalesOrder: fail,
    pollSalesOrders: fail,
    createReturn: fail,
    pollReturns: fail,
    receiveReturn: fail,
    creditReturn: fail,
    holdSalesOrder: fail,
    releaseSalesOrder: fail,
    cancelSalesOrder: fail,
    listStores: fail,
    queueDepths: fail,
  };
}

/**
 * Sends a raw request on a connection of its own (never a pooled one the server may be closing)
 * and reads the status and body, however the server ends the exchange.
 */
function rawRequest(
  url: string,
  options: {
    method?: string;
    path: string;
    headers: Record<string, string | number>;
    chunks: Buffer[];
  },
) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = httpRequest(
        `${url}${options.path}`,
        { method: options.method ?? 'POST', headers: options.headers, agent: false },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        },
      );
      req.on('error', reject);
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    },
  );
}

describe('500', () => {
  async function brokenServer(debug: boolean) {
    const logs: string[] = [];
    const server = await startHttpServer({
      engine: brokenEngine(),
      debug,
      log: (line) => logs.push(line),
    });
    cleanups.push(() => server.close());
    const reply = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: 'whatever-token',
    });
    // Leaves out the line of the OpenAPI document `call` reads to check the reply against.
    const requests = logs
      .map((line) => JSON.parse(line))
      .filter((entry) => !entry.path.endsWith('/schema'));
    return { reply, logs: requests };
  }

  test('a generic message with a report id that is also in the log, with the stack', async () => {
    const { reply, logs } = await brokenServer(false);
    expect(reply.status).toBe(500);
    const id = /^Internal error; report id ([0-9a-f]{12})$/.exec(reply.body.message)?.[1];
    expect(id).toBeDefined();
    expect(reply.body).toEqual(
      errorBody(`Internal error; report id ${id}`, 500, [
        { fieldName: 'report_id', fieldValue: id },
      ]),
    );
    expect(reply.text).not.toContain('disk on fire');
    expect(reply.headers.get('x-report-id')).toBe(id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 'error', status: 500, report_id: id, token: 'stub' });
    expect(logs[0].error).toContain('disk on fire at /var/db');
    expect(logs[0].error).toContain('server.test.ts');
  });

  test('debug mode adds the trace', async () => {
    const { reply } = await brokenServer(true);
    expect(reply.status).toBe(500);
    expect(reply.body.trace).toContain('Error: disk on fire at /var/db');
  });

  test('the plain handler works without a socket', async () => {
    const handler = createRequestHandler(brokenEngine(), { log: () => {}, reportId: () => 'r-1' });
    const response = await handler({
      method: 'GET',
      path: '/rest/default/V1/fulfillmentOrders/failed',
      query: { page: '1' },
      headers: { api_key: 'x', accept: 'application/xml' },
      body: Buffer.alloc(0),
    });
    expect(response).toEqual({
      status: 500,
      headers: expect.objectContaining({
        'content-type': 'application/xml; charset=utf-8',
        'x-report-id': 'r-1',
      }),
      body:
        '<?xml version="1.0"?>\n<response><message>Internal error; report id r-1</message>' +
        '<detail>Internal error; report id r-1</detail><code>500</code>' +
        '<parameters><item><fieldName>report_id</fieldName><fieldValue>r-1</fieldValue></item></parameters>' +
        '<errors><item><message>Internal error; report id r-1</message><detail>Internal error; report id r-1</detail>' +
        '<parameters><item><fieldName>report_id</fieldName><fieldValue>r-1</fieldValue></item></parameters></item></errors></response>',
    });
  });

  test('query values reach the engine as text', async () => {
    const poll = vi.fn(async () => []);
    const handler = createRequestHandler(brokenEngine(poll), { log: () => {} });
    const query = new URLSearchParams('page=2&date=2026-01-01+10:00:00&other=x');
    const response = await handler({
      method: 'GET',
      path: '/rest/default/V1/fulfillmentOrders/failed',
      query,
      headers: { api_key: 'x' },
      body: Buffer.alloc(0),
    });
    expect(response.status).toBe(200);
    // The principal carries the request's id (a generated one: none was sent) to the timeline.
    expect(poll).toHaveBeenCalledWith({ ...principal, request_id: expect.any(String) }, 'failed', {
      page: '2',
      date: '2026-01-01 10:00:00',
    });
  });
});

describe('413', () => {
  const path = '/rest/default/V1/stockItems';
  const limit = 1024;
  const headers = { authorization: `Bearer ${TOKENS.all}`, 'content-type': 'application/json' };
  const body = (size: number) => {
    const prefix = '{"stock_items":[],"pad":"';
    return Buffer.from(`${prefix}${'x'.repeat(size - prefix.length - 2)}"}`);
  };

  test('a declared Content-Length over the limit is refused before reading', async () => {
    const server = await serve({ server: { bodyLimit: limit } });
    const reply = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.all,
      json: { pad: 'x'.repeat(2000) },
    });
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual(
      errorBody('The request body exceeds the limit of %fieldValue bytes.', 413, [
        { fieldName: 'body', fieldValue: '1024' },
      ]),
    );
    expect(server.logs.map((line) => JSON.parse(line).status)).toEqual([413]);
  });

  test('a chunked body past the limit is refused and its connection closed', async () => {
    const server = await serve({ server: { bodyLimit: limit } });
    const reply = await rawRequest(server.url, {
      path,
      headers: { ...headers, 'transfer-encoding': 'chunked' },
      chunks: [body(1000), Buffer.alloc(100, 0x20)],
    });
    expect(reply.status).toBe(413);
    expect(reply.headers.connection).toBe('close');
  });

  test('a body of exactly the limit is read', async () => {
    const server = await serve({ server: { bodyLimit: limit } });
    const reply = await rawRequest(server.url, {
      path,
      headers: { ...headers, 'transfer-encoding': 'chunked' },
      chunks: [body(limit).subarray(0, 500), body(limit).subarray(500)],
    });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual([]);
  });
});

describe('close()', () => {
  test('turns new requests away with 503, lets the request in flight finish, then resolves', async () => {
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const poll = vi.fn(async () => {
      entered();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return [];
    });
    const server = await startHttpServer({ engine: brokenEngine(poll), log: () => {} });
    const inFlight = call(server, 'GET', '/V1/fulfillmentOrders/failed', { token: 'x' });
    await inside;

    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    // The listener drains its backlog before it closes: what arrives now is told to come back.
    const late = await rawRequest(server.url, {
      method: 'GET',
      path: '/rest/default/schema',
      headers: {},
      chunks: [],
    });
    expect(closed).toBe(false);
    expect(late.status).toBe(503);
    expect(late.headers['retry-after']).toBe('1');
    expect(late.headers.connection).toBe('close');
    expect(JSON.parse(late.body)).toEqual(
      errorBody('The server is shutting down; retry in a moment.', 503),
    );

    release();
    const reply = await inFlight;
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([]);
    expect(reply.headers.get('connection')).toBe('close');
    await closing;
    expect(closed).toBe(true);
    await expect(fetch(`${server.url}/rest/default/schema`)).rejects.toThrow();
    await server.close(); // twice is harmless
  });

  test('a body that never finishes is cut off when the grace period ends', async () => {
    const server = await startHttpServer({
      engine: brokenEngine(async () => []),
      log: () => {},
      shutdownGraceMs: 300,
    });
    const { hostname, port } = new URL(server.url);
    const socket = connect({ host: hostname, port: Number(port) });
    await new Promise((resolve) => socket.once('connect', resolve));
    const cut = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => {});
    socket.write(
      'POST /rest/default/V1/stockItems HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer x\r\n' +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"stock',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    let closedAfter = 0;
    const closing = server.close().then(() => {
      closedAfter = performance.now() - started;
    });
    await cut;
    await closing;
    expect(closedAfter).toBeGreaterThanOrEqual(250);
  });

  test('idle keep-alive connections do not hold it open', async () => {
    const server = await startHttpServer({ engine: brokenEngine(async () => []), log: () => {} });
    expect((await call(server, 'GET', '/V1/fulfillmentOrders/failed', { token: 'x' })).status).toBe(
      200,
    );
    await server.close();
  });
});

describe('OpenAPI', () => {
  test('GET /rest/{store}/schema needs no token and is built from the route table', async () => {
    const server = await serve();
    const response = await fetch(`${server.url}/rest/default/schema`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const document = await jsonOf(response);
    expect(document).toEqual({
      ...JSON.parse(JSON.stringify(buildOpenApiDocument())),
      servers: [{ url: `${server.url}/rest/default`, description: 'The store default.' }],
    });
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        '/V1/warehouses',
        '/V1/stockItems',
        '/V1/stockAdjustments',
        ...[
          'pending_accept',
          'pending_allocation',
          'pending_shipment',
          'pending_invoice',
          'failed',
          'pending_cancellation',
        ].map((queue) => `/V1/fulfillmentOrders/${queue}`),
        ...[
          'accept',
          'reject',
          'allocate',
          'ship',
          'invoice',
          'acceptCancellation',
          'rejectCancellation',
        ].map((action) => `/V1/fulfillmentOrder/${action}`),
        '/V1/salesOrders',
        '/V1/salesOrders/batch',
        '/V1/salesOrders/{sales_order_number}',
        '/V1/returns',
        '/V1/returns/pending_receipt',
        '/V1/returns/pending_credit',
        '/V1/return/receive',
        '/V1/return/credit',
        '/V1/salesOrder/hold',
        '/V1/salesOrder/release',
        '/V1/salesOrder/cancel',
        '/schema',
      ].sort(),
    );
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'api_key' }),
    });
    expect(document.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);

    const accept = document.paths['/V1/fulfillmentOrder/accept'].post;
    expect(accept['x-acl-resource']).toBe('Fulfil_FulfillmentOrder::api_accept');
    expect(Object.keys(document.components.requestBodies.AcceptRequest.content)).toEqual([
      'application/json',
      'application/xml',
      'text/xml',
    ]);
    expect(Object.keys(accept.responses[200].content)).toEqual([
      'application/json',
      'application/xml',
      'text/xml',
    ]);
    expect(Object.keys(accept.responses)).toEqual(
      expect.arrayContaining(['400', '401', '403', '404', '406', '413', '415', '500', 'default']),
    );
    const acceptSchema = document.components.schemas.AcceptRequest;
    expect(acceptSchema.xml).toEqual({ name: 'request' });
    expect(acceptSchema.properties.order.properties.items).toMatchObject({
      type: 'array',
      minItems: 1,
      xml: { wrapped: true },
      items: { xml: { name: 'item' }, required: ['item_id', 'qty'] },
    });
    const poll = document.paths['/V1/fulfillmentOrders/pending_accept'].get;
    // The contract's two, then the extensions of docs/polling.md and docs/deadlines.md.
    expect(poll.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'page',
      'date',
      'after',
      'since',
      'wait',
      'include',
      'sort',
    ]);
    expect(Object.keys(poll.responses[200].headers)).toEqual(['Fulfil-Cursor']);
    expect(poll.responses[410]).toEqual({ $ref: '#/components/responses/CursorExpired' });
    expect(poll.responses[200].content['application/xml'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/FulfillmentOrder', xml: { name: 'item' } },
      xml: { name: 'response', wrapped: true },
    });
    const order = document.components.schemas.FulfillmentOrder;
    expect(order.required).toEqual(
      expect.arrayContaining([
        'id',
        'fulfillment_order_number',
        'items',
        'payment',
        'shipping_address',
      ]),
    );
    expect(order.required).not.toContain('grand_total');

    // Every reference resolves.
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const [, kind, name] = /#\/components\/(\w+)\/(\w+)/.exec(ref) ?? [];
      expect(document.components[kind as string]?.[name as string], ref).toBeDefined();
    }
  });

  test('the server URL is the requested store; XML only is 406', async () => {
    const server = await serve();
    const other = await jsonOf(await fetch(`${server.url}/rest/other/schema`));
    expect(other.servers).toEqual([
      { url: `${server.url}/rest/other`, description: 'The store other.' },
    ]);
    const xml = await fetch(`${server.url}/rest/default/schema`, {
      headers: { accept: 'application/xml' },
    });
    expect(xml.status).toBe(406);
    expect(
      buildOpenApiDocument({ baseUrl: 'https://fulfil.example/', aclPrefix: 'Acme' }).servers[0]
        ?.url,
    ).toBe('https://fulfil.example/rest/{store_code}');
    const acme = buildOpenApiDocument({ aclPrefix: 'Acme' }).paths['/V1/warehouses'] as {
      get: Record<string, unknown>;
    };
    expect(acme.get['x-acl-resource']).toBe('Acme_Inventory::api_warehouses');
  });
});

describe('courier loop', () => {
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test('never overlaps itself, keeps going after errors, and stop() waits for the round', async () => {
    let running = 0;
    let most = 0;
    let calls = 0;
    const lines: string[] = [];
    const engine: Pick<Engine, 'dispatchCourier'> = {
      dispatchCourier: async () => {
        calls += 1;
        running += 1;
        most = Math.max(most, running);
        await wait(15);
        running -= 1;
        if (calls % 2 === 0) throw new Error('courier down');
        return { shipped: [`SO-${calls}`], retrying: [], failed: [], voided: [], void_failed: [] };
      },
    };
    const stop = startCourierLoop(engine, { intervalMs: 1, log: (line) => lines.push(line) });
    await wait(120);
    await stop();
    const after = calls;
    await wait(30);
    expect(calls).toBe(after);
    expect(running).toBe(0);
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(most).toBe(1);
    const entries = lines.map((line) => JSON.parse(line));
    expect(
      entries.some((entry) => entry.level === 'error' && entry.error.includes('courier down')),
    ).toBe(true);
    expect(entries.some((entry) => entry.level === 'info' && entry.shipped[0] === 'SO-1')).toBe(
      true,
    );
  });

  test('ships an allocated order of a courier warehouse', async () => {
    const seed = testSeed();
    seed.stores[0]?.orders?.push(salesOrder(2001, '200002001', 'COURIER', [['SKU-3', 1]]));
    const server = await serve({ seed, revoke: [] });
    const pending = await call(server, 'GET', '/V1/fulfillmentOrders/pending_allocation', {
      token: TOKENS.erp,
    });
    const order = pending.body.find(
      (candidate: { fulfillment_order_number: string }) =>
        candidate.fulfillment_order_number === '200002001-1',
    );
    const allocated = await call(server, 'POST', '/V1/fulfillmentOrder/allocate', {
      token: TOKENS.erp,
      json: { allocation: { order_id: '200002001-1', items: [{ item_id: order.items[0].id }] } },
    });
    expect(allocated.body.status).toBe('pending_shipment');

    const lines: string[] = [];
    const stop = startCourierLoop(server.engine, {
      intervalMs: 5,
      log: (line) => lines.push(line),
    });
    cleanups.push(stop);
    await vi.waitFor(async () => {
      const invoice = await call(server, 'GET', '/V1/fulfillmentOrders/pending_invoice', {
        token: TOKENS.erp,
      });
      expect(
        invoice.body.map(
          (candidate: { fulfillment_order_number: string }) => candidate.fulfillment_order_number,
        ),
      ).toEqual(['200002001-1']);
    }, PATIENCE);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      msg: 'courier dispatch',
      shipped: ['200002001-1'],
    });
  });
});
