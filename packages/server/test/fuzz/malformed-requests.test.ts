import type { Engine } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../../src/http/admin-handler.js';
import { OPERATIONS, routePattern, STORE_PREFIX } from '../../src/http/routes.js';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import { databaseKinds, type TestDatabase } from '../databases/open.js';
import { type FuzzRequest, type FuzzWorld, malformedRequests } from './generator.js';

/**
 * Fuzzing: thousands of generated malformed requests across every endpoint, JSON and XML. None
 * may get a 5xx, every error must carry the spec's error body, and the database must be exactly
 * as it was afterwards. The seed is fixed and printed; to replay or explore:
 *   FULFIL_FUZZ_SEED=<seed> FULFIL_FUZZ_COUNT=<n> npx vitest run packages/server/test/fuzz
 */

const SEED = Number(process.env.FULFIL_FUZZ_SEED ?? 20_261_123);
const COUNT = Number(process.env.FULFIL_FUZZ_COUNT ?? 2_000);
const IN_FLIGHT = 4;

const TOKENS = {
  all: 'fuzz-all-secret-0123456789abcdefghijklmn',
  partner: 'fuzz-partner-secret-0123456789abcdefghij',
  erp: 'fuzz-erp-secret-0123456789abcdefghijklmn',
};

/** A store with one order waiting in each stage at WH-A, and tokens scoped to WH-A. */
async function buildWorld(engine: Engine): Promise<FuzzWorld> {
  const order = (number: string) =>
    fixtures.salesOrder(
      number,
      [
        { sku: 'SKU-1', qty: 2 },
        { sku: 'SKU-2', qty: 1 },
      ],
      {
        warehouse_code: 'WH-A',
      },
    );
  await engine.loadSeed({
    stores: [
      {
        code: 'default',
        warehouses: [
          { code: 'WH-A', name: 'A', priority: 10 },
          { code: 'WH-B', name: 'B', priority: 5 },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 50 },
          { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 50 },
          { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 50 },
        ],
        tokens: [
          { name: 'all', token: TOKENS.all, acl: 'all' },
          { name: 'partner', token: TOKENS.partner, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'erp', token: TOKENS.erp, acl: 'erp', warehouses: ['WH-A'] },
        ],
        orders: ['8001', '8002', '8003', '8004'].map(order),
      },
      { code: 'other', warehouses: [{ code: 'WH-X', name: 'X' }] },
    ],
  });
  const operator = engine.operator('default');
  const stages = ['pending_accept', 'pending_allocation', 'pending_shipment', 'pending_invoice'];
  const orders = {} as FuzzWorld['orders'];
  for (const [index, stage] of stages.entries()) {
    const order_id = `800${index + 1}-1`;
    const lines = (await engine.getOrder('default', order_id)).items;
    const items = lines.map((item) => ({ item_id: item.id, qty: item.qty }));
    if (index >= 1) await engine.accept(operator, { order: { order_id, items } });
    if (index >= 2) await engine.allocate(operator, { allocation: { order_id, items } });
    if (index >= 3) await engine.ship(operator, { shipment: { order_id, items } });
    expect((await engine.getOrder('default', order_id)).status).toBe(stage);
    orders[stage as keyof FuzzWorld['orders']] = {
      number: order_id,
      items: lines.map((item) => ({ id: item.id, qty: item.qty })),
    };
  }
  return { tokens: TOKENS, own: 'WH-A', other: 'WH-B', orders };
}

const xml = new XMLParser({ parseTagValue: false, ignoreAttributes: true });
const PARAMETER_KEYS = new Set(['resources', 'fieldName', 'fieldValue']);

/** What is wrong with an error response's body, or null when it is the spec's error body. */
function errorBodyProblem(contentType: string, text: string): string | null {
  let body: Record<string, unknown>;
  try {
    body = contentType.includes('xml')
      ? (xml.parse(text) as { response: Record<string, unknown> }).response
      : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return `the body is not ${contentType}`;
  }
  if (typeof body !== 'object' || body === null) return 'the body is not an object';
  if (typeof body.message !== 'string' || body.message === '') return 'no message';
  if ('trace' in body) return 'a trace outside debug mode';
  if (contentType.includes('xml')) return null; // XML has no types to check beyond this
  if (body.code !== undefined && !Number.isInteger(body.code)) return 'code is not an integer';
  const parametersOk = (value: unknown) =>
    Array.isArray(value) &&
    value.every(
      (parameter) =>
        typeof parameter === 'object' &&
        parameter !== null &&
        Object.entries(parameter).every(
          ([key, field]) => PARAMETER_KEYS.has(key) && typeof field === 'string',
        ),
    );
  if (body.parameters !== undefined && !parametersOk(body.parameters)) return 'bad parameters';
  if (
    body.errors !== undefined &&
    !(
      Array.isArray(body.errors) &&
      body.errors.every(
        (entry: { message?: unknown; parameters?: unknown }) =>
          typeof entry.message === 'string' && parametersOk(entry.parameters),
      )
    )
  ) {
    return 'bad errors';
  }
  return null;
}

/** A value that exists for each path parameter of the routes, so only the NUL is wrong. */
const PARAMETER_VALUES: Record<string, string> = {
  store_code: 'default',
  store: 'default',
  sales_order_number: '8001',
  number: '8001-1',
  warehouse: 'WH-A',
  code: 'WH-A',
  sku: 'SKU-1',
  name: 'all',
  label: '1',
  rma: 'RMA-1',
  asset: 'icon.svg',
};

/** Every route pattern with parameters, public and admin, with its method. */
function parameterRoutes(): { method: string; pattern: string }[] {
  const routes = [
    ...OPERATIONS.map((operation) => ({
      method: operation.method,
      pattern: `${STORE_PREFIX}${routePattern(operation.path)}`,
    })),
    ...ADMIN_ROUTES.map(({ method, pattern }) => ({ method, pattern })),
  ];
  return routes.filter(({ pattern }) => pattern.includes(':'));
}

/** The route's path with `nul` (a parameter name) as `%00`, the others as values that exist. */
function pathWithNul(pattern: string, nul: string): string {
  return pattern.replace(/:(\w+)/g, (_whole, name: string) =>
    name === nul ? '%00' : (PARAMETER_VALUES[name] ?? 'x'),
  );
}

async function send(url: string, request: FuzzRequest) {
  const response = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

for (const kind of databaseKinds()) {
  describe(`fuzzing the REST surface on ${kind.name}`, () => {
    let database: TestDatabase;
    let engine: Engine;
    let server: RunningHttpServer;
    let world: FuzzWorld;

    beforeAll(async () => {
      database = await kind.open();
      engine = database.engine;
      world = await buildWorld(engine);
      server = await startHttpServer({ engine, log: () => {} });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it(`${COUNT} malformed requests: no 5xx, the spec's error body, nothing changed`, async () => {
      const before = await database.snapshot();
      const statuses = new Map<number, number>();
      const failures: string[] = [];
      let serverErrors = 0;
      const requests = [...malformedRequests(SEED, COUNT, world)];
      // A few in flight at once: the requests are independent, and it keeps the run short.
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const index = next++;
          const request = requests[index] as FuzzRequest;
          const reply = await send(server.url, request);
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
          const where = `#${index} (${request.method} ${request.path.slice(0, 80)}; ${request.label})`;
          if (reply.status >= 500) {
            serverErrors++;
            failures.push(`${where}: ${reply.status} ${reply.text.slice(0, 200)}`);
          } else if (reply.status >= 400) {
            const problem = errorBodyProblem(reply.contentType, reply.text);
            if (problem) {
              failures.push(`${where}: ${reply.status} ${problem}: ${reply.text.slice(0, 200)}`);
            }
          }
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      const index = [...statuses.values()].reduce((sum, n) => sum + n, 0);
      const summary = [...statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ');
      console.log(
        `fuzz on ${kind.name}: seed ${SEED}, ${index} requests fuzzed, ${serverErrors} 5xx; ${summary}`,
      );
      expect(index).toBe(COUNT);
      expect(failures, `replay with FULFIL_FUZZ_SEED=${SEED}`).toEqual([]);
      expect(await database.snapshot()).toEqual(before);
    }, 120_000);

    it('a NUL in any path parameter of any route is 404, never 5xx, and changes nothing', async () => {
      const operator = await engine.admin.createOperator({ name: 'fuzz-admin', role: 'admin' });
      const admin = await startHttpServer({ engine, log: () => {}, admin: {} });
      try {
        const before = await database.snapshot();
        const answers: string[] = [];
        for (const { method, pattern } of parameterRoutes()) {
          for (const [, nul] of pattern.matchAll(/:(\w+)/g)) {
            const path = pathWithNul(pattern, nul as string);
            const secret = pattern.startsWith('/admin') ? operator.secret : TOKENS.all;
            const response = await fetch(`${admin.url}${path}`, {
              method,
              headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
              ...(method === 'GET' ? {} : { body: '{"reason":"fuzz"}' }),
            });
            const text = await response.text();
            if (response.status !== 404)
              answers.push(`${method} ${path}: ${response.status} ${text.slice(0, 120)}`);
          }
        }
        expect(answers).toEqual([]);
        expect(await database.snapshot()).toEqual(before);
      } finally {
        await admin.close();
      }
    });
  });
}
