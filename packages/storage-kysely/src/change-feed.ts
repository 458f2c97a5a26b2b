import type { ChangedEntry, ChangeHorizon, ChangesQuery } from '@fulfil/core';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { Database } from './database.js';
import type { DriverProfile } from './driver-profile.js';

/**
 * The change feed of docs/polling.md on the repository's side: the change id a write
 * transaction stamps on the queue entries it writes, the horizon a read may serve below, and the
 * `since` page. What differs between the databases is the profile's SQL.
 */

/** The SQL of both databases, for their profiles. */
export const CHANGE_FEED_SQL = {
  /**
   * Postgres: the transaction's own id (assigned at its first write, the same for all of it),
   * announced on `fulfil_changes` with the store's id: a NOTIFY is delivered when the
   * transaction commits and dropped when it rolls back.
   */
  postgresChangeId:
    "select pg_current_xact_id()::text::bigint as id, pg_notify('fulfil_changes', $1) as announced",
  /**
   * Postgres: every transaction whose id is below the snapshot's xmin has ended, so its entries
   * are visible now or never; one at or above it may still commit. A cursor naming a change past
   * xmax (never assigned yet) was never handed out by this database.
   */
  postgresHorizon:
    'select epoch, pg_snapshot_xmin(pg_current_snapshot())::text::bigint as horizon,' +
    ' pg_snapshot_xmax(pg_current_snapshot())::text::bigint as newest from fulfil_change_clock',
  /** SQLite: writers take turns, so a counter bumped inside the write transaction is exact. */
  sqliteChangeId: 'update fulfil_change_clock set value = value + 1 returning value as id',
  sqliteHorizon: 'select epoch, value + 1 as horizon, value + 1 as newest from fulfil_change_clock',
} as const;

/** The change statement of the profile for one store: SQLite's takes no parameter. */
export function changeIdQuery(
  profile: Pick<DriverProfile, 'changeIdSql'>,
  storeId: number,
): CompiledQuery<{ id: number | string }> {
  const text = profile.changeIdSql;
  return CompiledQuery.raw(text, text.includes('$1') ? [String(storeId)] : []);
}

/**
 * The change of one write transaction: taken once, before its first queue entry is written, and
 * announced once per store it changes. Which stores it changed, the repository tells this
 * process's listeners once it has committed.
 */
export class TransactionChanges {
  readonly #db: Kysely<Database>;
  readonly #profile: Pick<DriverProfile, 'changeIdSql'>;
  #id: number | undefined;
  readonly stores = new Set<number>();

  constructor(db: Kysely<Database>, profile: Pick<DriverProfile, 'changeIdSql'>) {
    this.#db = db;
    this.#profile = profile;
  }

  /** The change id of the transaction's entries, having announced a change of these stores. */
  async idFor(storeIds: Iterable<number>): Promise<number> {
    for (const storeId of storeIds) {
      if (this.stores.has(storeId)) continue;
      const { rows } = await this.#db.executeQuery(changeIdQuery(this.#profile, storeId));
      this.stores.add(storeId);
      this.#id ??= Number(rows[0]?.id);
    }
    if (this.#id === undefined) throw new Error('fulfil: a change of no store');
    return this.#id;
  }
}

/** The horizon of the calling read transaction (core's `ChangeHorizon`). */
export async function readChangeHorizon(
  db: Kysely<Database>,
  profile: Pick<DriverProfile, 'changeHorizonSql'>,
): Promise<ChangeHorizon> {
  const { rows } = await db.executeQuery<{
    epoch: string;
    horizon: number | string;
    newest: number | string;
  }>(CompiledQuery.raw(profile.changeHorizonSql));
  const row = rows[0];
  if (!row) throw new Error('fulfil: fulfil_change_clock has no row (migration 0006)');
  return { epoch: row.epoch, horizon: Number(row.horizon), newest: Number(row.newest) };
}

/**
 * One `since` page: the queue's entries after the position in (change, order id) order, read
 * from the index `queue_entries_changes` (store, queue, change, order, warehouse) and then each
 * row for its document.
 */
export async function pollChangedEntries(
  db: Kysely<Database>,
  query: ChangesQuery,
): Promise<ChangedEntry[]> {
  if (query.warehouses && query.warehouses.length === 0) return [];
  const rows = await db
    .selectFrom('queue_entries')
    .select(['change_id', 'order_id', 'document'])
    .where('store_id', '=', query.store_id)
    .where('queue', '=', query.queue)
    .where(sql<boolean>`(change_id, order_id) > (${query.after.change}, ${query.after.order_id})`)
    .$if(query.warehouses !== null, (qb) =>
      qb.where('warehouse_code', 'in', query.warehouses ?? []),
    )
    .orderBy('change_id')
    .orderBy('order_id')
    .limit(query.page_size)
    .execute();
  return rows.map((row) => {
    if (row.document === null) throw new Error('fulfil: a queue entry has no document yet');
    return {
      change: Number(row.change_id),
      order_id: Number(row.order_id),
      document: row.document,
    };
  });
}
