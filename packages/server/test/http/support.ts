import { readFileSync } from 'node:fs';
import {
  createEngine,
  type Engine,
  type EngineOptions,
  type ErrorParameter,
  ManualClock,
  renderMessage,
  type SeedInput,
  unverified,
} from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { XMLParser } from 'fast-xml-parser';
import { afterEach } from 'vitest';
import { type HttpServerOptions, startHttpServer } from '../../src/index.js';
import {
  createOpenApiValidator,
  type OpenApiValidator,
  type ResponseFacts,
} from './openapi-validator.js';

/** Test tokens: fixed secrets of 32+ characters, one per role the tests need. */
export const TOKENS = {
  partnerA: 'partner-a-secret-0123456789abcdef',
  partnerB: 'partner-b-secret-0123456789abcdef',
  erp: 'erp-secret-000000-0123456789abcdef',
  all: 'all-secret-000000-0123456789abcdef',
  expired: 'expired-secret-00-0123456789abcdef',
  revoked: 'revoked-secret-00-0123456789abcdef',
  otherStore: 'other-store-secret-0123456789abcdef',
} as const;

export const START = '2026-01-01T00:00:00Z';

/**
 * Options for `vi.waitFor` (whose default gives up after 1 s): long enough for a slow machine,
 * shorter than a test's timeout so a failure says what never came.
 */
export const PATIENCE = { timeout: 15_000 };

export async function metricsOf(server: TestServer): Promise<string> {
  return (await fetch(`${server.url}/metrics`)).text();
}

/** The value of one sample line, or undefined when the exposition has no such line. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A sales order pinned to one warehouse; names and company put XML escaping to work. */
export function salesOrder(
  id: number,
  number: string,
  warehouse: string,
  lines: [string, number][],
) {
  const address = fixtures.address({ company: 'Smith & Sons' });
  return fixtures.salesOrder(
    number,
    lines.map(([sku, qty]) => ({ sku, qty, name: `Widget ${sku} <b>` })),
    {
      sales_order_id: id,
      warehouse_code: warehouse,
      billing_address: address,
      shipping_address: address,
    },
  );
}

/** Two partner warehouses, one courier warehouse, stock, tokens of every kind, and orders. */
export function testSeed(): SeedInput {
  return {
    stores: [
      {
        code: 'default',
        settings: { partial_items: false, partial_qty: false, reroute: false },
        warehouses: [
          { code: 'WH-A', name: 'Partner A', fulfilled_by: 'partner', priority: 10 },
          { code: 'WH-B', name: 'Partner B', fulfilled_by: 'partner', priority: 5 },
          { code: 'COURIER', name: 'Own courier', fulfilled_by: 'courier', priority: 1 },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 },
          { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 100 },
          { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 50 },
          { warehouse_code: 'COURIER', sku: 'SKU-3', qty: 20 },
        ],
        tokens: [
          { name: 'partner-a', token: TOKENS.partnerA, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'partner-b', token: TOKENS.partnerB, acl: 'partner', warehouses: ['WH-B'] },
          { name: 'erp', token: TOKENS.erp, acl: 'erp' },
          { name: 'all', token: TOKENS.all, acl: 'all' },
          { name: 'expired', token: TOKENS.expired, acl: 'all', expires_at: '2025-12-31 23:59:59' },
          { name: 'revoked', token: TOKENS.revoked, acl: 'all' },
        ],
        orders: [
          salesOrder(1001, '100001001', 'WH-A', [
            ['SKU-1', 2],
            ['SKU-2', 1],
          ]),
          salesOrder(1002, '100001002', 'WH-A', [['SKU-1', 1]]),
          salesOrder(1003, '100001003', 'WH-B', [['SKU-1', 1]]),
          salesOrder(123, '000123', 'WH-A', [['SKU-2', 3]]),
        ],
      },
      {
        code: 'other',
        warehouses: [{ code: 'WH-X', name: 'Elsewhere' }],
        tokens: [{ name: 'other-all', token: TOKENS.otherStore, acl: 'all' }],
      },
    ],
  };
}

export interface TestServer {
  url: string;
  engine: Engine;
  clock: ManualClock;
  /** Every line the server logged. */
  logs: string[];
  close(): Promise<void>;
}

/** An in-memory engine with `seed` loaded, served on an ephemeral port. */
export async function startTestServer(
  options: {
    seed?: unknown;
    server?: Partial<HttpServerOptions>;
    revoke?: string[];
    /** More engine options: couriers, the installation's carrier accounts… */
    engine?: Omit<EngineOptions, 'repository' | 'clock'>;
  } = {},
): Promise<TestServer> {
  const clock = new ManualClock(START);
  const engine = createEngine({
    ...options.engine,
    repository: await openSqliteRepository(':memory:'),
    clock,
  });
  await engine.loadSeed(options.seed ? unverified(options.seed) : testSeed());
  for (const name of options.revoke ?? (options.seed ? [] : ['revoked'])) {
    await engine.revokeToken('default', name);
  }
  const logs: string[] = [];
  const server = await startHttpServer({
    engine,
    log: (entry) => logs.push(entry),
    ...options.server,
  });
  // The document responses are checked against, read now: its request is not the test's.
  await validatorOf(server.url);
  logs.length = 0;
  return {
    url: server.url,
    engine,
    clock,
    logs,
    async close() {
      await server.close();
      await engine.close();
    },
  };
}

/**
 * A `startTestServer` whose servers are closed after each test of the file that calls this (at
 * its top level).
 */
export function serverPerTest(): (
  options?: Parameters<typeof startTestServer>[0],
) => Promise<TestServer> {
  const started: TestServer[] = [];
  afterEach(async () => {
    for (const server of started.splice(0).reverse()) await server.close();
  });
  return async (options) => {
    const server = await startTestServer(options);
    started.push(server);
    return server;
  };
}

export function readSeedFile(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
}

export interface CallOptions {
  token?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless `xml` is given. */
  json?: unknown;
  xml?: string;
  accept?: string;
  store?: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: test convenience, like fetch's own json()
  body: any;
}

const validators = new Map<string, Promise<OpenApiValidator>>();

/** The validator of the document a server serves, fetched once per server. */
export function validatorOf(url: string): Promise<OpenApiValidator> {
  let validator = validators.get(url);
  if (!validator) {
    validator = fetch(`${url}/rest/default/schema`)
      .then((response) => response.json() as Promise<Record<string, unknown>>)
      .then(createOpenApiValidator);
    validators.set(url, validator);
  }
  return validator;
}

/**
 * One request under `/rest/{store}` (default `default`). Every reply is checked against the
 * OpenAPI document the server serves; a reply the document does not describe fails the test.
 */
export async function call(
  server: Pick<TestServer, 'url'>,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  // Fetched before the request: a test may close the server while its request is in flight.
  const validator = await validatorOf(server.url);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers.api_key = options.apiKey;
  if (options.accept) headers.accept = options.accept;
  let body: string | undefined;
  if (options.xml !== undefined) {
    headers['content-type'] ??= 'application/xml';
    body = options.xml;
  } else if (options.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${server.url}/rest/${options.store ?? 'default'}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const reply = { status: response.status, headers: response.headers, text, body: parsed };
  expectDocumented(validator, {
    method,
    path,
    status: reply.status,
    headers: reply.headers,
    body: parsed,
  });
  return reply;
}

/** Throws unless the response is what the OpenAPI document says. `path` may carry a query. */
export function expectDocumented(validator: OpenApiValidator, response: ResponseFacts): void {
  const problems = validator.problems({ ...response, path: response.path.split('?')[0] as string });
  if (problems.length) {
    throw new Error(`the response contradicts the OpenAPI document:\n${problems.join('\n')}`);
  }
}

const xmlReader = new XMLParser({
  parseTagValue: false,
  ignoreAttributes: true,
  processEntities: true,
});

/** Reads an XML response back as a tree of strings, to look at. */
export function readXml(text: string): Record<string, unknown> {
  return xmlReader.parse(text) as Record<string, unknown>;
}

/** All pages of a queue, as the given token sees it. */
export async function pollAll(server: Pick<TestServer, 'url'>, queue: string, token: string) {
  const orders = [];
  for (let page = 1; ; page++) {
    const reply = await call(server, 'GET', `/V1/fulfillmentOrders/${queue}?page=${page}`, {
      token,
    });
    if (reply.status !== 200) throw new Error(`poll ${queue}: ${reply.status} ${reply.text}`);
    if (reply.body.length === 0) return orders;
    orders.push(...reply.body);
  }
}

/** The order numbered `number` as `token` sees it in `queue`; fails when it is not there. */
export async function findInQueue(
  server: Pick<TestServer, 'url'>,
  queue: string,
  token: string,
  number: string,
) {
  const found = (await pollAll(server, queue, token)).find(
    (order: { fulfillment_order_number: string }) => order.fulfillment_order_number === number,
  );
  if (!found) throw new Error(`${number} is not in ${queue}`);
  return found;
}

type Stage = 'pending_allocation' | 'pending_shipment' | 'pending_invoice' | 'invoiced';

/** One step of the flow: the queue the order waits in, the action that moves it, its body. */
const STEPS: {
  queue: string;
  action: string;
  body(number: string, items: { id: number; qty: number }[]): unknown;
  reaches: Stage;
}[] = [
  {
    queue: 'pending_accept',
    action: 'accept',
    body: (order_id, items) => ({
      order: { order_id, items: items.map((item) => ({ item_id: item.id, qty: item.qty })) },
    }),
    reaches: 'pending_allocation',
  },
  {
    queue: 'pending_allocation',
    action: 'allocate',
    body: (order_id, items) => ({
      allocation: { order_id, items: items.map((item) => ({ item_id: item.id })) },
    }),
    reaches: 'pending_shipment',
  },
  {
    queue: 'pending_shipment',
    action: 'ship',
    body: (order_id, items) => ({
      shipment: { order_id, items: items.map((item) => ({ item_id: item.id })) },
    }),
    reaches: 'pending_invoice',
  },
  {
    queue: 'pending_invoice',
    action: 'invoice',
    body: (order_id, items) => ({
      invoice: {
        order_id,
        items: items.map((item) => ({ item_id: item.id })),
        invoice_number: `INV-${order_id}`,
      },
    }),
    reaches: 'invoiced',
  },
];

/**
 * Moves a whole order forward over HTTP (JSON, the `all` token) until it reaches `stage`: the
 * setup of tests about a later endpoint. Returns the last action's response.
 */
export async function advance(server: Pick<TestServer, 'url'>, number: string, stage: Stage) {
  for (const step of STEPS) {
    const body = await takeStep(server, number, step);
    if (step.reaches === stage) return body;
  }
  throw new Error(`unknown stage ${stage}`);
}

/**
 * Moves a whole order one stage forward over HTTP (JSON, the `all` token), out of the queue it
 * waits in, to `stage`. Returns the action's response.
 */
export async function advanceOne(server: Pick<TestServer, 'url'>, number: string, stage: Stage) {
  const step = STEPS.find((candidate) => candidate.reaches === stage);
  if (!step) throw new Error(`unknown stage ${stage}`);
  return takeStep(server, number, step);
}

async function takeStep(
  server: Pick<TestServer, 'url'>,
  number: string,
  step: (typeof STEPS)[number],
) {
  const order = await findInQueue(server, step.queue, TOKENS.all, number);
  const reply = await call(server, 'POST', `/V1/fulfillmentOrder/${step.action}`, {
    token: TOKENS.all,
    json: step.body(number, order.items),
  });
  if (reply.status !== 200)
    throw new Error(`${step.action} ${number}: ${reply.status} ${reply.text}`);
  return reply.body;
}

/** A fetch response's body as JSON, loosely typed for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test convenience, like Reply.body
export async function jsonOf(response: Response): Promise<any> {
  return response.json();
}

/** The error body of one problem, as the server writes it for every status. */
export function errorBody(message: string, code: number, parameters: ErrorParameter[] = []) {
  const detail = renderMessage(message, parameters);
  return { message, detail, code, parameters, errors: [{ message, detail, parameters }] };
}
