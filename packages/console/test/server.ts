import {
  type Clock,
  createEngine,
  type Engine,
  type EngineOptions,
  type SeedInput,
} from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { startHttpServer } from '@fulfil/server';
import { openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import { createConsoleHandler } from '../src/index.js';

/** A whole Fulfil in this process (SQLite :memory:), the console mounted as `fulfil serve` does. */

export const PARTNER_TOKEN = 'console-partner-token-0123456789abcdef';
export const ERP_TOKEN = 'console-erp-token-00000-0123456789abcdef';

/** What a customer may type, and the console must show as text. */
export const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
export const HOSTILE_NOTE = '"><script>alert(1)</script>';

type Line = { sku: string; qty: number; price?: number };

function order(
  number: string,
  lines: Line[],
  overrides: Parameters<typeof fixtures.salesOrder>[2] = {},
) {
  return fixtures.salesOrder(number, lines, { warehouse_code: 'WH-A', ...overrides });
}

/**
 * One store, two partner warehouses, a courier warehouse and an inactive one, and orders for
 * each scenario: `5000…` to find and read, `5100…` a customer found by her full name, `52000…`
 * to walk through every step an order takes (scenarios.ts), `53000…` and `54000…` to ship by
 * courier, `55000…`, `56000…` and `57000…` to fail, abandon and cancel, `6000…` to fail and
 * requeue, `7000…` (sku BULK-1) to bulk-cancel beside `7100…` that shares no sku with them,
 * `8000…` with two lines to ship in part, `9000…` a customer typing markup.
 */
export function consoleSeed(): SeedInput {
  return {
    stores: [
      {
        code: 'default',
        settings: { partial_items: false, partial_qty: false, reroute: false },
        warehouses: [
          { code: 'WH-A', name: 'Partner A', fulfilled_by: 'partner', priority: 10 },
          { code: 'WH-B', name: 'Partner B', fulfilled_by: 'partner', priority: 5 },
          { code: 'WH-C', name: 'Courier C', fulfilled_by: 'courier', priority: 1 },
          { code: 'WH-OLD', name: 'Closed', fulfilled_by: 'partner', priority: 0, active: false },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 },
          { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 100 },
          { warehouse_code: 'WH-A', sku: 'BULK-1', qty: 100 },
          { warehouse_code: 'WH-A', sku: 'SKU-3', qty: 100 },
          { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 40 },
          { warehouse_code: 'WH-B', sku: 'SKU-3', qty: 40 },
          { warehouse_code: 'WH-C', sku: 'SKU-1', qty: 40 },
        ],
        tokens: [
          { name: 'partner', token: PARTNER_TOKEN, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'erp', token: ERP_TOKEN, acl: 'erp' },
        ],
        orders: [
          order('500000001', [{ sku: 'SKU-1', qty: 2 }], {
            customer_firstname: 'Grace',
            customer_lastname: 'Hopper',
            customer_email: 'grace@example.com',
          }),
          order('510000001', [{ sku: 'SKU-2', qty: 1 }], {
            customer_firstname: 'Giulia',
            customer_lastname: 'Rossi',
            customer_email: 'g.rossi@example.com',
          }),
          order(
            '520000001',
            [
              { sku: 'SKU-1', qty: 2, price: 44.5 },
              { sku: 'SKU-2', qty: 1, price: 19.9 },
              { sku: 'SKU-3', qty: 1, price: 12.25 },
            ],
            {
              customer_firstname: 'Marco',
              customer_lastname: 'Bianchi',
              customer_email: 'marco.bianchi@example.com',
            },
          ),
          order('530000001', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-C' }),
          order('540000001', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-C' }),
          order('550000001', [{ sku: 'SKU-2', qty: 1 }]),
          order('560000001', [{ sku: 'SKU-2', qty: 1 }]),
          order('570000001', [{ sku: 'SKU-2', qty: 1 }]),
          order('600000001', [{ sku: 'SKU-2', qty: 1 }]),
          order('700000001', [{ sku: 'BULK-1', qty: 1 }]),
          order('700000002', [{ sku: 'BULK-1', qty: 2 }]),
          order('700000003', [{ sku: 'BULK-1', qty: 3 }]),
          order('710000001', [{ sku: 'SKU-2', qty: 1 }]),
          order('800000001', [
            { sku: 'SKU-1', qty: 1 },
            { sku: 'SKU-2', qty: 1 },
          ]),
          order('900000001', [{ sku: 'SKU-2', qty: 1 }], {
            customer_firstname: HOSTILE_NAME,
            customer_lastname: 'Mallory',
            shipping: {
              method_code: 'std',
              method_name: 'Standard',
              internal_method_code: 'std',
              customer_note: HOSTILE_NOTE,
            },
          }),
        ],
      },
    ],
  };
}

export interface ConsoleServer {
  /** `http://127.0.0.1:<port>`: the console is at `${url}/admin/`. */
  url: string;
  engine: Engine;
  /**
   * The engine's database, for what no API writes (a label as a carrier would issue it, stock
   * that drifted from its orders).
   */
  repository: SqliteRepository;
  /** The first admin, as `fulfil operator create` would make it. */
  admin: { name: string; secret: string };
  /** Calls the admin API as the admin, by bearer secret (no cookie, no browser). */
  adminApi<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Calls `/rest/default/V1…` with a token; answers the status and the parsed body. */
  v1(
    method: string,
    path: string,
    token: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

export interface ConsoleServerOptions {
  seed?: SeedInput;
  /** The engine's clock (default the system's): a test moves it to make orders old. */
  clock?: Clock;
  /** The couriers by type (default the simulated one): a test's refuses when told to. */
  couriers?: EngineOptions['couriers'];
}

export async function startConsoleServer(
  options: ConsoleServerOptions = {},
): Promise<ConsoleServer> {
  const repository = await openSqliteRepository(':memory:');
  const engine = createEngine({
    repository,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.couriers ? { couriers: options.couriers } : {}),
  });
  const seed = options.seed ?? consoleSeed();
  await engine.loadSeed(seed);
  const created = await engine.admin.createOperator({ name: 'alice', role: 'admin' });
  const admin = { name: 'alice', secret: created.secret };
  const server = await startHttpServer({
    engine,
    port: 0,
    log: () => {},
    admin: {},
    console: createConsoleHandler(),
  });
  const call = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  return {
    url: server.url,
    engine,
    repository,
    admin,
    async adminApi<T>(method: string, path: string, body?: unknown) {
      const answer = await call(
        method,
        `/admin/api/${path}`,
        {
          authorization: `Bearer ${admin.secret}`,
        },
        body,
      );
      if (answer.status >= 300) {
        throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      return answer.body as T;
    },
    v1: (method, path, token, body) =>
      call(method, `/rest/default/V1/${path}`, { authorization: `Bearer ${token}` }, body),
    async close() {
      await server.close();
      await engine.close();
    },
  };
}
