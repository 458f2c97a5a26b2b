import type { CourierLabel, LabelStatus, Timestamp } from '@fulfil/core';
import type { Kysely, Selectable } from 'kysely';
import type { CourierLabelTable, Database } from './database.js';

/** The SQL of courier dispatch: due orders, and labels (core's `RepositoryTx.listLabels` …). */

function decodeLabel(row: Selectable<CourierLabelTable>): CourierLabel {
  return {
    ...row,
    id: Number(row.id),
    order_id: Number(row.order_id),
    shipment_number: Number(row.shipment_number),
    parcel_index: Number(row.parcel_index),
    parcel_count: Number(row.parcel_count),
    void_attempts: Number(row.void_attempts),
    status: row.status as LabelStatus,
  };
}

export async function listLabels(db: Kysely<Database>, orderId: number): Promise<CourierLabel[]> {
  const rows = await db
    .selectFrom('courier_labels')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map(decodeLabel);
}

export async function saveLabels(
  db: Kysely<Database>,
  labels: readonly CourierLabel[],
): Promise<CourierLabel[]> {
  const saved: CourierLabel[] = [];
  for (const label of labels) {
    const { id, ...fields } = label;
    if (id === 0) {
      const row = await db
        .insertInto('courier_labels')
        .values(fields)
        .returning('id')
        .executeTakeFirstOrThrow();
      saved.push({ ...label, id: Number(row.id) });
    } else {
      await db.updateTable('courier_labels').set(fields).where('id', '=', id).execute();
      saved.push(label);
    }
  }
  return saved;
}

export async function deleteLabels(
  db: Kysely<Database>,
  orderId: number,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('courier_labels')
    .where('order_id', '=', orderId)
    .where('id', 'in', [...ids])
    .execute();
}

export async function listLabelVoidsDue(
  db: Kysely<Database>,
  now: Timestamp,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('courier_labels')
    .select((eb) => ['order_id', eb.fn.min('next_void_at').as('due')])
    .where('next_void_at', '<=', now)
    .where('status', 'in', ['voiding', 'void_failed'])
    .groupBy('order_id')
    .orderBy('due')
    .orderBy('order_id')
    .limit(limit)
    .execute();
  return rows.map((row) => Number(row.order_id));
}

/** Orders waiting in pending_shipment of a courier warehouse whose next try is due at `now`. */
export function courierDueQuery(db: Kysely<Database>, now: Timestamp, limit: number) {
  return (
    db
      .selectFrom('fulfillment_orders as o')
      .innerJoin('queue_entries as q', (join) =>
        join.onRef('q.order_id', '=', 'o.id').on('q.queue', '=', 'pending_shipment'),
      )
      .innerJoin('warehouses as w', (join) =>
        join.onRef('w.store_id', '=', 'o.store_id').onRef('w.code', '=', 'o.warehouse_code'),
      )
      .select('o.id')
      .where('w.fulfilled_by', '=', 'courier')
      // The condition of the partial index fulfillment_orders_courier_due (migration 0021).
      .where('o.courier_next_attempt_at', 'is not', null)
      .where('o.courier_next_attempt_at', '<=', now)
      .orderBy('o.courier_next_attempt_at')
      .orderBy('o.id')
      .limit(limit)
  );
}

export async function listCourierDue(
  db: Kysely<Database>,
  now: Timestamp,
  limit: number,
): Promise<number[]> {
  const rows = await courierDueQuery(db, now, limit).execute();
  return rows.map((row) => Number(row.id));
}
