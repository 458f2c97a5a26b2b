/**
 * The in-process benchmarks' store: an engine over a SQLite database seeded as fill-store.ts
 * seeds, and orders written straight through the repository, a thousand per transaction.
 */
import { createEngine, type Engine, type FulfillmentOrder, type Principal } from '@fulfil/core';
import { openSqliteRepository, type SqliteRepository } from '@fulfil/storage-sqlite';
import * as fixtures from '../packages/core/src/testing/fixtures.js';
import {
  BENCH_SEED,
  benchLines,
  insertOrders as insertInOneTransaction,
  invoicedOrder,
  PARTNER_SECRET,
  STORE,
} from './fill-store.js';

export { WAREHOUSE } from './fill-store.js';

export interface BenchStore {
  engine: Engine;
  repository: SqliteRepository;
  storeId: number;
  /** Token of the partner running WH-A, scoped to it. */
  partner: Principal;
}

/** An engine over `filename` (`:memory:` or a file, opened as `openSqliteRepository` opens every database). */
export async function openBenchStore(filename: string): Promise<BenchStore> {
  const repository = await openSqliteRepository({ filename });
  const engine = createEngine({ repository });
  await engine.loadSeed(BENCH_SEED);
  const store = await engine.getStore(STORE);
  return {
    engine,
    repository,
    storeId: store.id,
    partner: await engine.authenticate(STORE, PARTNER_SECRET),
  };
}

/** A new order of three lines waiting in pending_accept, as intake leaves it. */
export function pendingOrder(storeId: number): FulfillmentOrder {
  return fixtures.order({ store_id: storeId, items: benchLines('pending_accept') });
}

/** A new order of three lines that went the whole way: allocated, shipped and invoiced. */
export const finishedOrder = invoicedOrder;

/** Inserts `count` orders made by `make`, a thousand per transaction; returns them as stored. */
export async function insertOrders(
  repository: SqliteRepository,
  count: number,
  make: (n: number) => FulfillmentOrder,
): Promise<FulfillmentOrder[]> {
  const stored: FulfillmentOrder[] = [];
  for (let start = 0; start < count; start += 1000) {
    const size = Math.min(1000, count - start);
    stored.push(...(await insertInOneTransaction(repository, size, (k) => make(start + k))));
  }
  return stored;
}
