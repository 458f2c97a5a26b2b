import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';
import { guardWrites, unguardWrites } from '../writer-generation.js';

const TABLES = ['returns', 'return_quarantine'];

/**
 * Returns (`returns`): one row per return, unique by rma number in its store, with what is
 * searched on as columns and its lines, receipts and credits as one JSON document, since they
 * are only ever read and written with the return, under its lock. `return_quarantine`: the
 * returned goods counted apart from on hand per warehouse and sku, never available. Their
 * queues are entries of `feed_entries` (migration 0013). Guarded like every other table
 * (writer-generation.ts), generation 1: no older process writes either table. Frozen in time
 * like every migration.
 */
export function returnsMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      const key = flags.binaryCollation ? sql`text collate "C"` : 'text';
      const big = flags.bigint;
      const table = db.schema.createTable('returns');
      await (flags.autoIncrementId === 'autoincrement'
        ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      )
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('rma_number', key, (col) => col.notNull())
        .addColumn('sales_order_number', key, (col) => col.notNull())
        .addColumn('warehouse_code', key, (col) => col.notNull())
        .addColumn('status', key, (col) => col.notNull())
        .addColumn('document', 'text', (col) => col.notNull())
        .addColumn('canceled_at', key)
        .addColumn('created_at', key, (col) => col.notNull())
        .addColumn('updated_at', key, (col) => col.notNull())
        .addUniqueConstraint('returns_store_rma_unique', ['store_id', 'rma_number'])
        .execute();
      await db.schema
        .createIndex('returns_sales_order')
        .on('returns')
        .columns(['store_id', 'sales_order_number', 'id'])
        .execute();
      await db.schema
        .createTable('return_quarantine')
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('warehouse_code', key, (col) => col.notNull())
        .addColumn('sku', key, (col) => col.notNull())
        .addColumn('qty', big, (col) => col.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('return_quarantine_pk', ['store_id', 'warehouse_code', 'sku'])
        .execute();
      await guardWrites(db, flags, { generation: 1, tables: TABLES });
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await unguardWrites(db, flags, { tables: TABLES });
      await db.schema.dropTable('return_quarantine').execute();
      await db.schema.dropTable('returns').execute();
    },
  };
}
