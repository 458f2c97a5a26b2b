import {
  appendAll,
  compareCodes,
  deriveReturnStatus,
  type QuarantineDelta,
  type ReturnRecord,
  type ReturnStatus,
} from '@fulfil/core';
import type { Kysely, Selectable } from 'kysely';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import type { Database, ReturnTable } from './database.js';
import { decodeJson, encodeJson } from './row-codec.js';

/**
 * Returns (`returns`, migration 0019) and the goods they hold in quarantine
 * (`return_quarantine`). Every function runs on the caller's transaction.
 */

type Db = Kysely<Database>;

/** What a return's `document` holds: everything of the record that is no column. */
type ReturnDocument = Pick<ReturnRecord, 'items' | 'receipts' | 'credits'>;

function decodeReturn(row: Selectable<ReturnTable>): ReturnRecord {
  const document = decodeJson<ReturnDocument>(row.document);
  return {
    id: Number(row.id),
    store_id: Number(row.store_id),
    rma_number: row.rma_number,
    sales_order_number: row.sales_order_number,
    warehouse_code: row.warehouse_code,
    items: document.items,
    receipts: document.receipts,
    credits: document.credits,
    canceled_at: row.canceled_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function columnsOf(record: ReturnRecord) {
  const document: ReturnDocument = {
    items: record.items,
    receipts: record.receipts,
    credits: record.credits,
  };
  return {
    warehouse_code: record.warehouse_code,
    status: deriveReturnStatus(record),
    document: encodeJson(document),
    canceled_at: record.canceled_at,
    updated_at: record.updated_at,
  };
}

/** Inserts the return unless its rma number is taken (then null, nothing written). */
export async function insertReturn(db: Db, record: ReturnRecord): Promise<ReturnRecord | null> {
  const row = await db
    .insertInto('returns')
    .values({
      store_id: record.store_id,
      rma_number: record.rma_number,
      sales_order_number: record.sales_order_number,
      created_at: record.created_at,
      ...columnsOf(record),
    })
    .onConflict((oc) => oc.columns(['store_id', 'rma_number']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? { ...record, id: Number(row.id) } : null;
}

export async function saveReturn(db: Db, record: ReturnRecord): Promise<ReturnRecord> {
  const result = await db
    .updateTable('returns')
    .set(columnsOf(record))
    .where('id', '=', record.id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    throw new Error(`fulfil: saveReturn of return ${record.id}, which is not stored`);
  }
  return record;
}

/** Returns whose `column` is one of `values`, of one store, ordered by id; locked on request. */
export async function findReturnsBy(
  db: Db,
  storeId: number,
  column: 'rma_number' | 'sales_order_number',
  values: readonly string[],
  lock = false,
): Promise<ReturnRecord[]> {
  const found: ReturnRecord[] = [];
  for (const slice of chunk([...new Set(values)], IN_LIST_SIZE)) {
    const rows = await db
      .selectFrom('returns')
      .selectAll()
      .where('store_id', '=', storeId)
      .where(column, 'in', slice)
      .orderBy('id')
      .$if(lock, (qb) => qb.forUpdate())
      .execute();
    appendAll(found, rows.map(decodeReturn));
  }
  return found.sort((a, b) => a.id - b.id);
}

export async function returnsById(db: Db, ids: readonly number[]): Promise<ReturnRecord[]> {
  const found: ReturnRecord[] = [];
  for (const slice of chunk([...new Set(ids)], IN_LIST_SIZE)) {
    const rows = await db.selectFrom('returns').selectAll().where('id', 'in', slice).execute();
    appendAll(found, rows.map(decodeReturn));
  }
  return found;
}

export async function listStoreReturns(
  db: Db,
  storeId: number,
  filter: { status?: ReturnStatus; after?: number; limit?: number } = {},
): Promise<ReturnRecord[]> {
  const rows = await db
    .selectFrom('returns')
    .selectAll()
    .where('store_id', '=', storeId)
    .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status ?? ''))
    .$if(filter.after !== undefined, (qb) => qb.where('id', '>', filter.after ?? 0))
    .orderBy('id')
    .$if(filter.limit !== undefined, (qb) => qb.limit(filter.limit ?? 0))
    .execute();
  return rows.map(decodeReturn);
}

export async function countReturns(
  db: Db,
): Promise<{ store_id: number; status: ReturnStatus; returns: number }[]> {
  const rows = await db
    .selectFrom('returns')
    .select(['store_id', 'status', (eb) => eb.fn.countAll<number>().as('returns')])
    .groupBy(['store_id', 'status'])
    .execute();
  return rows.map((row) => ({
    store_id: Number(row.store_id),
    status: row.status as ReturnStatus,
    returns: Number(row.returns),
  }));
}

const byWarehouseThenSku = (a: QuarantineDelta, b: QuarantineDelta): number =>
  compareCodes(a.warehouse_code, b.warehouse_code) || compareCodes(a.sku, b.sku);

/** One row per key, summed (an upsert may not touch a row twice), in lock order. */
function summed(deltas: readonly QuarantineDelta[]): QuarantineDelta[] {
  const sums = new Map<string, QuarantineDelta>();
  for (const delta of deltas) {
    const key = `${delta.warehouse_code}\u0000${delta.sku}`;
    sums.set(key, { ...delta, qty: (sums.get(key)?.qty ?? 0) + delta.qty });
  }
  return [...sums.values()].sort(byWarehouseThenSku);
}

/** Adds (`add`) or sets each count; adding is `qty = qty + delta`, never read then written. */
export async function writeQuarantine(
  db: Db,
  storeId: number,
  deltas: readonly QuarantineDelta[],
  mode: 'add' | 'set',
): Promise<void> {
  const rows = mode === 'add' ? summed(deltas) : [...deltas].sort(byWarehouseThenSku);
  for (const slice of chunk(rows)) {
    await db
      .insertInto('return_quarantine')
      .values(slice.map((row) => ({ store_id: storeId, ...row })))
      .onConflict((oc) =>
        oc.columns(['store_id', 'warehouse_code', 'sku']).doUpdateSet((eb) => ({
          qty:
            mode === 'add'
              ? eb('return_quarantine.qty', '+', eb.ref('excluded.qty'))
              : eb.ref('excluded.qty'),
        })),
      )
      .execute();
  }
}

export async function listQuarantine(
  db: Db,
  storeId: number,
  warehouses: readonly string[] | null,
): Promise<QuarantineDelta[]> {
  if (warehouses && warehouses.length === 0) return [];
  const rows = await db
    .selectFrom('return_quarantine')
    .select(['warehouse_code', 'sku', 'qty'])
    .where('store_id', '=', storeId)
    .where('qty', '<>', 0)
    .$if(warehouses !== null, (qb) => qb.where('warehouse_code', 'in', warehouses ?? []))
    .orderBy('warehouse_code')
    .orderBy('sku')
    .execute();
  return rows.map((row) => ({
    warehouse_code: row.warehouse_code,
    sku: row.sku,
    qty: Number(row.qty),
  }));
}
