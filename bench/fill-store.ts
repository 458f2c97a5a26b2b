/**
 * Filling a benchmark database through the product's own paths: the store from a seed document,
 * orders through the engine's intake. Every scenario fills its databases here and nowhere else.
 *
 * The invoiced history goes in through the repository port (`insertOrder`, the method intake
 * itself writes with), a thousand orders per transaction, already invoiced: walking each one
 * through intake, accept, allocate, ship and invoice measured ~17 ms an order on a SQLite file
 * (~80 ms on Postgres), which would take hours for a million.
 */
import {
  createEngine,
  DEFAULT_CALENDAR,
  deriveFulfillBy,
  type Engine,
  type FulfillmentOrder,
  INTAKE_BATCH_SIZE,
  type Item,
  type OrderResource,
  type QueueName,
  type Repository,
  unverified,
} from '@fulfil/core';
import * as fixtures from '../packages/core/src/testing/fixtures.js';
import type { BenchDatabase } from './databases.js';

export const STORE = 'default';
export const WAREHOUSE = 'WH-A';
export const SKUS = ['SKU-1', 'SKU-2', 'SKU-3'] as const;
export const PARTNER_SECRET = 'bench-partner-0123456789-abcdefghijklmnopqrstuv';
export const ERP_SECRET = 'bench-erp-0123456789-abcdefghijklmnopqrstuvwxyz';
export const CHANNEL_SECRET = 'bench-channel-0123456789-abcdefghijklmnopqrstu';

/**
 * Store `default`: WH-A and WH-B, stock of the skus at WH-A, a partner token for WH-A, an ERP
 * token, a sales channel's token.
 */
export const BENCH_SEED = {
  stores: [
    {
      code: STORE,
      settings: { partial_items: false, partial_qty: false, reroute: true },
      warehouses: [
        { code: WAREHOUSE, name: 'Partner A', priority: 10 },
        { code: 'WH-B', name: 'Partner B', priority: 5 },
      ],
      stock: SKUS.map((sku) => ({ warehouse_code: WAREHOUSE, sku, qty: 1_000_000_000 })),
      tokens: [
        { name: 'partner-a', token: PARTNER_SECRET, acl: 'partner', warehouses: [WAREHOUSE] },
        { name: 'erp', token: ERP_SECRET, acl: 'erp' },
        { name: 'channel', token: CHANNEL_SECRET, acl: 'channel' },
      ],
    },
  ],
};

/** A sales order of two lines (SKU-1, SKU-2, one unit each) pinned to WH-A; `n` makes it unique. */
export function benchSalesOrder(n: number) {
  return fixtures.salesOrder(
    String(700_000_000 + n),
    [
      { sku: 'SKU-1', qty: 1 },
      { sku: 'SKU-2', qty: 1 },
    ],
    { warehouse_code: WAREHOUSE },
  );
}

/** Takes the sales orders in through the engine's batch intake, one transaction per batch. */
async function intake(engine: Engine, orders: readonly unknown[]): Promise<OrderResource[]> {
  const created: OrderResource[] = [];
  for (let start = 0; start < orders.length; start += INTAKE_BATCH_SIZE) {
    const batch = orders.slice(start, start + INTAKE_BATCH_SIZE).map(unverified);
    for (const outcome of await engine.intakeBatch(STORE, batch, 'bench')) {
      if (outcome.outcome === 'refused') throw outcome.error;
      if (outcome.outcome === 'created') created.push(...outcome.fulfillment_orders);
    }
  }
  return created;
}

export interface Fill {
  /** Invoiced orders written first: the history a busy store keeps. */
  invoiced: number;
  /** Then orders left in pending_accept, as intake leaves them. */
  pending: number;
}

const CHUNK = 1_000;
const PROGRESS_EVERY_MS = 10_000;

/**
 * Seeds the store and fills `database` (empty or not: numbering goes on from `firstNumber`);
 * returns the pending orders as intake answered them. Prints progress on stderr when it is slow.
 */
export async function fillStore(
  database: BenchDatabase,
  fill: Fill,
  firstNumber = 0,
): Promise<OrderResource[]> {
  const repository = await database.open();
  const engine = createEngine({ repository });
  try {
    await engine.loadSeed(BENCH_SEED);
    const storeId = (await engine.getStore(STORE)).id;
    const total = fill.invoiced + fill.pending;
    const started = performance.now();
    let lastReport = started;
    const pending: OrderResource[] = [];
    for (let done = 0; done < total; done += CHUNK) {
      const size = Math.min(CHUNK, total - done);
      const history = Math.max(0, Math.min(size, fill.invoiced - done));
      const first = firstNumber + done;
      await insertOrders(repository, history, (k) => invoicedOrder(storeId, first + k));
      const orders = Array.from({ length: size - history }, (_, k) =>
        benchSalesOrder(first + history + k),
      );
      pending.push(...(await intake(engine, orders)));
      if (performance.now() - lastReport > PROGRESS_EVERY_MS) {
        lastReport = performance.now();
        const rate = (done + size) / ((lastReport - started) / 1000);
        process.stderr.write(
          `  filling ${database.label}: ${done + size} of ${total} orders (${Math.round(rate)}/s)\n`,
        );
      }
    }
    return pending;
  } finally {
    await engine.close();
  }
}

/** Every order of `queue` as the store's operator polls it, page by page. */
export async function ordersInQueue(
  database: BenchDatabase,
  queue: QueueName,
): Promise<OrderResource[]> {
  const engine = createEngine({ repository: await database.open() });
  try {
    const orders: OrderResource[] = [];
    for (let page = 1; ; page++) {
      const found = await engine.poll(engine.operator(STORE), queue, { page });
      if (found.length === 0) return orders;
      orders.push(...found);
    }
  } finally {
    await engine.close();
  }
}

/**
 * `count` orders made by `make` in one transaction, through the repository's batch insert (one
 * statement per table instead of one per order: on Postgres a million one by one took half an
 * hour); returns them as stored.
 */
export async function insertOrders(
  repository: Repository,
  count: number,
  make: (n: number) => FulfillmentOrder,
): Promise<FulfillmentOrder[]> {
  if (count === 0) return [];
  const orders = Array.from({ length: count }, (_, n) => make(n));
  return repository.transaction((tx) => tx.insertOrders(orders));
}

/** `SKUS` lines of 2 units each, all in `status`. */
export function benchLines(status: Item['status'], invoiceNumber: string | null = null): Item[] {
  return SKUS.map((sku) =>
    fixtures.item(sku, { status, warehouse_code: WAREHOUSE, invoice_number: invoiceNumber }),
  );
}

/** An order that went the whole way: allocated, shipped (one track) and invoiced. */
export function invoicedOrder(storeId: number, n: number): FulfillmentOrder {
  const invoiceNumber = `INV-${n}`;
  const at = fixtures.FIXTURE_TIME;
  return fixtures.order({
    store_id: storeId,
    items: benchLines('invoiced', invoiceNumber),
    // Item ids are not known before the insert; the JSON only has to be of realistic size.
    shipments: [
      {
        id: 0,
        items: SKUS.map((_, index) => ({ item_id: index + 1, qty: 2 })),
        tracks: [
          { carrier_code: 'ups', title: 'UPS', track_number: `1Z${String(n).padStart(16, '0')}` },
        ],
        created_at: at,
      },
    ],
    invoices: [
      {
        id: 0,
        invoice_number: invoiceNumber,
        item_ids: [1, 2, 3],
        shipping_amount_incl_tax: 50_000,
        invoice_time: at,
        additional_data: null,
        doc_binary: null,
        created_at: at,
      },
    ],
    allocated_at: at,
    shipped_at: at,
    invoiced_at: at,
    // The deadline intake gives it: none would have the database give it one as it opens.
    fulfill_by: deriveFulfillBy(DEFAULT_CALENDAR, at),
  });
}
