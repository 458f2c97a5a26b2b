/**
 * The store the benchmarks run on, and fast ways to fill it with orders.
 *
 * Finished orders are written with the repository's `insertOrder`, a thousand per transaction,
 * already invoiced: walking one through the engine (intake, accept, allocate, ship, invoice)
 * costs ~3 ms, so 20k of them would take a minute.
 */
import {
  createEngine,
  type Engine,
  type FulfillmentOrder,
  type Item,
  type Principal,
} from '@fulfil/core';
import { openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import * as fixtures from '../packages/core/src/testing/fixtures.js';

export const STORE = 'default';
export const WAREHOUSE = 'WH-A';
export const SKUS = ['SKU-1', 'SKU-2', 'SKU-3'] as const;
const PARTNER_SECRET = 'bench-partner-0123456789-abcdefghijklmnopqrstuv';

export interface BenchStore {
  engine: Engine;
  repository: SqliteRepository;
  storeId: number;
  /** Token of the partner running WH-A, scoped to it. */
  partner: Principal;
}

/**
 * An engine over `filename` (`:memory:` or a file, opened as `openSqliteRepository` opens
 * every database) with store `default`: warehouses WH-A and WH-B, stock of the three skus, and
 * a partner token scoped to WH-A.
 */
export async function openBenchStore(filename: string): Promise<BenchStore> {
  const repository = await openSqliteRepository({ filename });
  const engine = createEngine({ repository });
  await engine.loadSeed({
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
        ],
      },
    ],
  });
  const store = await engine.getStore(STORE);
  return {
    engine,
    repository,
    storeId: store.id,
    partner: await engine.authenticate(STORE, PARTNER_SECRET),
  };
}

/** Three lines of 2 units each, one per sku, all in `status`. */
function lines(status: Item['status'], invoiceNumber: string | null): Item[] {
  return SKUS.map((sku) =>
    fixtures.item(sku, { status, warehouse_code: WAREHOUSE, invoice_number: invoiceNumber }),
  );
}

/** A new order of three lines waiting in pending_accept, as intake leaves it. */
export function pendingOrder(storeId: number): FulfillmentOrder {
  return fixtures.order({ store_id: storeId, items: lines('pending_accept', null) });
}

/** A new order of three lines that went the whole way: allocated, shipped and invoiced. */
export function finishedOrder(storeId: number, n: number): FulfillmentOrder {
  const invoiceNumber = `INV-${n}`;
  const at = fixtures.FIXTURE_TIME;
  return fixtures.order({
    store_id: storeId,
    items: lines('invoiced', invoiceNumber),
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
  });
}

/** Inserts `count` orders made by `make`, a thousand per transaction; returns them as stored. */
export async function insertOrders(
  repository: SqliteRepository,
  count: number,
  make: (n: number) => FulfillmentOrder,
): Promise<FulfillmentOrder[]> {
  const stored: FulfillmentOrder[] = [];
  for (let start = 0; start < count; start += 1000) {
    const end = Math.min(count, start + 1000);
    await repository.transaction(async (tx) => {
      for (let n = start; n < end; n++) stored.push(await tx.insertOrder(make(n)));
    });
  }
  return stored;
}
