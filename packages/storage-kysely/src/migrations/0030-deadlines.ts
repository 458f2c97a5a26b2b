import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Deadlines (docs/deadlines.md). `fulfillment_orders.fulfill_by`, the moment the order must
 * leave its warehouse, and its copy in `queue_entries` for polls sorted by it: UTC text, never
 * null so that one index orders every row alike on both databases (SQLite sorts nulls first,
 * Postgres last); `9999-12-31 23:59:59` is "none", as every order before this migration has.
 * Indexed for the admin search's sort and status filters `(store_id, fulfill_by, id)` and for
 * polls `(store_id, queue, fulfill_by, order_id)`, each page a range of the index in its order.
 * The warehouse's calendar (`processing_days`, `working_days` and `holidays` as JSON text,
 * `cutoff` `HH:MM`; its `timezone` is 0029's): null, the store's. A process of the release before writes
 * orders and warehouses without these columns, leaving them as they were or at "none": no writer
 * generation is needed. Frozen in time like every migration.
 */
export function deadlinesMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      for (const table of ['fulfillment_orders', 'queue_entries'])
        await db.schema
          .alterTable(table)
          .addColumn('fulfill_by', 'text', (col) => col.notNull().defaultTo('9999-12-31 23:59:59'))
          .execute();
      await db.schema
        .createIndex('fulfillment_orders_fulfill_by')
        .on('fulfillment_orders')
        .columns(['store_id', 'fulfill_by', 'id'])
        .execute();
      // The orders still to ship, by deadline: what the overdue, at-risk and on-track filters
      // and counts read, a small range however many orders shipped long ago. Its predicate is
      // the very text the queries say (storage deadline-sql.ts), as SQLite asks to use it.
      await db.schema
        .createIndex('fulfillment_orders_open_by_deadline')
        .on('fulfillment_orders')
        .columns(['store_id', 'fulfill_by', 'id'])
        .where(
          sql<boolean>`status not in ('pending_invoice', 'partially_invoiced', 'invoiced', 'rejected', 'canceled')`,
        )
        .execute();
      // The orders shipped late: few among many shipped, the `missed` filter reads them alone.
      await db.schema
        .createIndex('fulfillment_orders_missed')
        .on('fulfillment_orders')
        .columns(['store_id', 'id'])
        .where(
          sql<boolean>`status in ('pending_invoice', 'partially_invoiced', 'invoiced') and shipped_at > fulfill_by`,
        )
        .execute();
      await db.schema
        .createIndex('queue_entries_fulfill_by')
        .on('queue_entries')
        .columns(['store_id', 'queue', 'fulfill_by', 'order_id'])
        .execute();
      // The metrics' late shipments of the last 30 days: a range of shipped orders, not a scan.
      await db.schema
        .createIndex('fulfillment_orders_shipped_at')
        .on('fulfillment_orders')
        .column('shipped_at')
        .execute();
      await db.schema.alterTable('warehouses').addColumn('processing_days', 'integer').execute();
      // Its time zone came with 0029 (its day, for daily capacity): deadlines count in it too.
      for (const column of ['working_days', 'holidays', 'cutoff'])
        await db.schema.alterTable('warehouses').addColumn(column, 'text').execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      for (const column of ['cutoff', 'holidays', 'working_days', 'processing_days'])
        await db.schema.alterTable('warehouses').dropColumn(column).execute();
      await db.schema.dropIndex('fulfillment_orders_shipped_at').execute();
      await db.schema.dropIndex('fulfillment_orders_open_by_deadline').execute();
      await db.schema.dropIndex('fulfillment_orders_missed').execute();
      await db.schema.dropIndex('queue_entries_fulfill_by').execute();
      await db.schema.dropIndex('fulfillment_orders_fulfill_by').execute();
      for (const table of ['queue_entries', 'fulfillment_orders'])
        await db.schema.alterTable(table).dropColumn('fulfill_by').execute();
    },
  };
}
