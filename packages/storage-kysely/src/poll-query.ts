import type { PollQuery } from '@fulfil/core';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from './database.js';

/**
 * The ids of one page of a queue, read from `queue_entries` alone: only orders that are in the
 * queue have a row there, so the cost never grows with finished orders. The index
 * `queue_entries_poll (store_id, queue, order_id, warehouse_code, updated_at)` answers it without
 * touching the table: equality on the first two columns, rows already in id order, the warehouse
 * and `since` filters checked on the index entries.
 *
 * Exported so that adapters can show its query plan. An empty `warehouses` list matches nothing
 * (a scope of no warehouse sees no order), though callers may skip the query then.
 */
export function pollQueueIds(
  db: Kysely<Database>,
  query: PollQuery,
): SelectQueryBuilder<Database, 'queue_entries', { order_id: number }> {
  return pollQueuePage(db, query).select('order_id');
}

/**
 * The stored documents of one page of a queue, in id order: the same rows as
 * {@link pollQueueIds}, the index finding them, each row read for its document.
 */
export function pollQueueDocuments(
  db: Kysely<Database>,
  query: PollQuery,
): SelectQueryBuilder<Database, 'queue_entries', { document: string | null }> {
  return pollQueuePage(db, query).select('document');
}

function pollQueuePage(db: Kysely<Database>, query: PollQuery) {
  const page = Math.max(1, Math.trunc(query.page));
  return (
    db
      .selectFrom('queue_entries')
      .where('store_id', '=', query.store_id)
      .where('queue', '=', query.queue)
      .$if(query.warehouses !== null, (qb) =>
        query.warehouses?.length
          ? qb.where('warehouse_code', 'in', query.warehouses)
          : qb.where(sql<boolean>`false`),
      )
      .$if(query.since !== null, (qb) => qb.where('updated_at', '>=', query.since ?? ''))
      // Keyset paging (`after`): the index seeks to the id instead of counting rows to skip.
      .$if(query.after != null, (qb) => qb.where('order_id', '>', query.after ?? 0))
      .orderBy('order_id')
      .limit(query.page_size)
      .$if(query.after == null, (qb) => qb.offset((page - 1) * query.page_size))
  );
}
