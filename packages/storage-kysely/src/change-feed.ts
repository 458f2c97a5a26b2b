import type {
  ChangedEntry,
  ChangeHorizon,
  ChangesQuery,
  EntryChange,
  QueueName,
} from '@fulfil/core';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import type { Database } from './database.js';
import type { DriverProfile } from './driver-profile.js';
import { decodeFulfillBy } from './row-codec.js';

/**
 * The change feed of docs/polling.md on the repository's side: the change id a write
 * transaction stamps on the queue entries it writes, the horizon a read may serve below, and the
 * `since` page. What differs between the databases is the profile's SQL.
 */

/** The SQL of both databases, for their profiles. */
export const CHANGE_FEED_SQL = {
  /**
   * Postgres: the transaction's own id (assigned at its first write, the same for all of it).
   * No NOTIFY inside the transaction: Postgres commits the transactions that notify one at a
   * time, each holding a lock of the whole cluster through its WAL flush (so they never share
   * one); the stores it changed are announced once it has committed (`announceCommitted`).
   */
  postgresChangeId: 'select pg_current_xact_id()::text::bigint as id',
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
  /** The JSON array aggregate each dialect reads a page's versions with (poll-query.ts). */
  postgresJsonArrayAggregate: 'json_agg',
  sqliteJsonArrayAggregate: 'json_group_array',
} as const;

/** The change feed's part of a driver profile. */
export type ChangeFeedSql = Pick<
  DriverProfile,
  'changeIdSql' | 'changeHorizonSql' | 'jsonArrayAggregate' | 'opaquePollArguments'
>;

/**
 * A page's versions from the two JSON arrays of `pollQueueVersions` (SQLite gives their text,
 * Postgres their values; over no rows, Postgres gives null), in order id order.
 */
export function entryChangesOf(orderIds: unknown, changeIds: unknown): EntryChange[] {
  const ids = jsonArray(orderIds);
  const changes = jsonArray(changeIds);
  const entries = ids.map((id, index) => ({
    order_id: Number(id),
    change: Number(changes[index]),
  }));
  return entries.sort((a, b) => a.order_id - b.order_id);
}

function jsonArray(value: unknown): unknown[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (parsed === null || parsed === undefined) return [];
  if (!Array.isArray(parsed)) throw new Error('fulfil: a JSON array aggregate gave no array');
  return parsed;
}

/** The change statement of the profile: the transaction's change, the same for every store. */
export function changeIdQuery(
  profile: Pick<DriverProfile, 'changeIdSql'>,
): CompiledQuery<{ id: number | string }> {
  return CompiledQuery.raw(profile.changeIdSql);
}

/**
 * The change of one write transaction: taken once, before its first queue entry is written.
 * Which stores it changed, the repository tells this process's listeners, and other processes
 * (`announceCommitted`), once it has committed.
 */
export class TransactionChanges {
  readonly #db: Kysely<Database>;
  readonly #profile: Pick<DriverProfile, 'changeIdSql'>;
  #id: number | undefined;
  readonly stores = new Set<number>();
  /** Whether it wrote a token: the process's kept tokens are forgotten once it commits. */
  tokens = false;

  constructor(db: Kysely<Database>, profile: Pick<DriverProfile, 'changeIdSql'>) {
    this.#db = db;
    this.#profile = profile;
  }

  /** Takes `id`, read with an order of `storeId` (`lockedOrderChange`), as changing it. */
  adopt(storeId: number, id: number): void {
    this.stores.add(storeId);
    this.#id ??= id;
  }

  /** The change id of the transaction's entries, noting that it changes these stores. */
  async idFor(storeIds: Iterable<number>): Promise<number> {
    let some = false;
    for (const storeId of storeIds) {
      this.stores.add(storeId);
      some = true;
    }
    if (this.#id !== undefined) return this.#id;
    if (!some) throw new Error('fulfil: a change of no store');
    // Taken once: the stores are announced after the commit, not by this statement.
    const { rows } = await this.#db.executeQuery(changeIdQuery(this.#profile));
    this.#id = Number(rows[0]?.id);
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
  return horizonOf(rows[0]);
}

/** The `ChangeHorizon` of a row of the profile's horizon statement. */
export function horizonOf(
  row: { epoch: string; horizon: number | string; newest: number | string } | undefined,
): ChangeHorizon {
  if (!row) throw new Error('fulfil: fulfil_change_clock has no row (migration 0006)');
  return { epoch: row.epoch, horizon: Number(row.horizon), newest: Number(row.newest) };
}

/** A queue entry's stored document. */
export function documentOf(row: { document: string | null }): string {
  // fillMissingDocuments runs when the database is opened: a gap here means it was skipped.
  if (row.document === null) throw new Error('fulfil: a queue entry has no document yet');
  return row.document;
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
    .select(['change_id', 'order_id', 'document', 'fulfill_by'])
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
  return rows.map((row) => ({
    change: Number(row.change_id),
    order_id: Number(row.order_id),
    document: documentOf(row),
    fulfill_by: decodeFulfillBy(row.fulfill_by),
  }));
}

/**
 * The documents of these entries of `queue` that the change each names still wrote, read by the
 * primary key (order, queue): the few documents of a page a reader does not hold yet.
 */
export async function entryDocuments(
  db: Kysely<Database>,
  queue: QueueName,
  entries: readonly EntryChange[],
): Promise<ChangedEntry[]> {
  const wanted = new Map(entries.map((entry) => [entry.order_id, entry.change]));
  const found: ChangedEntry[] = [];
  for (const ids of chunk([...wanted.keys()], IN_LIST_SIZE)) {
    const rows = await db
      .selectFrom('queue_entries')
      .select(['order_id', 'change_id', 'document'])
      .where('queue', '=', queue)
      .where('order_id', 'in', ids)
      .execute();
    for (const row of rows) {
      const entry = { order_id: Number(row.order_id), change: Number(row.change_id) };
      if (wanted.get(entry.order_id) === entry.change)
        found.push({ ...entry, document: documentOf(row) });
    }
  }
  return found;
}
