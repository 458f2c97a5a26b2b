import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';

/**
 * Courier labels (docs/couriers.md): one row per parcel of a courier shipment, from the claim that
 * may buy it until it ships with the order or is voided. Frozen in time like every migration.
 */
export function courierLabelsMigration(flags: SchemaFlags): Migration {
  const key = flags.binaryCollation ? sql`text collate "C"` : 'text';
  const big = flags.bigint;
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      const table = db.schema.createTable('courier_labels');
      await (flags.autoIncrementId === 'autoincrement'
        ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      )
        .addColumn('order_id', big, (col) => col.notNull().references('fulfillment_orders.id'))
        .addColumn('reference', key, (col) => col.notNull())
        .addColumn('shipment_number', 'integer', (col) => col.notNull())
        .addColumn('parcel_index', 'integer', (col) => col.notNull())
        .addColumn('parcel_count', 'integer', (col) => col.notNull())
        .addColumn('carrier', key, (col) => col.notNull())
        .addColumn('carrier_label_id', 'text')
        .addColumn('tracking_number', 'text')
        .addColumn('tracking_url', 'text')
        .addColumn('document', 'text')
        .addColumn('document_format', 'text')
        .addColumn('document_url', 'text')
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('void_attempts', 'integer', (col) => col.notNull())
        .addColumn('next_void_at', key)
        .addColumn('last_error', 'text')
        .addColumn('created_at', key, (col) => col.notNull())
        .addColumn('voided_at', key)
        .execute();
      await db.schema
        .createIndex('courier_labels_order')
        .on('courier_labels')
        .columns(['order_id', 'id'])
        .execute();
      // The void queue: only rows waiting for a void carry `next_void_at`.
      await db.schema
        .createIndex('courier_labels_void_due')
        .on('courier_labels')
        .columns(['next_void_at', 'order_id'])
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('courier_labels').execute();
    },
  };
}
