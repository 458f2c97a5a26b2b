import type { Engine, SeedInput } from '@fulfil/core';
import { afterAll, beforeAll } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import type { DatabaseKind, TestDatabase } from '../databases/open.js';

/** A server over one database of `kind`, seeded, for the tests of one `describe`. */

export const TOKEN = 'limits-all-secret-0123456789abcdefghi';

export interface Served {
  database: TestDatabase;
  engine: Engine;
  url: string;
  /** POST under `/rest/default` with the store's `all` token, JSON both ways. */
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the answer's fields freely
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  /** GET under `/rest/default`, JSON: the answer's text, parsed, and its `Fulfil-Cursor`. */
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the answer's fields freely
  get(path: string): Promise<{ status: number; text: string; body: any; cursor: string | null }>;
  /** POST of an XML body, answered in JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the answer's fields freely
  postXml(path: string, xml: string): Promise<{ status: number; body: any }>;
}

/** A store `default` with `stores[0]`'s warehouses and stock, and the `all` token `TOKEN`. */
export function servedPerDescribe(kind: DatabaseKind, seed: SeedInput): Served {
  let server: RunningHttpServer;
  const served = {} as Served;
  beforeAll(async () => {
    const database = await kind.open();
    await database.engine.loadSeed(seed);
    server = await startHttpServer({ engine: database.engine, log: () => {} });
    Object.assign(served, { database, engine: database.engine, url: server.url });
  });
  afterAll(async () => {
    await server?.close();
    await served.database?.drop();
  });
  const send = async (path: string, body: string, contentType: string) => {
    const response = await fetch(`${served.url}/rest/default${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': contentType,
        accept: 'application/json',
      },
      body,
    });
    return { status: response.status, body: await response.json() };
  };
  served.get = async (path) => {
    const response = await fetch(`${served.url}/rest/default${path}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      body: JSON.parse(text),
      cursor: response.headers.get('fulfil-cursor'),
    };
  };
  served.post = (path, body) => send(path, JSON.stringify(body), 'application/json');
  served.postXml = (path, xml) => send(path, xml, 'application/xml');
  return served;
}

/** The field each detail of an error body names. */
export function fieldsOf(body: { errors?: { parameters: { fieldName?: string }[] }[] }) {
  return (body.errors ?? []).map((entry) => entry.parameters[0]?.fieldName);
}

/** Accepts, allocates and ships every line of fulfillment order `number`; answers its lines. */
export async function shipWhole(served: Served, number: string) {
  const items = (await served.engine.getOrder('default', number)).items.map((item) => ({
    item_id: item.id,
    qty: item.qty,
  }));
  for (const [action, key] of [
    ['accept', 'order'],
    ['allocate', 'allocation'],
    ['ship', 'shipment'],
  ] as const) {
    const reply = await served.post(`/V1/fulfillmentOrder/${action}`, {
      [key]: { order_id: number, items, ...(action === 'ship' ? { tracks: [] } : {}) },
    });
    if (reply.status !== 200) throw new Error(`${action} ${number}: ${JSON.stringify(reply.body)}`);
  }
  return items;
}

/** Store `default`: one warehouse `WH-A` holding `stock` (sku → qty), and the `all` token. */
export function oneWarehouseStore(stock: Record<string, number> = {}, active = true): SeedInput {
  return {
    stores: [
      {
        code: 'default',
        warehouses: [{ code: 'WH-A', name: 'A', active }],
        stock: Object.entries(stock).map(([sku, qty]) => ({ warehouse_code: 'WH-A', sku, qty })),
        tokens: [{ name: 'all', token: TOKEN, acl: 'all' }],
      },
    ],
  };
}

/** `count` skus `L-0`… with `qty` each: stock for orders of many lines. */
export function manySkus(count: number, qty: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`L-${index}`, qty]));
}
