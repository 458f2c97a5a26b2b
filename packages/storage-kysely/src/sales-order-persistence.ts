import {
  appendAll,
  compareCodes,
  type FulfillmentOrder,
  type SalesOrder,
  type SalesOrderRecord,
  type Timestamp,
} from '@fulfil/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { BulkStatements } from './bulk-statements.js';
import { chunk, IN_LIST_SIZE } from './chunk.js';
import type { Database, SalesOrderTable } from './database.js';
import { loadOrders } from './order-persistence.js';
import type { PreparedQueries } from './prepared-queries.js';
import { decodeJson, encodeJson } from './row-codec.js';

/**
 * Sales orders as taken in (`sales_orders`) and their entries of the `sales_orders` feed, which
 * every write of one of their fulfillment orders moves (`SalesOrderMoves`). Every function runs on
 * the caller's transaction.
 */

type Db = Kysely<Database>;

const FEED = 'sales_orders';

function decodeSalesOrder(row: Selectable<SalesOrderTable>): SalesOrderRecord {
  return {
    id: Number(row.id),
    store_id: Number(row.store_id),
    sales_order_number: row.sales_order_number,
    sales_order_id: Number(row.sales_order_id),
    received: row.received === null ? null : decodeJson<SalesOrder>(row.received),
    created_at: row.created_at,
  };
}

/** Stores sales orders and their feed entries (change `changeId`); ids in the order given. */
export async function insertSalesOrders(
  db: Db,
  bulk: BulkStatements,
  records: readonly SalesOrderRecord[],
  changeId: number,
): Promise<SalesOrderRecord[]> {
  if (records.length === 0) return [];
  // In number order, as sequences are claimed: racing intakes lock rows in one order.
  const sorted = [...records].sort((a, b) =>
    compareCodes(a.sales_order_number, b.sales_order_number),
  );
  const inserted = await bulk.run(
    db,
    {
      name: 'insert sales_orders',
      table: 'sales_orders',
      columns: ['store_id', 'sales_order_number', 'sales_order_id', 'received', 'created_at'],
      finish: (insert) => insert.returning(['id', 'store_id', 'sales_order_number']),
    },
    sorted.map((record) => ({
      store_id: record.store_id,
      sales_order_number: record.sales_order_number,
      sales_order_id: record.sales_order_id,
      received: record.received === null ? null : encodeJson(record.received),
      created_at: record.created_at,
    })),
  );
  const ids = new Map(
    inserted.map((row) => [`${row.store_id}\u0000${row.sales_order_number}`, Number(row.id)]),
  );
  const stored = records.map((record) => ({
    ...record,
    id: ids.get(`${record.store_id}\u0000${record.sales_order_number}`) ?? 0,
  }));
  await bulk.run(
    db,
    {
      name: 'insert feed_entries of sales orders',
      table: 'feed_entries',
      deferrable: true,
      columns: ['feed', 'entry_id', 'store_id', 'warehouse_code', 'updated_at', 'change_id'],
      finish: (insert) => insert,
    },
    stored.map((record) => ({
      feed: FEED,
      entry_id: record.id,
      store_id: record.store_id,
      warehouse_code: null,
      updated_at: record.created_at,
      change_id: changeId,
    })),
  );
  return stored;
}

export async function findSalesOrders(
  db: Db,
  prepared: PreparedQueries,
  storeId: number,
  numbers: readonly string[],
): Promise<SalesOrderRecord[]> {
  const found: SalesOrderRecord[] = [];
  for (const slice of chunk([...new Set(numbers)], IN_LIST_SIZE)) {
    const { rows } = await prepared.runWithLists(
      db,
      'sales orders by number',
      [storeId],
      [slice],
      (db, argument, listed) =>
        db
          .selectFrom('sales_orders')
          .selectAll()
          .where('store_id', '=', argument<number>(0))
          .where('sales_order_number', 'in', listed<string>(0)),
    );
    appendAll(found, rows.map(decodeSalesOrder));
  }
  return found;
}

export async function salesOrdersById(db: Db, ids: readonly number[]): Promise<SalesOrderRecord[]> {
  const found: SalesOrderRecord[] = [];
  for (const slice of chunk([...new Set(ids)], IN_LIST_SIZE)) {
    const rows = await db.selectFrom('sales_orders').selectAll().where('id', 'in', slice).execute();
    appendAll(found, rows.map(decodeSalesOrder));
  }
  return found;
}

/** Every fulfillment order of these sales orders, ordered by id, through their index. */
export async function listSalesOrderFulfillments(
  db: Db,
  storeId: number,
  numbers: readonly string[],
  prepared: PreparedQueries,
): Promise<FulfillmentOrder[]> {
  const orders: FulfillmentOrder[] = [];
  for (const slice of chunk([...new Set(numbers)], IN_LIST_SIZE)) {
    const headers = await db
      .selectFrom('fulfillment_orders')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('sales_order_number', 'in', slice)
      .orderBy('id')
      .execute();
    appendAll(orders, await loadOrders(db, headers, prepared));
  }
  return orders.sort((a, b) => a.id - b.id);
}

/** What a fulfillment order tells of its sales order, for a record the store may lack. */
export type SalesOrderOf = Pick<
  FulfillmentOrder,
  'store_id' | 'sales_order_number' | 'sales_order_id' | 'created_at' | 'updated_at'
>;

interface Move {
  /** Where a missing record is made from; absent for an explicit `touchSalesOrders`. */
  order?: SalesOrderOf;
  /**
   * The sales order has its record: one of its fulfillment orders was stored before this
   * transaction, and the transaction that stored it made the record (or migration 0013 did).
   */
  recorded?: boolean;
}

const keyOf = (storeId: number, number: string) => `${storeId}\u0000${number}`;

/**
 * The sales orders one transaction moves in the `sales_orders` feed, written together when its
 * work is done (`flush`), with its change: one statement for them all, and their feed rows the
 * last rows it locks, so that two transactions acting on fulfillment orders of one sales order
 * never wait for each other in a cycle.
 */
export class SalesOrderMoves {
  readonly #moves = new Map<number, Map<string, Move>>();
  /** Sales orders this transaction stored: their entries already carry its change. */
  readonly #stored = new Set<string>();
  /** The latest `updated_at` of what moved: the entries' `updated_at` rises to it. */
  #latest: Timestamp = '';

  /** @param deferred the dialect defers writes (`moveRecorded`). */
  constructor(readonly deferred = false) {}

  /**
   * Moves the sales order of a fulfillment order this transaction wrote; `stored`: an order
   * stored before this transaction, so its sales order has its record.
   */
  moveOf(order: SalesOrderOf, stored = false): void {
    this.#add(order.store_id, order.sales_order_number, { order, recorded: stored });
    if (order.updated_at > this.#latest) this.#latest = order.updated_at;
  }

  /** Moves sales orders the store has a record of, by a change made at `at`. */
  move(storeId: number, numbers: readonly string[], at: Timestamp): void {
    for (const number of numbers) this.#add(storeId, number, {});
    if (at > this.#latest) this.#latest = at;
  }

  stored(records: readonly SalesOrderRecord[]): void {
    for (const record of records)
      this.#stored.add(keyOf(record.store_id, record.sales_order_number));
  }

  #add(storeId: number, number: string, move: Move): void {
    let moves = this.#moves.get(storeId);
    if (!moves) {
      moves = new Map();
      this.#moves.set(storeId, moves);
    }
    const held = moves.get(number);
    const order = held?.order ?? move.order;
    moves.set(number, {
      ...(order ? { order } : {}),
      recorded: held?.recorded === true || move.recorded === true,
    });
  }

  /** Writes the moves with the change `changeIdOf` gives for their store; then forgets them. */
  async flush(
    db: Db,
    bulk: BulkStatements,
    prepared: PreparedQueries,
    changeIdOf: (storeId: number) => Promise<number>,
  ): Promise<void> {
    for (const [storeId, moves] of this.#moves) {
      const numbers = [...moves.keys()]
        .filter((number) => !this.#stored.has(keyOf(storeId, number)))
        .sort(compareCodes);
      if (numbers.length === 0) continue;
      const changeId = await changeIdOf(storeId);
      const latest = this.#latest;
      const [only] = numbers;
      if (
        this.deferred &&
        numbers.length === 1 &&
        only !== undefined &&
        moves.get(only)?.recorded
      ) {
        await moveRecorded(db, prepared, [changeId, latest, storeId, only, FEED]);
        continue;
      }
      let moved = 0;
      if (numbers.length === 1) {
        const { numAffectedRows } = await prepared.run(
          db,
          'move a sales order',
          [changeId, latest, storeId, numbers[0], FEED],
          moveOne,
        );
        moved = Number(numAffectedRows ?? 0n);
      } else {
        for (const slice of chunk(numbers, IN_LIST_SIZE)) {
          const result = await moveEntries(db, changeId, latest)
            .where(
              'entry_id',
              'in',
              db
                .selectFrom('sales_orders')
                .select('id')
                .where('store_id', '=', storeId)
                .where('sales_order_number', 'in', slice),
            )
            .executeTakeFirst();
          moved += Number(result.numUpdatedRows);
        }
      }
      if (moved < numbers.length) {
        await addMissing(db, bulk, storeId, numbers, moves, changeId, latest);
      }
    }
    this.#moves.clear();
  }
}

type Argument = <T>(index: number) => T;

/**
 * The update of one sales order's entry; arguments: the change, the latest `updated_at`, the
 * store, the sales order's number, the feed.
 */
const moveOne = (db: Db, argument: Argument) =>
  moveEntries(db, argument<number>(0), argument<string>(1)).where(
    'entry_id',
    'in',
    db
      .selectFrom('sales_orders')
      .select('id')
      .where('store_id', '=', argument<number>(2))
      .where('sales_order_number', '=', argument<string>(3)),
  );

/**
 * Where the dialect defers writes: moves the entry of one sales order that has its record,
 * making the entry if it has none (nothing reads whether it had one). Two
 * writes whose answer is not read. Whichever runs first, or both as one statement on one
 * snapshot, the entry ends the same, so they may wait for the next statement together
 * (deferred-writes.ts) instead of costing a round trip each. Arguments as {@link moveOne}'s.
 */
async function moveRecorded(
  db: Db,
  prepared: PreparedQueries,
  args: readonly unknown[],
): Promise<void> {
  const alongside = {};
  await prepared.run(
    db,
    'make the entry of a recorded sales order',
    args,
    (trx, argument) =>
      trx
        .insertInto('feed_entries')
        .columns(['feed', 'entry_id', 'store_id', 'warehouse_code', 'updated_at', 'change_id'])
        .expression(
          trx
            .selectFrom('sales_orders as s')
            .select([
              sql<string>`cast(${argument(4)} as text)`.as('feed'),
              's.id',
              's.store_id',
              sql<null>`null`.as('warehouse_code'),
              sql<string>`case when s.created_at < ${argument(1)} then ${argument(1)} else s.created_at end`.as(
                'updated_at',
              ),
              sql<number>`cast(${argument(0)} as bigint)`.as('change_id'),
            ])
            .where('s.store_id', '=', argument<number>(2))
            .where('s.sales_order_number', '=', argument<string>(3))
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('feed_entries as f')
                    .select('f.entry_id')
                    .where('f.feed', '=', argument<string>(4))
                    .whereRef('f.entry_id', '=', 's.id'),
                ),
              ),
            ),
        )
        .onConflict((oc) => oc.columns(['feed', 'entry_id']).doNothing()),
    { deferrable: true, alongside },
  );
  await prepared.run(db, 'move a sales order', args, moveOne, { deferrable: true, alongside });
}

/** The update of entries to `changeId`, their `updated_at` raised to `latest`. */
function moveEntries(db: Db, changeId: number, latest: string) {
  return db
    .updateTable('feed_entries')
    .set({
      change_id: changeId,
      updated_at: sql<string>`case when updated_at < ${latest} then ${latest} else updated_at end`,
    })
    .where('feed', '=', FEED);
}

/**
 * Records (content unknown) and feed entries for sales orders that have none: fulfillment
 * orders stored without an intake (a test, an import of orders alone).
 */
async function addMissing(
  db: Db,
  bulk: BulkStatements,
  storeId: number,
  numbers: readonly string[],
  moves: ReadonlyMap<string, Move>,
  changeId: number,
  latest: string,
): Promise<void> {
  const records = numbers.flatMap((number) => {
    const order = moves.get(number)?.order;
    return order
      ? [
          {
            store_id: storeId,
            sales_order_number: number,
            sales_order_id: order.sales_order_id,
            received: null,
            created_at: order.created_at,
          },
        ]
      : [];
  });
  if (records.length > 0) {
    await bulk.run(
      db,
      {
        name: 'insert sales_orders, kept if there',
        table: 'sales_orders',
        columns: ['store_id', 'sales_order_number', 'sales_order_id', 'received', 'created_at'],
        finish: (insert) =>
          insert.onConflict((oc) => oc.columns(['store_id', 'sales_order_number']).doNothing()),
      },
      records,
    );
  }
  for (const slice of chunk(numbers, IN_LIST_SIZE)) {
    await db
      .insertInto('feed_entries')
      .columns(['feed', 'entry_id', 'store_id', 'warehouse_code', 'updated_at', 'change_id'])
      .expression(
        db
          .selectFrom('sales_orders')
          .select([
            sql<string>`cast(${FEED} as text)`.as('feed'),
            'id',
            'store_id',
            sql<null>`null`.as('warehouse_code'),
            sql<string>`case when created_at < ${latest} then ${latest} else created_at end`.as(
              'updated_at',
            ),
            sql<number>`cast(${changeId} as bigint)`.as('change_id'),
          ])
          .where('store_id', '=', storeId)
          .where('sales_order_number', 'in', slice),
      )
      .onConflict((oc) => oc.columns(['feed', 'entry_id']).doNothing())
      .execute();
  }
}
