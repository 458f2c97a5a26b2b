import { databaseUnavailable, type Principal } from '@fulfil/core';
import { expect, test } from 'vitest';
import { createRequestHandler, type HttpEngine } from '../../src/index.js';
import { errorBody } from './support.js';

/** A database that cannot serve is a 503 with Retry-After, never a 500. */

const principal: Principal = {
  store_code: 'default',
  name: 'stub',
  warehouses: null,
  resources: [],
};

/**
 * Issue 16 item 11: a 503 can follow an action the database committed (the connection dropped
 * between COMMIT and its reply), so the body says what makes retrying safe.
 */
const UNAVAILABLE =
  'The database is unavailable right now; retry in a moment. A retry is safe: every action is idempotent, so one that was applied after all is not applied twice.';

/** An engine that lets anyone in and whose database is away for every use case. */
function engineWithoutDatabase(): HttpEngine {
  const away = async () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    throw databaseUnavailable(cause);
  };
  return {
    authenticate: async () => principal,
    authorize: () => {},
    pollDocuments: away,
    pollPage: away,
    listWarehouses: away,
    syncStock: away,
    adjustStock: away,
    accept: away,
    reject: away,
    allocate: away,
    ship: away,
    invoice: away,
    acceptCancellation: away,
    rejectCancellation: away,
    createSalesOrder: away,
    createSalesOrders: away,
    getSalesOrder: away,
    pollSalesOrders: away,
    createReturn: away,
    pollReturns: away,
    receiveReturn: away,
    creditReturn: away,
    holdSalesOrder: away,
    releaseSalesOrder: away,
    cancelSalesOrder: away,
    listStores: away,
    queueDepths: away,
  };
}

test('is 503 with Retry-After: 1 and the error body; the cause goes to the log only', async () => {
  const logs: Record<string, unknown>[] = [];
  const handler = createRequestHandler(engineWithoutDatabase(), {
    log: (line) => logs.push(JSON.parse(line)),
  });
  const response = await handler({
    method: 'POST',
    path: '/rest/default/V1/stockItems',
    query: {},
    headers: { api_key: 'x', 'content-type': 'application/json' },
    body: Buffer.from('{"stock_items":[]}'),
  });
  expect(response.status).toBe(503);
  expect(response.headers['retry-after']).toBe('1');
  expect(JSON.parse(String(response.body))).toEqual(errorBody(UNAVAILABLE, 1503));
  expect(response.body).not.toContain('ECONNREFUSED');
  expect(logs).toEqual([
    expect.objectContaining({
      level: 'error',
      status: 503,
      cause: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432',
    }),
  ]);
  expect(logs[0]).not.toHaveProperty('report_id');
});

test('answers in XML when XML is asked for', async () => {
  const handler = createRequestHandler(engineWithoutDatabase(), { log: () => {} });
  const response = await handler({
    method: 'GET',
    path: '/rest/default/V1/fulfillmentOrders/pending_accept',
    query: {},
    headers: { api_key: 'x', accept: 'application/xml' },
    body: Buffer.alloc(0),
  });
  expect(response.status).toBe(503);
  expect(response.headers['retry-after']).toBe('1');
  expect(response.body).toBe(
    `<?xml version="1.0"?>\n<response><message>${UNAVAILABLE}</message><detail>${UNAVAILABLE}</detail><code>1503</code><parameters></parameters>` +
      `<errors><item><message>${UNAVAILABLE}</message><detail>${UNAVAILABLE}</detail><parameters></parameters></item></errors></response>`,
  );
});
