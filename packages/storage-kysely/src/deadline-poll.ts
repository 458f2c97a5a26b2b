import type { DeadlineEntry, DeadlinePollQuery } from '@fulfil/core';
import { type Kysely, sql } from 'kysely';
import { documentOf } from './change-feed.js';
import type { Database } from './database.js';
import { decodeFulfillBy } from './row-codec.js';

/**
 * A queue page in `sort` order with each order's deadline (docs/deadlines.md). By deadline, the
 * index `queue_entries_fulfill_by (store_id, queue, fulfill_by, order_id)` answers it in its
 * order, and `after` is a bound on the row `(fulfill_by, order_id)` past that order's place:
 * an order's deadline is written once (an operator's change aside), so a page never skips an
 * order that stays in the queue nor shows one twice, however many are taken in and shipped
 * between pages. Orders without a deadline hold `NO_DEADLINE` and come last.
 */
export async function pollWithDeadlines(
  db: Kysely<Database>,
  query: DeadlinePollQuery,
): Promise<DeadlineEntry[] | null> {
  if (query.warehouses && query.warehouses.length === 0) return [];
  const byDeadline = query.sort === 'fulfill_by';
  // `after=0` is the start, in either order.
  const after = query.after ? query.after : null;
  let afterDeadline: string | null = null;
  if (byDeadline && after !== null) {
    const row = await db
      .selectFrom('fulfillment_orders')
      .select('fulfill_by')
      .where('id', '=', after)
      .where('store_id', '=', query.store_id)
      .executeTakeFirst();
    if (row === undefined) return null;
    afterDeadline = row.fulfill_by;
  }
  const page = Math.max(1, Math.trunc(query.page));
  const rows = await db
    .selectFrom('queue_entries')
    .select(['order_id', 'document', 'fulfill_by'])
    .where('store_id', '=', query.store_id)
    .where('queue', '=', query.queue)
    .$if(after !== null && byDeadline, (qb) =>
      qb.where(sql<boolean>`(fulfill_by, order_id) > (${afterDeadline}, ${after})`),
    )
    .$if(after !== null && !byDeadline, (qb) => qb.where('order_id', '>', after ?? 0))
    .$if(query.warehouses !== null, (qb) =>
      qb.where('warehouse_code', 'in', query.warehouses ?? []),
    )
    .$if(query.since !== null, (qb) => qb.where('updated_at', '>=', query.since ?? ''))
    .$if(byDeadline, (qb) => qb.orderBy('fulfill_by'))
    .orderBy('order_id')
    .limit(query.page_size)
    .$if(after === null, (qb) => qb.offset((page - 1) * query.page_size))
    .execute();
  return rows.map((row) => ({
    order_id: Number(row.order_id),
    document: documentOf(row),
    fulfill_by: decodeFulfillBy(row.fulfill_by),
  }));
}
