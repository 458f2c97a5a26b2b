import { type FulfillmentOrder, queueDocuments, queuesOf } from '@fulfil/core';
import { type Kysely, type OnConflictBuilder, sql } from 'kysely';
import type { BulkStatements } from './bulk-statements.js';
import type { Database } from './database.js';
import { PreparedQueries } from './prepared-queries.js';
import { encodeFulfillBy } from './row-codec.js';

/**
 * Writing the `queue_entries` that list an order: one row per queue it is in, with its document,
 * inserted for new orders and moved or rewritten as the order changes. Every function runs on
 * the caller's transaction.
 */

type Db = Kysely<Database>;
/**
 * The order's rows of `queue_entries`. With `changeId` (the writing transaction's change,
 * docs/polling.md) they carry it; without (a document rewritten by `fillMissingDocuments`, no
 * change to the order) the rows keep theirs.
 */
function queueEntryRows(order: FulfillmentOrder, changeId: number | null) {
  return queueDocuments(order).map(({ queue, document }) => ({
    order_id: order.id,
    store_id: order.store_id,
    queue,
    warehouse_code: order.warehouse_code,
    updated_at: order.updated_at,
    fulfill_by: encodeFulfillBy(order),
    document,
    ...(changeId === null ? {} : { change_id: changeId }),
  }));
}

/** Writes the `queue_entries` of new orders: one per queue that lists each, with its document. */
export async function insertQueueEntries(
  db: Db,
  bulk: BulkStatements,
  orders: readonly FulfillmentOrder[],
  changeId: number,
): Promise<void> {
  const rows = orders.flatMap((order) => queueEntryRows(order, changeId));
  const first = rows[0];
  if (!first) return;
  await bulk.run(
    db,
    {
      name: 'insert queue_entries',
      table: 'queue_entries',
      deferrable: true,
      columns: Object.keys(first) as (keyof typeof first)[],
      finish: (insert) => insert,
    },
    rows,
  );
}

/**
 * Rewrites an existing order's rows of `queue_entries` from core's `queueDocuments`. With
 * `before` (the order as this transaction read it), a queue it left and one it entered are one
 * row rewritten in place, its table page the only one touched (an accept moves the order from
 * pending_accept to pending_allocation: one statement, not a delete and an insert at the table's
 * end); rows of other queues it left go, the rest are written in place. Without `before`, every
 * row of a queue that no longer lists it goes. `deferred`: the dialect defers writes
 * (`moveQueueEntry`).
 */
export async function writeQueueEntries(
  db: Db,
  order: FulfillmentOrder,
  before: FulfillmentOrder | null,
  changeId: number | null,
  prepared = new PreparedQueries(),
  deferred = false,
): Promise<void> {
  const rows = queueEntryRows(order, changeId);
  const queues = rows.map((row) => row.queue);
  const held = before === null ? null : queuesOf(before);
  const left = held?.filter((queue) => !queues.includes(queue)) ?? [];
  const upserted = [];
  for (const row of rows) {
    const from = held && !held.includes(row.queue) ? left.shift() : undefined;
    const moved =
      from !== undefined &&
      changeId !== null &&
      (await moveQueueEntry(db, prepared, from, row, changeId, deferred));
    if (!moved) upserted.push(row);
  }
  if (held === null || left.length > 0) {
    await db
      .deleteFrom('queue_entries')
      .where('order_id', '=', order.id)
      .$if(held !== null, (qb) => qb.where('queue', 'in', left))
      .$if(held === null && queues.length > 0, (qb) => qb.where('queue', 'not in', queues))
      .execute();
  }
  if (upserted.length === 0) return;
  await db
    .insertInto('queue_entries')
    .values(upserted)
    .onConflict((oc) => rewriteEntry(oc, changeId !== null))
    .execute();
}

type QueueEntryRow = ReturnType<typeof queueEntryRows>[number];

/**
 * An upsert's rewrite of the order's row of a queue that is there: its columns from the row
 * written; `withChange`, its change id too.
 */
const rewriteEntry = (oc: OnConflictBuilder<Database, 'queue_entries'>, withChange: boolean) =>
  oc.columns(['order_id', 'queue']).doUpdateSet((eb) => ({
    warehouse_code: eb.ref('excluded.warehouse_code'),
    updated_at: eb.ref('excluded.updated_at'),
    fulfill_by: eb.ref('excluded.fulfill_by'),
    document: eb.ref('excluded.document'),
    ...(withChange ? { change_id: eb.ref('excluded.change_id') } : {}),
  }));
type Argument = <T>(index: number) => T;

/** Rewrites the order's row of queue `$5` in place; arguments as {@link queueEntryArguments}. */
const moveEntry = (db: Db, argument: Argument) =>
  db
    .updateTable('queue_entries')
    .set({
      queue: argument<string>(0),
      warehouse_code: argument<string>(1),
      updated_at: argument<string>(2),
      document: argument<string>(3),
      change_id: argument<number>(6),
      fulfill_by: argument<string>(7),
    })
    .where('order_id', '=', argument<number>(4))
    .where('queue', '=', argument<string>(5));

/** Writes the row as an upsert unless the order has a row of queue `$5`. */
const writeEntryUnlessMoved = (db: Db, argument: Argument) =>
  db
    .insertInto('queue_entries')
    .columns([
      'order_id',
      'store_id',
      'queue',
      'warehouse_code',
      'updated_at',
      'fulfill_by',
      'document',
      'change_id',
    ])
    .expression(
      db
        .selectNoFrom([
          sql<number>`cast(${argument(4)} as bigint)`.as('order_id'),
          sql<number>`cast(${argument(8)} as bigint)`.as('store_id'),
          sql<string>`cast(${argument(0)} as text)`.as('queue'),
          sql<string>`cast(${argument(1)} as text)`.as('warehouse_code'),
          sql<string>`cast(${argument(2)} as text)`.as('updated_at'),
          sql<string>`cast(${argument(7)} as text)`.as('fulfill_by'),
          sql<string>`cast(${argument(3)} as text)`.as('document'),
          sql<number>`cast(${argument(6)} as bigint)`.as('change_id'),
        ])
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('queue_entries')
                .select('order_id')
                .where('order_id', '=', argument<number>(4))
                .where('queue', '=', argument<string>(5)),
            ),
          ),
        ),
    )
    .onConflict((oc) => rewriteEntry(oc, true));

/**
 * Rewrites the order's row of queue `from` as `row`, in place; false when there was no such row
 * (an order whose entries an older release wrote otherwise: the caller writes `row` then).
 *
 * `deferred` (the dialect defers writes, deferred-writes.ts): the row is written either way, in
 * two writes whose answer is not read, and true is returned. Whichever of them runs first, or both
 * as one statement on one snapshot, exactly one does something, so they wait for the next
 * statement together instead of costing a round trip each.
 */
async function moveQueueEntry(
  db: Db,
  prepared: PreparedQueries,
  from: string,
  row: QueueEntryRow,
  changeId: number,
  deferred: boolean,
): Promise<boolean> {
  const args = [
    row.queue,
    row.warehouse_code,
    row.updated_at,
    row.document,
    row.order_id,
    from,
    changeId,
    row.fulfill_by,
    row.store_id,
  ];
  if (!deferred) {
    const { numAffectedRows } = await prepared.run(db, 'move a queue entry', args, moveEntry);
    return (numAffectedRows ?? 0n) > 0n;
  }
  const alongside = {};
  const later = { deferrable: true, alongside };
  await prepared.run(db, 'write a queue entry unless moved', args, writeEntryUnlessMoved, later);
  await prepared.run(db, 'move a queue entry', args, moveEntry, later);
  return true;
}
