import type {
  FeedChangesQuery,
  FeedEntry,
  FeedEntryWrite,
  FeedName,
  FeedPageQuery,
} from '@fulfil/core';
import { type Kysely, sql } from 'kysely';
import type { BulkStatements } from './bulk-statements.js';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import type { Database } from './database.js';

/**
 * The feeds of docs/polling.md other than the queues (`feed_entries`, migration 0013): pages by
 * id and by change, read from the indexes `feed_entries_page` and `feed_entries_changes` alone,
 * and the writes of entries with their transaction's change. Every function runs on the
 * caller's transaction.
 */

type Db = Kysely<Database>;

function entryOf(row: { entry_id: number | string; change_id: number | string }): FeedEntry {
  return { entry_id: Number(row.entry_id), change: Number(row.change_id) };
}

/** One page of a feed by id: `page` (an offset) or `after` (a seek), `since` on `updated_at`. */
export async function pollFeed(db: Db, query: FeedPageQuery): Promise<FeedEntry[]> {
  if (query.warehouses && query.warehouses.length === 0) return [];
  const keyset = query.after != null;
  const rows = await db
    .selectFrom('feed_entries')
    .select(['entry_id', 'change_id'])
    .where('store_id', '=', query.store_id)
    .where('feed', '=', query.feed)
    .$if(keyset, (qb) => qb.where('entry_id', '>', query.after ?? 0))
    .$if(query.warehouses !== null, (qb) =>
      qb.where('warehouse_code', 'in', query.warehouses ?? []),
    )
    .$if(query.since !== null, (qb) => qb.where('updated_at', '>=', query.since ?? ''))
    .orderBy('entry_id')
    .limit(query.page_size)
    .$if(!keyset, (qb) => qb.offset((Math.max(1, Math.trunc(query.page)) - 1) * query.page_size))
    .execute();
  return rows.map(entryOf);
}

/** A `since` page of a feed: its entries after the position, in (change, id) order. */
export async function pollFeedChanges(db: Db, query: FeedChangesQuery): Promise<FeedEntry[]> {
  if (query.warehouses && query.warehouses.length === 0) return [];
  const rows = await db
    .selectFrom('feed_entries')
    .select(['entry_id', 'change_id'])
    .where('store_id', '=', query.store_id)
    .where('feed', '=', query.feed)
    .where(sql<boolean>`(change_id, entry_id) > (${query.after.change}, ${query.after.order_id})`)
    .$if(query.warehouses !== null, (qb) =>
      qb.where('warehouse_code', 'in', query.warehouses ?? []),
    )
    .orderBy('change_id')
    .orderBy('entry_id')
    .limit(query.page_size)
    .execute();
  return rows.map(entryOf);
}

/** Inserts or rewrites entries of a feed, each carrying `changeId`. */
export async function writeFeedEntries(
  db: Db,
  bulk: BulkStatements,
  feed: FeedName,
  entries: readonly FeedEntryWrite[],
  changeId: number,
): Promise<void> {
  // By id, so that two transactions writing the same entries lock them in the same order.
  const rows = [...entries]
    .sort((a, b) => a.entry_id - b.entry_id)
    .map((entry) => ({
      feed,
      entry_id: entry.entry_id,
      store_id: entry.store_id,
      warehouse_code: entry.warehouse_code,
      updated_at: entry.updated_at,
      change_id: changeId,
    }));
  if (rows.length === 0) return;
  await bulk.run(
    db,
    {
      name: 'write feed_entries',
      table: 'feed_entries',
      columns: ['feed', 'entry_id', 'store_id', 'warehouse_code', 'updated_at', 'change_id'],
      finish: (insert) =>
        insert.onConflict((oc) =>
          oc.columns(['feed', 'entry_id']).doUpdateSet((eb) => ({
            store_id: eb.ref('excluded.store_id'),
            warehouse_code: eb.ref('excluded.warehouse_code'),
            updated_at: eb.ref('excluded.updated_at'),
            change_id: eb.ref('excluded.change_id'),
          })),
        ),
    },
    rows,
  );
}

export async function removeFeedEntries(
  db: Db,
  feed: FeedName,
  ids: readonly number[],
): Promise<void> {
  for (const slice of chunk([...new Set(ids)], IN_LIST_SIZE)) {
    await db
      .deleteFrom('feed_entries')
      .where('feed', '=', feed)
      .where('entry_id', 'in', slice)
      .execute();
  }
}
