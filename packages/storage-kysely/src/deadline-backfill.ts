import { backfilledFulfillBy, formatTimestamp, type Warehouse } from '@fulfil/core';
import type { Kysely } from 'kysely';
import { type Database, NO_DEADLINE } from './database.js';
import type { DriverProfile } from './driver-profile.js';
import { decodeStore, decodeWarehouse, encodeJson } from './row-codec.js';
import { withRetries } from './transaction-retry.js';

/** Orders per transaction: a step holds its store's rows briefly, however many are due. */
export const DEADLINE_BACKFILL_STEP = 500;

/** The timeline's reason of each order given its deadline here. */
export const DEADLINE_BACKFILL_REASON =
  'upgrade: the deadline its warehouse calendar gives an order taken in when this one was (deadlines were not kept then)';

/**
 * Gives every order without a `fulfill_by` (taken in before migration 0030, or by a process of
 * that release still running) the one intake would have given it: its warehouse's calendar
 * over the store's, from its creation time (docs/deadlines.md). Run after the migrations, as the
 * database opens, store by store in steps of `DEADLINE_BACKFILL_STEP` orders, each step one
 * transaction: the orders' deadline, their queue entries' copy and a `change_fulfill_by` entry
 * on each one's timeline (by `system`). Only an order still without one is written (the update
 * says so), so a second process doing the same at once, or a run after an interrupted one,
 * writes each order once. What the order shows partners and the ERP is unchanged; it comes
 * again in no feed. Returns how many orders it gave a deadline.
 */
export async function backfillDeadlines(
  db: Kysely<Database>,
  profile: DriverProfile | undefined,
  now: () => string = () => formatTimestamp(new Date()),
  stepSize = DEADLINE_BACKFILL_STEP,
): Promise<number> {
  let filled = 0;
  const stores = await db.selectFrom('stores').select('id').orderBy('id').execute();
  for (const { id } of stores) {
    const storeId = Number(id);
    for (;;) {
      const step = () => backfillStep(db, storeId, now(), stepSize);
      // A step that meets a lock held elsewhere runs again, as an action would.
      const done = await (profile ? withRetries(profile, step) : step());
      filled += done.filled;
      if (done.read < stepSize) break;
    }
  }
  return filled;
}

async function backfillStep(
  db: Kysely<Database>,
  storeId: number,
  at: string,
  stepSize: number,
): Promise<{ read: number; filled: number }> {
  return db.transaction().execute(async (trx) => {
    // The first orders without one: a range of the index (store_id, fulfill_by, id).
    const due = await trx
      .selectFrom('fulfillment_orders')
      .select(['id', 'warehouse_code', 'created_at'])
      .where('store_id', '=', storeId)
      .where('fulfill_by', '=', NO_DEADLINE)
      .orderBy('fulfill_by')
      .orderBy('id')
      .limit(stepSize)
      .execute();
    if (due.length === 0) return { read: 0, filled: 0 };
    const store = decodeStore(
      await trx
        .selectFrom('stores')
        .selectAll()
        .where('id', '=', storeId)
        .executeTakeFirstOrThrow(),
    );
    const warehouses = new Map<string, Warehouse>();
    for (const row of await trx
      .selectFrom('warehouses')
      .selectAll()
      .where('store_id', '=', storeId)
      .execute())
      warehouses.set(row.code, decodeWarehouse(row));
    // Orders taken in together share a deadline: one statement per deadline, not per order.
    const byDeadline = new Map<string, number[]>();
    for (const order of due) {
      const fulfillBy = backfilledFulfillBy(
        order.warehouse_code === null ? null : warehouses.get(order.warehouse_code),
        store.settings.calendar,
        order.created_at,
      );
      const ids = byDeadline.get(fulfillBy);
      if (ids) ids.push(Number(order.id));
      else byDeadline.set(fulfillBy, [Number(order.id)]);
    }
    const entries: { order_id: number; fulfill_by: string }[] = [];
    for (const [fulfillBy, ids] of byDeadline) {
      const written = await trx
        .updateTable('fulfillment_orders')
        .set({ fulfill_by: fulfillBy })
        .where('id', 'in', ids)
        .where('fulfill_by', '=', NO_DEADLINE)
        .returning('id')
        .execute();
      const writtenIds = written.map((row) => Number(row.id));
      if (writtenIds.length === 0) continue;
      await trx
        .updateTable('queue_entries')
        .set({ fulfill_by: fulfillBy })
        .where('order_id', 'in', writtenIds)
        .execute();
      for (const id of writtenIds) entries.push({ order_id: id, fulfill_by: fulfillBy });
    }
    if (entries.length > 0)
      await trx
        .insertInto('audit_events')
        .values(
          entries.map((entry) => ({
            order_id: entry.order_id,
            at,
            actor: 'system',
            action: 'change_fulfill_by',
            details: encodeJson({ fulfill_by: entry.fulfill_by, before: null }),
            request_id: null,
            reason: DEADLINE_BACKFILL_REASON,
          })),
        )
        .execute();
    return { read: due.length, filled: entries.length };
  });
}
