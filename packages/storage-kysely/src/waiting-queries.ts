import {
  type CancellationRequest,
  type HeldOrder,
  type OrderHold,
  type OrderStatus,
  openRequest,
  type RequestedLine,
  type RequestedOrder,
} from '@fulfil/core';
import { type Kysely, sql } from 'kysely';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import type { Database } from './database.js';
import { decodeJson } from './row-codec.js';

type Db = Kysely<Database>;

/**
 * Whether the stored holds (JSON text, as `encodeJson` writes them) have one not released: no
 * text inside a JSON string can match, its quotes being escaped. Core keeps the active ones.
 */
const ACTIVE_HOLD = sql<boolean>`holds like '%"released_at":null%'`;

/** The held orders of a store through the partial index `fulfillment_orders_held` (0020). */
export function heldOrdersQuery(db: Db, storeId: number, limit: number) {
  return db
    .selectFrom('fulfillment_orders')
    .select(['fulfillment_order_number', 'sales_order_number', 'warehouse_code', 'status', 'holds'])
    .where('store_id', '=', storeId)
    .where('holds', 'is not', null)
    .where(ACTIVE_HOLD)
    .orderBy('id')
    .limit(limit);
}

export async function readHeldOrders(db: Db, storeId: number, limit: number): Promise<HeldOrder[]> {
  const rows = await heldOrdersQuery(db, storeId, limit).execute();
  return rows.map((row) => ({
    fulfillment_order_number: row.fulfillment_order_number,
    sales_order_number: row.sales_order_number,
    warehouse_code: row.warehouse_code,
    status: row.status as OrderStatus,
    holds: decodeJson<OrderHold[]>(row.holds as string),
  }));
}

/**
 * The orders of the store's `pending_cancellation` queue, from its entries (index
 * `queue_entries_poll`), then the lines their open requests name, by primary key.
 */
export async function readOrdersAwaitingCancellation(
  db: Db,
  storeId: number,
  limit: number,
): Promise<RequestedOrder[]> {
  const rows = await db
    .selectFrom('queue_entries as e')
    .innerJoin('fulfillment_orders as o', 'o.id', 'e.order_id')
    .select([
      'o.fulfillment_order_number',
      'o.sales_order_number',
      'o.warehouse_code',
      'o.cancellation_requests',
    ])
    .where('e.store_id', '=', storeId)
    .where('e.queue', '=', 'pending_cancellation')
    .orderBy('e.order_id')
    .limit(limit)
    .execute();
  const orders = rows.map((row) => {
    const requests =
      row.cancellation_requests === null
        ? []
        : decodeJson<CancellationRequest[]>(row.cancellation_requests);
    const ids = openRequest({ cancellation_requests: requests })?.item_ids ?? [];
    return { row, requests, ids };
  });
  const ids = orders.flatMap((order) => order.ids);
  const lines = new Map<number, RequestedLine>();
  for (const slice of chunk(ids, IN_LIST_SIZE)) {
    const items = await db
      .selectFrom('order_items')
      .select(['id', 'sku', 'qty'])
      .where('id', 'in', slice)
      .execute();
    for (const item of items) {
      lines.set(Number(item.id), {
        item_id: Number(item.id),
        sku: item.sku,
        qty: Number(item.qty),
      });
    }
  }
  return orders.map(({ row, requests, ids }) => ({
    fulfillment_order_number: row.fulfillment_order_number,
    sales_order_number: row.sales_order_number,
    warehouse_code: row.warehouse_code,
    cancellation_requests: requests,
    lines: ids.flatMap((id) => lines.get(id) ?? []),
  }));
}
