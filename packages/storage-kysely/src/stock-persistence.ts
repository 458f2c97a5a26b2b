import { compareCodes, type StockDelta, type StockLevel, type StockQuery } from '@fulfil/core';
import { type Kysely, sql } from 'kysely';
import type { BulkStatements } from './bulk-statements.js';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import type { Database } from './database.js';
import type { PreparedQueries } from './prepared-queries.js';

/** An absolute on-hand quantity of one sku at one warehouse. */
export interface StockEntry {
  warehouse_code: string;
  sku: string;
  qty: number;
}

function assertQuantity(value: number, field: string): number {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`fulfil: ${field} must be an integer, got ${value}`);
  }
  return value;
}

const stockKey = (row: { warehouse_code: string; sku: string }): string =>
  `${row.warehouse_code}\u0000${row.sku}`;

const byWarehouseThenSku = (
  a: { warehouse_code: string; sku: string },
  b: { warehouse_code: string; sku: string },
): number => compareCodes(a.warehouse_code, b.warehouse_code) || compareCodes(a.sku, b.sku);

/** A stock row as read: Postgres answers its bigint columns as text. */
function stockLevel(row: {
  warehouse_code: string;
  sku: string;
  on_hand: number | string | bigint;
  reserved: number | string | bigint;
  safety_stock?: number | string | null;
}): StockLevel {
  const level: StockLevel = {
    warehouse_code: row.warehouse_code,
    sku: row.sku,
    on_hand: Number(row.on_hand),
    reserved: Number(row.reserved),
  };
  // Absent, not null, without an override: the level reads as it did before safety stock.
  if (row.safety_stock !== undefined && row.safety_stock !== null)
    level.safety_stock = Number(row.safety_stock);
  return level;
}

export async function setOnHand(
  db: Kysely<Database>,
  bulk: BulkStatements,
  storeId: number,
  entries: readonly StockEntry[],
): Promise<void> {
  if (bulk.arrayParameters) {
    await insertStock(db, bulk, storeId, entries, 'set on hand');
    return;
  }
  // SQLite: the entries as one JSON array in one statement, instead of five values bound a row.
  const rows = lastPerKey(entries);
  if (rows.length === 0) return;
  const listed = JSON.stringify(
    rows.map((entry) => [entry.warehouse_code, entry.sku, assertQuantity(entry.qty, 'qty')]),
  );
  await sql`
    insert into stock (store_id, warehouse_code, sku, on_hand, reserved)
    select ${storeId}, e.value ->> 0, e.value ->> 1, e.value ->> 2, 0
    from json_each(${listed}) e where true
    on conflict (store_id, warehouse_code, sku)
    do update set on_hand = excluded.on_hand`.execute(db);
}

/**
 * One entry per key, the last one winning (an upsert may not touch a row twice), sorted so that
 * concurrent writes lock rows in one order.
 */
function lastPerKey<T extends { warehouse_code: string; sku: string }>(entries: readonly T[]): T[] {
  const rows = new Map<string, T>();
  for (const entry of entries) rows.set(stockKey(entry), entry);
  return [...rows.values()].sort(byWarehouseThenSku);
}

export async function setSafetyStock(
  db: Kysely<Database>,
  storeId: number,
  entries: readonly { warehouse_code: string; sku: string; safety_stock: number | null }[],
): Promise<void> {
  for (const slice of chunk(lastPerKey(entries))) {
    await db
      .insertInto('stock')
      .values(
        slice.map((entry) => ({
          store_id: storeId,
          warehouse_code: entry.warehouse_code,
          sku: entry.sku,
          on_hand: 0,
          reserved: 0,
          safety_stock: entry.safety_stock,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['store_id', 'warehouse_code', 'sku'])
          .doUpdateSet((eb) => ({ safety_stock: eb.ref('excluded.safety_stock') })),
      )
      .execute();
  }
}

export function addMissingStock(
  db: Kysely<Database>,
  bulk: BulkStatements,
  storeId: number,
  entries: readonly StockEntry[],
): Promise<number> {
  return insertStock(db, bulk, storeId, entries, 'keep');
}

/**
 * Inserts stock rows; an existing row gets the entry's on hand, or is kept as it is. Returns the
 * rows inserted (`keep`). Through `bulk`: statements compiled once, so that a 10,000-entry sync
 * builds no query per row.
 */
async function insertStock(
  db: Kysely<Database>,
  bulk: BulkStatements,
  storeId: number,
  entries: readonly StockEntry[],
  onExisting: 'set on hand' | 'keep',
): Promise<number> {
  const rows = lastPerKey(entries).map((entry) => ({
    store_id: storeId,
    warehouse_code: entry.warehouse_code,
    sku: entry.sku,
    on_hand: assertQuantity(entry.qty, 'qty'),
    reserved: 0,
  }));
  const written = await bulk.run(
    db,
    {
      name: onExisting === 'keep' ? 'add missing stock' : 'set stock on hand',
      table: 'stock',
      columns: ['store_id', 'warehouse_code', 'sku', 'on_hand', 'reserved'],
      // Kept rows count by what the insert returns (only the inserted ones); a set returns none.
      finish: (insert) =>
        onExisting === 'keep'
          ? insert
              .onConflict((oc) => oc.columns(['store_id', 'warehouse_code', 'sku']).doNothing())
              .returning('sku')
          : insert.onConflict((oc) =>
              oc
                .columns(['store_id', 'warehouse_code', 'sku'])
                .doUpdateSet((eb) => ({ on_hand: eb.ref('excluded.on_hand') })),
            ),
    },
    rows,
  );
  return written.length;
}

/**
 * The rows of `keys` under their row locks (`rowLocks`: the database has them), each created at 0
 * first where missing so that it is locked too; rows are created and locked in warehouse, sku
 * order, as every stock write takes them. SQLite's one writer at a time needs no lock: its rows
 * are read in one statement, a missing one as 0 (the write that follows creates it).
 */
export async function lockStock(
  db: Kysely<Database>,
  bulk: BulkStatements,
  storeId: number,
  keys: readonly { warehouse_code: string; sku: string }[],
  rowLocks: boolean,
): Promise<StockLevel[]> {
  const unique = [...new Map(keys.map((key) => [stockKey(key), key])).values()];
  if (unique.length === 0) return [];
  if (!rowLocks) {
    // Nothing to lock: a missing row reads as 0, and is created by the write that follows.
    const found = new Map(
      (await readStockOf(db, storeId, unique)).map((row) => [stockKey(row), row]),
    );
    return unique
      .map((key) => found.get(stockKey(key)) ?? { ...key, on_hand: 0, reserved: 0 })
      .sort(byWarehouseThenSku);
  }
  await insertStock(
    db,
    bulk,
    storeId,
    keys.map(({ warehouse_code, sku }) => ({ warehouse_code, sku, qty: 0 })),
    'keep',
  );
  const levels: StockLevel[] = [];
  for (const slice of chunk(unique.sort(byWarehouseThenSku), IN_LIST_SIZE)) {
    const rows = await db
      .selectFrom('stock')
      .select(['warehouse_code', 'sku', 'on_hand', 'reserved', 'safety_stock'])
      .where('store_id', '=', storeId)
      .where((eb) =>
        eb(
          eb.refTuple('warehouse_code', 'sku'),
          'in',
          slice.map((key) => eb.tuple(key.warehouse_code, key.sku)),
        ),
      )
      .orderBy('warehouse_code')
      .orderBy('sku')
      .forUpdate()
      .execute();
    for (const row of rows) levels.push(stockLevel(row));
  }
  return levels.sort(byWarehouseThenSku);
}

/**
 * The rows of `keys` in one statement (SQLite, whose write transaction already excludes every
 * other writer, so nothing to lock): the keys go in as one JSON array and each finds its row by
 * the primary key, instead of a statement per few hundred keys that SQLite answers by walking
 * the index once per listed pair.
 */
async function readStockOf(
  db: Kysely<Database>,
  storeId: number,
  keys: readonly { warehouse_code: string; sku: string }[],
): Promise<StockLevel[]> {
  const listed = JSON.stringify(keys.map((key) => [key.warehouse_code, key.sku]));
  const { rows } = await sql<Parameters<typeof stockLevel>[0]>`
    select s.warehouse_code, s.sku, s.on_hand, s.reserved, s.safety_stock
    from json_each(${listed}) k cross join stock s
    where s.store_id = ${storeId} and s.warehouse_code = k.value ->> 0 and s.sku = k.value ->> 1
`.execute(db);
  return rows.map(stockLevel);
}

export async function adjustStock(
  db: Kysely<Database>,
  bulk: BulkStatements,
  storeId: number,
  deltas: readonly StockDelta[],
): Promise<void> {
  // Summed per key (an upsert may not touch a row twice) and sorted, so that two concurrent
  // transactions lock rows in the same order and cannot deadlock on each other.
  const sums = new Map<string, StockDelta>();
  for (const delta of deltas) {
    const key = stockKey(delta);
    const sum = sums.get(key);
    sums.set(key, {
      warehouse_code: delta.warehouse_code,
      sku: delta.sku,
      on_hand: (sum?.on_hand ?? 0) + assertQuantity(delta.on_hand, 'on_hand'),
      reserved: (sum?.reserved ?? 0) + assertQuantity(delta.reserved, 'reserved'),
    });
  }
  const rows = [...sums.values()]
    .sort(byWarehouseThenSku)
    .map((delta) => ({ store_id: storeId, ...delta }));
  await bulk.run(
    db,
    {
      name: 'add to stock',
      table: 'stock',
      deferrable: true,
      columns: ['store_id', 'warehouse_code', 'sku', 'on_hand', 'reserved'],
      finish: (insert) =>
        insert.onConflict((oc) =>
          oc.columns(['store_id', 'warehouse_code', 'sku']).doUpdateSet((eb) => ({
            on_hand: eb('stock.on_hand', '+', eb.ref('excluded.on_hand')),
            reserved: eb('stock.reserved', '+', eb.ref('excluded.reserved')),
          })),
        ),
    },
    rows,
  );
}

/** Stock rows; with `query.lock` and `rowLocks`, locked `for update` in warehouse, sku order. */
export async function listStock(
  db: Kysely<Database>,
  prepared: PreparedQueries,
  query: StockQuery,
  rowLocks = false,
): Promise<StockLevel[]> {
  if (query.warehouses && query.warehouses.length === 0) return [];
  if (query.skus && query.skus.length === 0) return [];
  const levels: StockLevel[] = [];
  // `undefined` stands for "every sku": one query; a list is read a slice at a time.
  const slices: (readonly string[] | undefined)[] = query.skus
    ? chunk([...new Set(query.skus)], IN_LIST_SIZE)
    : [undefined];
  const inWarehouses = query.warehouses !== null;
  const ofSku = query.sku !== undefined;
  const locked = rowLocks && query.lock === true;
  for (const skus of slices) {
    const name = `stock${inWarehouses ? ' in warehouses' : ''}${ofSku ? ' of sku' : ''}${skus ? ' of skus' : ''}${locked ? ' locked' : ''}`;
    const lists = [...(query.warehouses ? [query.warehouses] : []), ...(skus ? [skus] : [])];
    const { rows } = await prepared.runWithLists(
      db,
      name,
      [query.store_id, query.sku ?? ''],
      lists,
      (db, argument, listed) =>
        db
          .selectFrom('stock')
          .select(['warehouse_code', 'sku', 'on_hand', 'reserved', 'safety_stock'])
          .where('store_id', '=', argument<number>(0))
          .$if(inWarehouses, (qb) => qb.where('warehouse_code', 'in', listed<string>(0)))
          .$if(ofSku, (qb) => qb.where('sku', '=', argument<string>(1)))
          .$if(skus !== undefined, (qb) =>
            qb.where('sku', 'in', listed<string>(inWarehouses ? 1 : 0)),
          )
          .orderBy('warehouse_code')
          .orderBy('sku')
          .$if(locked, (qb) => qb.forUpdate()),
    );
    for (const row of rows) levels.push(stockLevel(row));
  }
  return slices.length > 1 ? levels.sort(byWarehouseThenSku) : levels;
}
