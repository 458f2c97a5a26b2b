import {
  type AdminRepositoryTx,
  DomainError,
  type HeldOrder,
  type HeldStock,
  type NewStoreAuditEvent,
  type OperatorRecord,
  type OperatorRole,
  type OperatorSession,
  type OrderFailure,
  type OrderFilter,
  type OrderSearch,
  type OrderStatus,
  type OrderSummary,
  type QueueDepthByWarehouse,
  type QueueName,
  type RequestedOrder,
  type StockLevel,
  type StoreHealth,
  type Timestamp,
} from '@fulfil/core';
import {
  type ExpressionBuilder,
  type Kysely,
  type Selectable,
  type SelectQueryBuilder,
  sql,
} from 'kysely';
import { type Database, NO_DEADLINE, type OperatorTable } from './database.js';
import { deadlineWhere } from './deadline-sql.js';
import { ABANDONED, heldStock } from './held-stock.js';
import { decodeFulfillBy, decodeJson, encodeJson } from './row-codec.js';
import { readHeldOrders, readOrdersAwaitingCancellation } from './waiting-queries.js';

type Db = Kysely<Database>;
type OrderEb = ExpressionBuilder<Database, 'fulfillment_orders'>;

function decodeOperator(row: Selectable<OperatorTable>): OperatorRecord {
  return {
    id: Number(row.id),
    name: row.name,
    role: row.role as OperatorRole,
    store_code: row.store_code,
    hash: row.hash,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

/** The text just past every text that starts with `prefix`, for a range an index can answer. */
function prefixEnd(prefix: string): string {
  const points = [...prefix];
  const last = points.pop() as string;
  return points.join('') + String.fromCodePoint((last.codePointAt(0) as number) + 1);
}

/**
 * `lower(column)` starts with `prefix`: a range on the lowercased index, then the exact test; or,
 * for a common prefix, the exact test alone, which no index answers, so that the newest-first
 * walk of another index meets the page's orders and stops (see `FilterPlan`).
 */
function startsWith(eb: OrderEb, column: string, prefix: string, common = false) {
  const exact = eb(sql`substr(lower(${sql.ref(column)}), 1, ${[...prefix].length})`, '=', prefix);
  if (common) return exact;
  const lowered = sql`lower(${sql.ref(column)})`;
  return eb.and([eb(lowered, '>=', prefix), eb(lowered, '<', prefixEnd(prefix)), exact]);
}

/** ASCII letters lowercased only, as SQLite's lower() does: the same text matches on both databases. */
function lowerAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** Past this many orders with a name or e-mail of the prefix, it counts as common. */
const COMMON_PREFIX_ORDERS = 1_000;

/**
 * Whether the text search's prefix starts the names or e-mails of many orders of the store:
 * reads at most `COMMON_PREFIX_ORDERS` entries of each name index.
 */
export async function prefixIsCommon(db: Db, storeId: number, q: string): Promise<boolean> {
  const prefix = lowerAscii(q.trim());
  if (!prefix) return false;
  for (const column of ['customer_firstname', 'customer_lastname', 'customer_email']) {
    const row = await db
      .selectFrom(
        db
          .selectFrom('fulfillment_orders')
          .select('id')
          .where('store_id', '=', storeId)
          .where((eb) => startsWith(eb, column, prefix))
          .limit(COMMON_PREFIX_ORDERS)
          .as('matches'),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    if (Number(row?.n ?? 0) >= COMMON_PREFIX_ORDERS) return true;
  }
  return false;
}

/**
 * The filter as conditions on `fulfillment_orders`: each one answerable from an index of
 * migration 0004 (or of `queue_entries` and `order_items`), so the database can pick the most
 * selective one and walk it.
 */
/** Past this many lines with the sku, it counts as common (see `whereFilter`). */
const COMMON_SKU_LINES = 1_000;

/**
 * Whether the sku is on many lines: the sku filter then checks each order as the newest-first
 * walk meets it (one index lookup each, stopping at the page), where a rare sku is better read
 * as the short list of its orders. Reads at most `COMMON_SKU_LINES` index entries.
 */
export async function skuIsCommon(db: Db, sku: string): Promise<boolean> {
  const row = await db
    .selectFrom(
      db
        .selectFrom('order_items')
        .select('order_id')
        .where('sku', '=', sku)
        .limit(COMMON_SKU_LINES)
        .as('lines'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0) >= COMMON_SKU_LINES;
}

/** How the filter is run, decided from the data (`skuIsCommon`). */
export interface FilterPlan {
  commonSku?: boolean;
  commonPrefix?: boolean;
}

/** The plan of a filter, from the data: whether its sku and its text prefix are common. */
export async function planFilter(
  db: Db,
  storeId: number,
  filter: OrderFilter,
): Promise<FilterPlan> {
  return {
    commonSku: filter.sku ? await skuIsCommon(db, filter.sku) : false,
    commonPrefix: filter.q ? await prefixIsCommon(db, storeId, filter.q) : false,
  };
}

/** Words of a name past which a text search stops trying splits into first and last name. */
const NAME_WORDS = 4;

/**
 * A full name as the operator types it, "Giulia Rossi" or "Rossi Giulia", "Maria De Luca": each
 * way its words split into a first name's start and a last name's start, in either order.
 */
function fullNameMatches(eb: OrderEb, lowered: string, common: boolean) {
  const words = lowered.split(/\s+/);
  if (words.length < 2 || words.length > NAME_WORDS) return [];
  return words.slice(1).flatMap((_, index) => {
    const head = words.slice(0, index + 1).join(' ');
    const tail = words.slice(index + 1).join(' ');
    return [
      eb.and([
        startsWith(eb, 'customer_firstname', head, common),
        startsWith(eb, 'customer_lastname', tail, common),
      ]),
      eb.and([
        startsWith(eb, 'customer_lastname', head, common),
        startsWith(eb, 'customer_firstname', tail, common),
      ]),
    ];
  });
}

function whereFilter(db: Db, storeId: number, filter: OrderFilter, plan: FilterPlan = {}) {
  let query = db.selectFrom('fulfillment_orders').where('store_id', '=', storeId);
  const q = filter.q?.trim();
  if (q) {
    const lowered = lowerAscii(q);
    const common = plan.commonPrefix === true;
    query = query.where((eb) =>
      eb.or([
        eb('fulfillment_order_number', '=', q),
        eb('sales_order_number', '=', q),
        startsWith(eb, 'customer_firstname', lowered, common),
        startsWith(eb, 'customer_lastname', lowered, common),
        startsWith(eb, 'customer_email', lowered, common),
        ...fullNameMatches(eb, lowered, common),
      ]),
    );
  }
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.warehouse) query = query.where('warehouse_code', '=', filter.warehouse);
  if (filter.queue) {
    const queue = filter.queue;
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('queue_entries')
        .select('order_id')
        .where('store_id', '=', storeId)
        .where('queue', '=', queue),
    );
  }
  if (filter.sku) {
    const sku = filter.sku;
    query = plan.commonSku
      ? query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('order_items')
              .select('order_items.order_id')
              .where('order_items.sku', '=', sku)
              .whereRef('order_items.order_id', '=', 'fulfillment_orders.id'),
          ),
        )
      : query.where('id', 'in', (eb) =>
          eb.selectFrom('order_items').select('order_id').where('sku', '=', sku),
        );
  }
  if (filter.created_from) query = query.where('created_at', '>=', filter.created_from);
  if (filter.created_to) query = query.where('created_at', '<', filter.created_to);
  if (filter.updated_from) query = query.where('updated_at', '>=', filter.updated_from);
  if (filter.updated_to) query = query.where('updated_at', '<', filter.updated_to);
  if (filter.deadline && filter.deadline_clock) {
    query = query.where(deadlineWhere(filter.deadline, filter.deadline_clock));
  }
  return query;
}

/** The SQL of the order search, exported so that the bench can time its plan bare. */
export function orderSearchQuery(db: Db, search: OrderSearch, plan: FilterPlan = {}) {
  const { store_id, before_id, limit, sort, after_deadline, ...filter } = search;
  const byDeadline = sort === 'fulfill_by';
  // By deadline: the index (store_id, fulfill_by, id) in its order, a page a range of it.
  const after = after_deadline && {
    fulfill_by: after_deadline.fulfill_by ?? NO_DEADLINE,
    id: after_deadline.id,
  };
  // biome-ignore lint/suspicious/noExplicitAny: any selection of the orders' table
  const ordered = <Q extends SelectQueryBuilder<Database, 'fulfillment_orders', any>>(qb: Q): Q =>
    (byDeadline ? qb.orderBy('fulfill_by').orderBy('id') : qb.orderBy('id', 'desc')).limit(
      limit,
    ) as Q;
  const matches = whereFilter(db, store_id, filter, plan)
    .$if(before_id !== undefined, (qb) => qb.where('id', '<', before_id as number))
    .$if(after !== undefined, (qb) =>
      qb.where(sql<boolean>`(fulfill_by, id) > (${after?.fulfill_by}, ${after?.id})`),
    );
  // By deadline status: the page's ids first, then their rows. The ids alone are in the
  // status's partial index, which Postgres then reads up to the page instead of walking the
  // primary key and testing rows it cannot tell how many match (docs/deadlines.md).
  const pageOf = filter.deadline
    ? db.selectFrom('fulfillment_orders').where('id', 'in', ordered(matches.select('id')))
    : matches;
  return ordered(
    pageOf.select([
      'id',
      'fulfillment_order_number',
      'sales_order_number',
      'status',
      'warehouse_code',
      'customer_firstname',
      'customer_lastname',
      'customer_email',
      'grand_total',
      'failure',
      'created_at',
      'updated_at',
      'fulfill_by',
      'shipped_at',
    ]),
  );
}

/** The count of the search, stopping at `cap`: never a `count(*)` over every match. */
export function orderCountQuery(
  db: Db,
  storeId: number,
  filter: OrderFilter,
  cap: number,
  plan: FilterPlan = {},
) {
  // A count reads every match up to the cap in any order: the prefix's indexes serve it best
  // whatever the prefix (the per-order test would walk the whole store for a sparse one).
  const counting = { ...plan, commonPrefix: false };
  // Late shipments are few, and no planner can tell: counted in id order, only the index of
  // them serves (Postgres otherwise scans the table, sure a third of the shipped match).
  const matches = whereFilter(db, storeId, filter, counting)
    .select('id')
    .$if(filter.deadline === 'missed', (qb) => qb.orderBy('id', 'desc'))
    .limit(cap);
  return db.selectFrom(matches.as('matches')).select((eb) => eb.fn.countAll<number>().as('n'));
}

/** Whether a stored failure (JSON text) was abandoned, as SQL both databases run. */

/**
 * Per queue and warehouse of a store: the orders it lists and the lowest id among them, from the
 * index `queue_entries_poll_warehouse` alone (only orders in a queue have entries).
 */
export function queueDepthQuery(db: Db, storeId: number) {
  return db
    .selectFrom('queue_entries')
    .select(['queue', 'warehouse_code'])
    .select((eb) => [
      eb.fn.countAll<number>().as('orders'),
      eb.fn.min<number>('order_id').as('oldest_id'),
    ])
    .where('store_id', '=', storeId)
    .groupBy(['queue', 'warehouse_code']);
}

/** Every session expired at `at`: found through the index on `expires_at` (migration 0011). */
export function expiredSessionsDelete(db: Db, at: Timestamp) {
  return db.deleteFrom('operator_sessions').where('expires_at', '<=', at);
}

/** When these orders were created (the oldest of each queue), by primary key. */
export function oldestQuery(db: Db, ids: readonly number[]) {
  return db.selectFrom('fulfillment_orders').select(['id', 'created_at']).where('id', 'in', ids);
}

/** The failed and courier counts of a store, read from its failed, shipment and invoice queues. */
export function storeHealthQuery(storeId: number) {
  const courier = sql<boolean>`exists (select 1 from warehouses w where w.store_id = e.store_id and w.code = e.warehouse_code and w.fulfilled_by = 'courier')`;
  const count = (condition: ReturnType<typeof sql<boolean>>) =>
    sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`;
  return sql<Record<keyof StoreHealth, number>>`
    select
      ${count(sql`e.queue = 'failed' and not (${ABANDONED})`)} as failed_open,
      ${count(sql`e.queue = 'failed' and ${ABANDONED}`)} as failed_abandoned,
      ${count(sql`e.queue = 'pending_invoice' and ${courier}`)} as courier_shipped,
      ${count(sql`e.queue = 'pending_shipment' and o.courier_attempts > 0 and o.courier_next_attempt_at is not null and ${courier}`)} as courier_retrying,
      ${count(sql`e.queue = 'failed' and ${courier}`)} as courier_failed
    from queue_entries e join fulfillment_orders o on o.id = e.order_id
    where e.store_id = ${storeId} and e.queue in ('failed', 'pending_invoice', 'pending_shipment')
  `;
}

/**
 * The repository operations of the operator's side (core's AdminRepositoryTx) on the
 * transaction's connection. KyselyRepositoryTx extends it.
 */
export class AdminQueries implements AdminRepositoryTx {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async insertOperator(operator: Omit<OperatorRecord, 'id'>): Promise<OperatorRecord> {
    const row = await this.#db
      .insertInto('operators')
      .values(operator)
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) return decodeOperator(row);
    throw new DomainError('already_exists', 'An operator named %fieldValue already exists.', [
      { fieldName: 'name', fieldValue: operator.name },
    ]);
  }

  async findOperator(name: string): Promise<OperatorRecord | null> {
    const row = await this.#db
      .selectFrom('operators')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? decodeOperator(row) : null;
  }

  async findOperatorByHash(hash: string): Promise<OperatorRecord | null> {
    const row = await this.#db
      .selectFrom('operators')
      .selectAll()
      .where('hash', '=', hash)
      .executeTakeFirst();
    return row ? decodeOperator(row) : null;
  }

  async listOperators(): Promise<OperatorRecord[]> {
    const rows = await this.#db.selectFrom('operators').selectAll().orderBy('name').execute();
    return rows.map(decodeOperator);
  }

  async revokeOperator(name: string, at: Timestamp): Promise<boolean> {
    const row = await this.#db
      .updateTable('operators')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
      .where('name', '=', name)
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    await this.#db.deleteFrom('operator_sessions').where('operator_id', '=', row.id).execute();
    return true;
  }

  async insertSession(session: {
    hash: string;
    operator_id: number;
    created_at: Timestamp;
    expires_at: Timestamp;
  }): Promise<void> {
    await this.#db.insertInto('operator_sessions').values(session).execute();
  }

  async findSession(hash: string): Promise<OperatorSession | null> {
    const row = await this.#db
      .selectFrom('operator_sessions as s')
      .innerJoin('operators as o', 'o.id', 's.operator_id')
      .selectAll('o')
      .select('s.expires_at as session_expires_at')
      .where('s.hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    const { session_expires_at, ...operator } = row;
    return { operator: decodeOperator(operator), expires_at: session_expires_at };
  }

  async deleteSession(hash: string): Promise<void> {
    await this.#db.deleteFrom('operator_sessions').where('hash', '=', hash).execute();
  }

  async deleteExpiredSessions(at: Timestamp): Promise<number> {
    const result = await expiredSessionsDelete(this.#db, at).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async searchOrders(search: OrderSearch): Promise<OrderSummary[]> {
    const plan = await planFilter(this.#db, search.store_id, search);
    const rows = await orderSearchQuery(this.#db, search, plan).execute();
    return rows.map((row) => ({
      ...row,
      id: Number(row.id),
      status: row.status as OrderStatus,
      grand_total: row.grand_total === null ? null : Number(row.grand_total),
      failure: row.failure === null ? null : decodeJson<OrderFailure>(row.failure),
      fulfill_by: decodeFulfillBy(row.fulfill_by),
    }));
  }

  async countOrders(storeId: number, filter: OrderFilter, cap: number): Promise<number> {
    const plan = await planFilter(this.#db, storeId, filter);
    const row = await orderCountQuery(this.#db, storeId, filter, cap, plan).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async orderMatches(storeId: number, orderId: number, filter: OrderFilter): Promise<boolean> {
    // One order by its primary key: how common the sku or the prefix is does not matter.
    const row = await whereFilter(this.#db, storeId, filter)
      .where('id', '=', orderId)
      .select('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async queueDepthsByWarehouse(storeId: number): Promise<QueueDepthByWarehouse[]> {
    const groups = await queueDepthQuery(this.#db, storeId).execute();
    if (groups.length === 0) return [];
    const ids = groups.map((group) => Number(group.oldest_id));
    const oldest = await oldestQuery(this.#db, ids).execute();
    const createdAt = new Map(oldest.map((row) => [Number(row.id), row.created_at]));
    return groups.map((group) => ({
      queue: group.queue as QueueName,
      warehouse_code: group.warehouse_code,
      orders: Number(group.orders),
      oldest_at: createdAt.get(Number(group.oldest_id)) ?? '',
    }));
  }

  async storeHealth(storeId: number): Promise<StoreHealth> {
    const { rows } = await storeHealthQuery(storeId).execute(this.#db);
    const row = rows[0];
    return {
      failed_open: Number(row?.failed_open ?? 0),
      failed_abandoned: Number(row?.failed_abandoned ?? 0),
      courier_shipped: Number(row?.courier_shipped ?? 0),
      courier_retrying: Number(row?.courier_retrying ?? 0),
      courier_failed: Number(row?.courier_failed ?? 0),
    };
  }

  heldOrders(storeId: number, limit: number): Promise<HeldOrder[]> {
    return readHeldOrders(this.#db, storeId, limit);
  }

  ordersAwaitingCancellation(storeId: number, limit: number): Promise<RequestedOrder[]> {
    return readOrdersAwaitingCancellation(this.#db, storeId, limit);
  }

  heldStock(storeId: number): Promise<HeldStock[]> {
    return heldStock(this.#db, storeId);
  }

  async setReserved(
    storeId: number,
    entries: readonly { warehouse_code: string; sku: string; reserved: number }[],
  ): Promise<void> {
    for (const entry of entries) {
      await this.#db
        .insertInto('stock')
        .values({ store_id: storeId, on_hand: 0, ...entry })
        .onConflict((oc) =>
          oc
            .columns(['store_id', 'warehouse_code', 'sku'])
            .doUpdateSet((eb) => ({ reserved: eb.ref('excluded.reserved') })),
        )
        .execute();
    }
  }

  async appendStoreAudit(events: readonly NewStoreAuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.#db
      .insertInto('store_audit')
      .values(events.map((event) => ({ ...event, details: encodeJson(event.details) })))
      .execute();
  }

  async listStockPage(page: {
    store_id: number;
    warehouse?: string;
    sku_prefix?: string;
    after?: { warehouse_code: string; sku: string };
    limit: number;
  }): Promise<StockLevel[]> {
    const { after, sku_prefix: prefix, warehouse } = page;
    const rows = await this.#db
      .selectFrom('stock')
      .select(['warehouse_code', 'sku', 'on_hand', 'reserved', 'safety_stock'])
      .where('store_id', '=', page.store_id)
      .$if(warehouse !== undefined, (qb) => qb.where('warehouse_code', '=', warehouse as string))
      .$if(prefix !== undefined, (qb) =>
        qb.where((eb) =>
          eb.and([
            eb('sku', '>=', prefix as string),
            eb('sku', '<', prefixEnd(prefix as string)),
            eb(sql`substr(sku, 1, ${[...(prefix as string)].length})`, '=', prefix as string),
          ]),
        ),
      )
      .$if(after !== undefined, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb('warehouse_code', '>', after?.warehouse_code as string),
            eb.and([
              eb('warehouse_code', '=', after?.warehouse_code as string),
              eb('sku', '>', after?.sku as string),
            ]),
          ]),
        ),
      )
      .orderBy('warehouse_code')
      .orderBy('sku')
      .limit(page.limit)
      .execute();
    return rows.map(({ safety_stock, ...row }) => ({
      ...row,
      on_hand: Number(row.on_hand),
      reserved: Number(row.reserved),
      ...(safety_stock === null ? {} : { safety_stock: Number(safety_stock) }),
    }));
  }

  async touchToken(id: number, at: Timestamp): Promise<void> {
    await this.#db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  async retireToken(
    storeId: number,
    name: string,
    newName: string,
    expiresAt: Timestamp,
  ): Promise<boolean> {
    const { numUpdatedRows } = await this.#db
      .updateTable('tokens')
      .set({ name: newName, expires_at: expiresAt })
      .where('store_id', '=', storeId)
      .where('name', '=', name)
      .executeTakeFirst();
    return numUpdatedRows > 0n;
  }
}
