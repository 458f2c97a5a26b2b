import type { PollQuery } from '@fulfil/core';
import { type Compilable, type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from './database.js';
import type { ArgumentOf } from './prepared-queries.js';

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
  argument: ArgumentOf = valuesOf(query),
): SelectQueryBuilder<Database, 'queue_entries', { order_id: number }> {
  return pollQueuePage(db, query, argument).select('order_id');
}

/**
 * The stored documents of one page of a queue, in id order, each with the change that last wrote
 * it: the same rows as {@link pollQueueIds}, the index finding them, each row read for its
 * document.
 */
export function pollQueueDocuments(
  db: Kysely<Database>,
  query: PollQuery,
  argument: ArgumentOf = valuesOf(query),
): SelectQueryBuilder<
  Database,
  'queue_entries',
  { order_id: number; change_id: number; document: string | null }
> {
  return pollQueuePage(db, query, argument).select(['order_id', 'change_id', 'document']);
}

/**
 * The change horizon (`horizonSql`, the profile's) and the order ids and change ids of the same
 * rows as {@link pollQueueDocuments}, in one statement: one row of `epoch`, `horizon`, `newest`,
 * and two JSON arrays that list the ids in the same order (which may not be id order). A hundred
 * rows cost a driver far more to hand over one by one than as two values. `aggregate` is the
 * dialect's JSON array aggregate (`json_group_array`, `json_agg`); over no rows, it may give null.
 */
export function pollQueueVersions(
  db: Kysely<Database>,
  query: PollQuery,
  sqlOf: { horizonSql: string; aggregate: string },
  argument: ArgumentOf = valuesOf(query),
): Compilable<VersionsRow> {
  const page = pollQueuePage(db, query, argument).select(['order_id', 'change_id']);
  const over = (column: string) => sql`${sql.raw(sqlOf.aggregate)}(${sql.ref(column)})`;
  const statement = sql<VersionsRow>`select h.epoch, h.horizon, h.newest, v.order_ids, v.change_ids
    from (${sql.raw(sqlOf.horizonSql)}) as h
    cross join (select ${over('page.order_id')} as order_ids, ${over('page.change_id')} as change_ids
      from (${page}) as page) as v`;
  return { compile: () => statement.compile(db) };
}

/** The row of {@link pollQueueVersions}. */
export interface VersionsRow {
  epoch: string;
  horizon: number | string;
  newest: number | string;
  order_ids: unknown;
  change_ids: unknown;
}

/**
 * What tells two polls' SQL apart (paging by `after` or by `page`, `since` or not, how many
 * warehouses), for `PreparedQueries`: polls of one shape differ only in their arguments.
 */
export function pollShapeOf(query: PollQuery): string {
  const paging = query.after == null ? 'page' : 'after';
  const since = query.since === null ? '' : ':since';
  return `${paging}${since}:${query.warehouses === null ? 'all' : query.warehouses.length}`;
}

/**
 * The arguments of a poll, in the order {@link pollQueuePage} asks for them: store, queue, page
 * size, then the offset or `after`, then `since` when given, then each warehouse.
 */
export function pollArgumentsOf(query: PollQuery): unknown[] {
  const page = Math.max(1, Math.trunc(query.page));
  return [
    query.store_id,
    query.queue,
    query.page_size,
    query.after ?? (page - 1) * query.page_size,
    ...(query.since === null ? [] : [query.since]),
    ...(query.warehouses ?? []),
  ];
}

function valuesOf(query: PollQuery): ArgumentOf {
  const values = pollArgumentsOf(query);
  return <T>(index: number) => values[index] as T;
}

function pollQueuePage(db: Kysely<Database>, query: PollQuery, argument: ArgumentOf) {
  const keyset = query.after != null;
  const since = query.since === null ? undefined : argument<string>(4);
  const first = since === undefined ? 4 : 5;
  const warehouses = (query.warehouses ?? []).map((_, index) => argument<string>(first + index));
  return (
    db
      .selectFrom('queue_entries')
      .where('store_id', '=', argument<number>(0))
      .where('queue', '=', argument<string>(1))
      .$if(query.warehouses !== null, (qb) =>
        warehouses.length > 0
          ? qb.where('warehouse_code', 'in', warehouses)
          : qb.where(sql<boolean>`false`),
      )
      .$if(since !== undefined, (qb) => qb.where('updated_at', '>=', since ?? ''))
      // Keyset paging (`after`): the index seeks to the id instead of counting rows to skip.
      .$if(keyset, (qb) => qb.where('order_id', '>', argument<number>(3)))
      .orderBy('order_id')
      .limit(argument<number>(2))
      .$if(!keyset, (qb) => qb.offset(argument<number>(3)))
  );
}
