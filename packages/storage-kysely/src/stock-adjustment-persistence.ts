import type { AdjustmentReason, StockAdjustmentRecord } from '@fulfil/core';
import type { Kysely } from 'kysely';
import { chunk } from './chunk.js';
import type { Database } from './database.js';

/**
 * Stock adjustments and their lines (migration 0023). Every function runs on the caller's
 * transaction.
 */

type Db = Kysely<Database>;

/** Inserts the adjustment and its lines unless its number is taken (then null, nothing written). */
export async function insertStockAdjustment(
  db: Db,
  record: StockAdjustmentRecord,
): Promise<StockAdjustmentRecord | null> {
  const row = await db
    .insertInto('stock_adjustments')
    .values({
      store_id: record.store_id,
      adjustment_number: record.adjustment_number,
      token_name: record.token_name,
      created_at: record.created_at,
    })
    .onConflict((oc) => oc.columns(['store_id', 'adjustment_number']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return null;
  const id = Number(row.id);
  const lines = record.items.map((item, line) => ({
    store_id: record.store_id,
    adjustment_id: id,
    line,
    warehouse_code: item.warehouse_code,
    sku: item.sku,
    delta: item.delta,
    reason: item.reason,
    on_hand: item.on_hand,
  }));
  for (const slice of chunk(lines)) {
    await db.insertInto('stock_adjustment_lines').values(slice).execute();
  }
  return { ...record, id };
}

export async function findStockAdjustment(
  db: Db,
  storeId: number,
  adjustmentNumber: string,
): Promise<StockAdjustmentRecord | null> {
  const row = await db
    .selectFrom('stock_adjustments')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('adjustment_number', '=', adjustmentNumber)
    .executeTakeFirst();
  if (!row) return null;
  const lines = await db
    .selectFrom('stock_adjustment_lines')
    .select(['warehouse_code', 'sku', 'delta', 'reason', 'on_hand'])
    .where('adjustment_id', '=', row.id)
    .orderBy('line')
    .execute();
  return {
    id: Number(row.id),
    store_id: Number(row.store_id),
    adjustment_number: row.adjustment_number,
    token_name: row.token_name,
    created_at: row.created_at,
    items: lines.map((line) => ({
      warehouse_code: line.warehouse_code,
      sku: line.sku,
      delta: Number(line.delta),
      reason: line.reason as AdjustmentReason,
      on_hand: Number(line.on_hand),
    })),
  };
}
