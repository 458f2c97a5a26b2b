import {
  DomainError,
  databaseUnavailable,
  PollParams,
  type Principal,
  parseWith,
  StockItemsRequest,
} from '@fulfil/core';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import {
  createAuthThrottle,
  createRequestHandler,
  ErrorBodySchema,
  type HttpEngine,
  type HttpRequest,
} from '../../src/index.js';

/** Issue 16 item 13: one error body shape, whatever the status, and one voice. */

const principal: Principal = {
  store_code: 'default',
  name: 'stub',
  warehouses: null,
  resources: [],
};

/**
 * Lets the token `good` in (any other is refused), refuses the token `denied` the action,
 * validates as the engine does, and fails as `failure` says for `/V1/warehouses`.
 */
function stubEngine(failure: () => never): HttpEngine {
  const unused = async () => {
    throw new Error('not called');
  };
  return {
    authenticate: async (_store, secret) => {
      if (secret === 'good' || secret === 'denied') return { ...principal, name: secret };
      throw new DomainError('unauthenticated', 'The token is not valid.');
    },
    authorize: (who) => {
      if (who.name === 'denied') {
        throw new DomainError('forbidden', 'The token may not do %resources.', [
          { resources: 'Fulfil_Api::stock_items' },
        ]);
      }
    },
    pollDocuments: async (_principal, _queue, query) => {
      parseWith(PollParams, query);
      return [];
    },
    pollPage: async (_principal, _queue, query) => {
      parseWith(PollParams, query);
      return { documents: [], cursor: 'stub', pending: false, store_id: 1 };
    },
    listWarehouses: async () => failure(),
    syncStock: async (_principal, body) => {
      parseWith(StockItemsRequest, body);
      return [];
    },
    adjustStock: unused,
    accept: unused,
    reject: unused,
    allocate: unused,
    ship: unused,
    invoice: unused,
    acceptCancellation: unused,
    rejectCancellation: unused,
    createSalesOrder: unused,
    createSalesOrders: unused,
    getSalesOrder: unused,
    pollSalesOrders: unused,
    createReturn: unused,
    pollReturns: unused,
    receiveReturn: unused,
    creditReturn: unused,
    holdSalesOrder: unused,
    releaseSalesOrder: unused,
    cancelSalesOrder: unused,
    listStores: unused,
    queueDepths: unused,
  };
}

function request(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = '',
): HttpRequest {
  return {
    method,
    path: `/rest/default/V1${path}`,
    query: new URLSearchParams(path.split('?')[1] ?? ''),
    headers: { api_key: 'good', ...headers },
    body: Buffer.from(body),
    remoteAddress: '192.0.2.1',
  };
}

const POLL = '/fulfillmentOrders/pending_accept';
const json = { 'content-type': 'application/json' };

const CASES: [status: number, failure: () => never, request: HttpRequest][] = [
  [400, unusedFailure, { ...request('GET', POLL), query: new URLSearchParams('page=0') }],
  [401, unusedFailure, request('GET', POLL, { api_key: 'wrong' })],
  [403, unusedFailure, request('POST', '/stockItems', { api_key: 'denied', ...json }, '{}')],
  [404, unusedFailure, request('GET', '/nowhere')],
  [405, unusedFailure, request('DELETE', POLL)],
  [406, unusedFailure, request('GET', POLL, { accept: 'text/html' })],
  [413, unusedFailure, request('POST', '/stockItems', json, '{"stock_items":[1,2,3,4,5]}')],
  [415, unusedFailure, request('POST', '/stockItems', { 'content-type': 'text/plain' }, '{}')],
  [429, unusedFailure, request('GET', POLL, { api_key: 'wrong' })],
  [
    500,
    () => {
      throw new Error('a bug');
    },
    request('GET', '/warehouses'),
  ],
  [
    503,
    () => {
      throw databaseUnavailable(new Error('ECONNRESET'));
    },
    request('GET', '/warehouses'),
  ],
];

function unusedFailure(): never {
  throw new Error('not called');
}

describe('every error status has the one error body', () => {
  test.each(CASES)('%i', async (status, failure, sent) => {
    const handler = createRequestHandler(stubEngine(failure), {
      log: () => {},
      bodyLimit: 16,
      // Throttled from the first failure on: the 429 case's request is its second.
      authThrottle: createAuthThrottle({ limit: status === 429 ? 1 : 100 }),
    });
    if (status === 429) await handler(sent);
    const response = await handler(sent);
    expect(response.status, String(response.body)).toBe(status);
    const body = v.parse(ErrorBodySchema, JSON.parse(String(response.body)));
    expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'errors', 'message', 'parameters']);
    expect(body.errors.length).toBeGreaterThan(0);
    for (const entry of [body, ...body.errors]) {
      // What a person reads: the message with every placeholder filled.
      expect(entry.detail).not.toMatch(/%\w/);
    }
    for (const detail of body.errors) {
      expect(Object.keys(detail).sort()).toEqual(['detail', 'message', 'parameters']);
    }
  });

  test('the same shape in XML', async () => {
    const handler = createRequestHandler(stubEngine(unusedFailure), { log: () => {} });
    const response = await handler(request('DELETE', POLL, { accept: 'application/xml' }));
    expect(response.status).toBe(405);
    expect(response.body).toBe(
      '<?xml version="1.0"?>\n<response><message>Method %fieldValue is not allowed here.</message><detail>Method DELETE is not allowed here.</detail><code>405</code><parameters><item><fieldName>method</fieldName><fieldValue>DELETE</fieldValue></item></parameters><errors><item><message>Method %fieldValue is not allowed here.</message><detail>Method DELETE is not allowed here.</detail><parameters><item><fieldName>method</fieldName><fieldValue>DELETE</fieldValue></item></parameters></item></errors></response>',
    );
  });
});

describe('no message speaks the validator’s words', () => {
  const handler = createRequestHandler(stubEngine(unusedFailure), { log: () => {} });
  const bodies = [
    '{"stock_items":[{"warehouse_code":"A","sku":"S","qty":-1}]}',
    '{"stock_items":[{"warehouse_code":7,"sku":null,"qty":"x"}]}',
    '{"stock_items":"none"}',
    '[]',
    '"text"',
  ];
  test.each(bodies)('%s', async (body) => {
    const response = await handler(request('POST', '/stockItems', json, body));
    expect(response.status).toBe(400);
    const sent = v.parse(ErrorBodySchema, JSON.parse(String(response.body)));
    for (const message of [sent.message, ...sent.errors.map((detail) => detail.message)]) {
      expect(message).not.toMatch(/Invalid (value|type|key|length):|Expected|received/);
    }
  });

  test('a page over the last one names the range', async () => {
    const response = await handler({
      ...request('GET', POLL),
      query: new URLSearchParams('page=99999999999999999999'),
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(String(response.body)).message).toMatch(
      /^Invalid value of "%fieldName": must be an integer from 1 to \d+$/,
    );
  });
});
