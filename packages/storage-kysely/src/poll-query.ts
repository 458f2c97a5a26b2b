import type { PollQuery } from '@fulfil/core';
import {
  type Compilable,
  type Expression,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
} from 'kysely';
import type { Database } from './database.js';
import type { DriverProfile } from './driver-profile.js';
import type { ArgumentOf } from './prepared-queries.js';

/** How the poll statements are written for the database at hand. */
export interface PollStatementOptions {
  /**
   * Read each argument through a one-row sub-select, `(select cast($1 as bigint))`, a value the
   * planner never sees. Postgres plans a prepared statement again on every run for as long as a
   * plan made for the values at hand looks cheaper than one plan for all, which a page behind a
   * `limit` always does, and planning a poll cost more than running it. With the values hidden,
   * every run looks alike: after five, the connection keeps one plan and only runs it. Which
   * plan that is, the statement settles (`queueRange`): a poll index, sought, in its order.
   */
  opaqueArguments?: boolean;
}

/**
 * The ids of one page of a queue, read from `queue_entries` alone: only orders that are in the
 * queue have a row there, so the cost never grows with finished orders. The index
 * `queue_entries_poll (store_id, queue, order_id, warehouse_code, updated_at, change_id)` answers
 * it without touching the table: equality on the first two columns, rows already in id order,
 * the warehouse and `since` filters checked on the index entries.
 *
 * Exported so that adapters can show its query plan. An empty `warehouses` list matches nothing
 * (a scope of no warehouse sees no order), though callers may skip the query then.
 */
export function pollQueueIds(
  db: Kysely<Database>,
  query: PollQuery,
  options: PollStatementOptions = {},
  argument: ArgumentOf = valuesOf(query),
): SelectQueryBuilder<Database, 'queue_entries', { order_id: number }> {
  return pollQueuePage(db, query, options, argument).select('order_id');
}

/**
 * The stored documents of one page of a queue, in id order, each with the change that last wrote
 * it: the same rows as {@link pollQueueIds}, the index finding them, each row read for its
 * document.
 */
export function pollQueueDocuments(
  db: Kysely<Database>,
  query: PollQuery,
  options: PollStatementOptions = {},
  argument: ArgumentOf = valuesOf(query),
): SelectQueryBuilder<
  Database,
  'queue_entries',
  { order_id: number; change_id: number; document: string | null }
> {
  return pollQueuePage(db, query, options, argument).select(['order_id', 'change_id', 'document']);
}

/**
 * The change horizon (`horizonSql`) and the order ids and change ids of the same
 * rows as {@link pollQueueDocuments}, in one statement: one row of `epoch`, `horizon`, `newest`,
 * and two JSON arrays that list the ids in the same order (which may not be id order). A hundred
 * rows cost a driver far more to hand over one by one than as two values. `aggregate` is the
 * dialect's JSON array aggregate (`json_group_array`, `json_agg`); over no rows, it may give null.
 */
export function pollQueueVersions(
  db: Kysely<Database>,
  query: PollQuery,
  sqlOf: VersionsSql,
  argument: ArgumentOf = valuesOf(query),
): Compilable<VersionsRow> {
  const page = pollQueuePage(db, query, sqlOf, argument).select(['order_id', 'change_id']);
  const over = (column: string) => sql`${sql.raw(sqlOf.aggregate)}(${sql.ref(column)})`;
  const statement = sql<VersionsRow>`select h.epoch, h.horizon, h.newest, v.order_ids, v.change_ids
    from (${sql.raw(sqlOf.horizonSql)}) as h
    cross join (select ${over('page.order_id')} as order_ids, ${over('page.change_id')} as change_ids
      from (${page}) as page) as v`;
  return { compile: () => statement.compile(db) };
}

/** The dialect's SQL of {@link pollQueueVersions}. */
export interface VersionsSql extends PollStatementOptions {
  /** The change horizon's statement (the profile's `changeHorizonSql`). */
  horizonSql: string;
  /** The JSON array aggregate (the profile's `jsonArrayAggregate`). */
  aggregate: string;
}

/** One statement a poll runs, and the database's plan for it (the adapters' `explainPollQuery`). */
export interface StatementPlan {
  sql: string;
  /** The plan's lines, e.g. SQLite's `SEARCH queue_entries USING COVERING INDEX …`. */
  plan: string[];
}

/** The {@link VersionsSql} of a driver profile. */
export function versionsSqlOf(
  profile: Pick<DriverProfile, 'changeHorizonSql' | 'jsonArrayAggregate' | 'opaquePollArguments'>,
): VersionsSql {
  return {
    horizonSql: profile.changeHorizonSql,
    aggregate: profile.jsonArrayAggregate,
    opaqueArguments: profile.opaquePollArguments ?? false,
  };
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

function pollQueuePage(
  db: Kysely<Database>,
  query: PollQuery,
  { opaqueArguments = false }: PollStatementOptions,
  argument: ArgumentOf,
) {
  const value = <T>(index: number, type: 'bigint' | 'text'): T | Expression<T> =>
    opaqueArguments
      ? sql<T>`(select cast(${argument<T>(index)} as ${sql.raw(type)}))`
      : argument<T>(index);
  const keyset = query.after != null;
  const store = value<number>(0, 'bigint');
  const queue = value<string>(1, 'text');
  // Keyset paging (`after`): the index seeks to the id instead of counting rows to skip.
  const after = keyset ? value<number>(3, 'bigint') : undefined;
  const first = query.since === null ? 4 : 5;
  const warehouses = (query.warehouses ?? []).map((_, index) =>
    value<string>(first + index, 'text'),
  );
  const located = opaqueArguments
    ? db
        .selectFrom('queue_entries')
        .where(queueRange(store, queue, after))
        .orderBy('store_id')
        .orderBy('queue')
    : db
        .selectFrom('queue_entries')
        .where('store_id', '=', store)
        .where('queue', '=', queue)
        .$if(after !== undefined, (qb) => qb.where('order_id', '>', after ?? 0));
  return located
    .$if(query.warehouses !== null, (qb) =>
      warehouses.length > 0
        ? qb.where('warehouse_code', 'in', warehouses)
        : qb.where(sql<boolean>`false`),
    )
    .$if(query.since !== null, (qb) => qb.where('updated_at', '>=', value<string>(4, 'text')))
    .orderBy('order_id')
    .limit(value<number>(2, 'bigint'))
    .$if(!keyset, (qb) => qb.offset(value<number>(3, 'bigint')));
}

/**
 * `store_id = store and queue = queue [and order_id > after]`, written as bounds on the row
 * `(store_id, queue, order_id)`, for a plan made once for every store and queue: bounds that
 * only the poll indexes (`queue_entries_poll`, `…_poll_warehouse`) can seek, in an order only
 * they hold (`order by store_id, queue, order_id`, the same as by id alone). With plain
 * equalities, such a plan may walk the primary key `(order_id, queue)` in id order and skip
 * other stores' entries one by one: a fair guess for the average store, a slow one for a small
 * store beside a large one.
 */
function queueRange(
  store: unknown,
  queue: unknown,
  after: unknown | undefined,
): RawBuilder<boolean> {
  const [storeId, queueName, orderId] = ['store_id', 'queue', 'order_id'].map((column) =>
    sql.ref(column),
  );
  const lower =
    after === undefined
      ? sql`(${storeId}, ${queueName}) >= (${store}, ${queue})`
      : sql`(${storeId}, ${queueName}, ${orderId}) > (${store}, ${queue}, ${after})`;
  return sql<boolean>`${lower} and (${storeId}, ${queueName}) <= (${store}, ${queue})`;
}
