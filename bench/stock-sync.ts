/**
 * Stock sync (POST /V1/stockItems): `engine.syncStock` with a batch of 10,000 entries
 * (validation, store, warehouse scope, duplicate check, the upserts; one transaction) against one
 * prepared `INSERT … ON CONFLICT … DO UPDATE` run 10,000 times in one transaction. The stock rows
 * exist after the warm-up, so the rounds measure a steady-state sync that changes every row.
 */
import { join } from 'node:path';
import type { StockItemsInput } from '@fulfil/core';
import { compare, type Plan, quickPlan, report } from './measure.js';
import { type RawDb, rawCopy, runSql } from './raw-sqlite.js';
import { openBenchStore, WAREHOUSE } from './store.js';

const BATCH = 10_000;
const FULL_PLAN: Plan = { warmupOps: 4, opsPerRound: 1, rounds: 21 };

interface StockEntry {
  warehouse_code: string;
  sku: string;
  qty: number;
}

/** Two batches over the same skus with different quantities, used in turn. */
function batches(): StockEntry[][] {
  return [0, 1].map((variant) =>
    Array.from({ length: BATCH }, (_, n) => ({
      warehouse_code: WAREHOUSE,
      sku: `SYNC-${String(n).padStart(5, '0')}`,
      qty: (n % 100) + variant,
    })),
  );
}

function rawSync(db: RawDb, storeId: number) {
  const upsert = db.prepare(
    `insert into stock (store_id, warehouse_code, sku, on_hand, reserved) values (?, ?, ?, ?, 0)
     on conflict (store_id, warehouse_code, sku) do update set on_hand = excluded.on_hand`,
  );
  const sync = db.transaction((entries: StockEntry[]) => {
    for (const entry of entries) upsert.run(storeId, entry.warehouse_code, entry.sku, entry.qty);
  });
  return (entries: StockEntry[]) => sync.immediate(entries);
}

const OUTCOME = 'select count(*) n, sum(on_hand) on_hand, sum(reserved) reserved from stock';

export async function benchStockSync(dir: string, quick: boolean): Promise<void> {
  const plan = quickPlan(FULL_PLAN, quick);
  const { engine, repository, storeId, partner } = await openBenchStore(join(dir, 'stock.db'));
  try {
    const raw = await rawCopy(repository, dir, 'stock-floor', 'file');
    try {
      const [even, odd] = batches() as [StockEntry[], StockEntry[]];
      const bodies: StockItemsInput[] = [{ stock_items: even }, { stock_items: odd }];
      const floor = rawSync(raw, storeId);
      const result = await compare(
        (i) => engine.syncStock(partner, bodies[i % 2] as StockItemsInput),
        (i) => floor(i % 2 ? odd : even),
        plan,
      );
      const [ours] = await runSql(repository, OUTCOME);
      const theirs = raw.prepare(OUTCOME).get();
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
        throw new Error(
          `bench stock sync: outcomes differ: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`,
        );
      }
      report(
        `stock sync (${BATCH / 1000}k entries, 1 warehouse, rows exist; file db, WAL, synchronous=FULL)`,
        result,
        {
          fulfil: `engine.syncStock(partner scoped to ${WAREHOUSE}, { stock_items: ${BATCH} x { warehouse_code, sku, qty } })`,
          floor: `BEGIN IMMEDIATE; 1 prepared insert … on conflict do update set on_hand, run ${BATCH} times; COMMIT`,
        },
      );
    } finally {
      raw.close();
    }
  } finally {
    await engine.close();
  }
}
