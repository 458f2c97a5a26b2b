import {
  mergeHistory,
  type StockHistoryEntry,
  type StockHistoryQuery,
  type StockSetContext,
  type StockSetSource,
} from '@fulfil/core';
import { type Kysely, sql } from 'kysely';
import { arrayLiteral } from './array-literal.js';
import type { Database } from './database.js';

/**
 * The stock history (migrations 0023 and 0027): absolute sets and adjustment lines. Every
 * function runs on the caller's transaction.
 */

type Db = Kysely<Database>;

/** What one entry of a set asks: the on hand after, and the figure its sender believed current. */
interface SetEntry {
  warehouse_code: string;
  sku: string;
  qty: number;
  change_from?: number;
}

/**
 * `RepositoryTx.recordStockSets`: one INSERT … SELECT whose rows are the entries (the last per
 * key, where each key first came) joined to their stock rows for the on hand before. The entries
 * go in as one parameter per column: Postgres unnests arrays, SQLite walks one JSON array.
 */
export async function recordStockSets(
  db: Db,
  arrays: boolean,
  storeId: number,
  entries: readonly SetEntry[],
  context: StockSetContext,
): Promise<void> {
  const last = new Map<string, SetEntry>();
  for (const entry of entries) last.set(`${entry.warehouse_code}\u0000${entry.sku}`, entry);
  if (last.size === 0) return;
  const rows = [...last.values()];
  const { actor, source, request_id: requestId, created_at: createdAt } = context;
  if (arrays) {
    await sql`
      insert into stock_sets (store_id, warehouse_code, sku, on_hand_before, on_hand_after,
        change_from, actor, source, request_id, created_at)
      select ${storeId}, e.warehouse_code, e.sku, coalesce(s.on_hand, 0), e.qty, e.change_from,
        ${actor}, ${source}, ${requestId}, ${createdAt}
      from unnest(
        ${arrayLiteral(rows.map((row) => row.warehouse_code))}::text[],
        ${arrayLiteral(rows.map((row) => row.sku))}::text[],
        ${arrayLiteral(rows.map((row) => row.qty))}::bigint[],
        ${arrayLiteral(rows.map((row) => row.change_from ?? null))}::bigint[]
      ) with ordinality as e(warehouse_code, sku, qty, change_from, n)
      left join stock s
        on s.store_id = ${storeId} and s.warehouse_code = e.warehouse_code and s.sku = e.sku
      order by e.n`.execute(db);
    return;
  }
  const listed = JSON.stringify(
    rows.map((row) => [row.warehouse_code, row.sku, row.qty, row.change_from ?? null]),
  );
  await sql`
    insert into stock_sets (store_id, warehouse_code, sku, on_hand_before, on_hand_after,
      change_from, actor, source, request_id, created_at)
    select ${storeId}, e.value ->> 0, e.value ->> 1, coalesce(s.on_hand, 0), e.value ->> 2,
      e.value ->> 3, ${actor}, ${source}, ${requestId}, ${createdAt}
    from json_each(${listed}) e
    left join stock s
      on s.store_id = ${storeId} and s.warehouse_code = e.value ->> 0 and s.sku = e.value ->> 1
    order by e.key`.execute(db);
}

/**
 * Reads up to `limit` of each kind older than `before` and merges them: the newest `limit` of
 * both are among them. At one moment sets come before adjustments (`newestFirst`), so an
 * adjustment cursor passes every set of its moment and a set cursor none of its adjustments.
 */
export async function stockHistory(db: Db, query: StockHistoryQuery): Promise<StockHistoryEntry[]> {
  const { before } = query;
  const sets = await db
    .selectFrom('stock_sets')
    .selectAll()
    .where('store_id', '=', query.store_id)
    .where('warehouse_code', '=', query.warehouse_code)
    .where('sku', '=', query.sku)
    .$if(before !== undefined, (qb) =>
      qb.where((eb) => {
        const at = (before as NonNullable<typeof before>).at;
        return before?.kind === 'set'
          ? eb.or([
              eb('created_at', '<', at),
              eb.and([eb('created_at', '=', at), eb('id', '<', before.id)]),
            ])
          : eb('created_at', '<', at);
      }),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
  const lines = await db
    .selectFrom('stock_adjustment_lines as l')
    .innerJoin('stock_adjustments as a', 'a.id', 'l.adjustment_id')
    .select([
      'a.created_at',
      'a.id',
      'a.adjustment_number',
      'a.token_name',
      'l.line',
      'l.delta',
      'l.reason',
      'l.on_hand',
    ])
    .where('l.store_id', '=', query.store_id)
    .where('l.warehouse_code', '=', query.warehouse_code)
    .where('l.sku', '=', query.sku)
    .$if(before !== undefined, (qb) =>
      qb.where((eb) => {
        const at = (before as NonNullable<typeof before>).at;
        return before?.kind === 'adjustment'
          ? eb.or([
              eb('a.created_at', '<', at),
              eb.and([
                eb('a.created_at', '=', at),
                eb.or([
                  eb('a.id', '<', before.id),
                  eb.and([eb('a.id', '=', before.id), eb('l.line', '<', before.line)]),
                ]),
              ]),
            ])
          : eb('a.created_at', '<=', at);
      }),
    )
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .orderBy('l.line', 'desc')
    .limit(query.limit)
    .execute();
  return mergeHistory(
    sets.map((row) => ({
      at: row.created_at,
      kind: 'set',
      id: Number(row.id),
      line: 0,
      delta: Number(row.on_hand_after) - Number(row.on_hand_before),
      on_hand_after: Number(row.on_hand_after),
      on_hand_before: Number(row.on_hand_before),
      by: row.actor,
      source: row.source as StockSetSource,
      ...(row.request_id === null ? {} : { request_id: row.request_id }),
    })),
    lines.map((row) => ({
      at: row.created_at,
      kind: 'adjustment',
      id: Number(row.id),
      line: Number(row.line),
      delta: Number(row.delta),
      on_hand_after: Number(row.on_hand),
      reason: row.reason,
      by: row.token_name,
      adjustment_number: row.adjustment_number,
    })),
    query.limit,
  );
}
