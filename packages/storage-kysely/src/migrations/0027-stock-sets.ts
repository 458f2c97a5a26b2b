import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';
import { guardWrites, unguardWrites } from '../writer-generation.js';

const TABLES = ['stock_sets'];

/**
 * Absolute sets in the stock history: `stock_sets` one row per set of one (warehouse, sku), by
 * `POST /V1/stockItems` or an operator, with the on hand it replaced (read under the row's lock)
 * and the one it left, the `change_from` sent, who (a token's or an operator's name), the source
 * and the request. Guarded like every other table (writer-generation.ts), generation 1: no older
 * process writes it. Frozen in time like every migration.
 */
export function stockSetsMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      const key = flags.binaryCollation ? sql`text collate "C"` : 'text';
      const big = flags.bigint;
      const table = db.schema.createTable('stock_sets');
      await (flags.autoIncrementId === 'autoincrement'
        ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      )
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('warehouse_code', key, (col) => col.notNull())
        .addColumn('sku', key, (col) => col.notNull())
        .addColumn('on_hand_before', big, (col) => col.notNull())
        .addColumn('on_hand_after', big, (col) => col.notNull())
        .addColumn('change_from', big)
        .addColumn('actor', 'text', (col) => col.notNull())
        .addColumn('source', key, (col) => col.notNull())
        .addColumn('request_id', 'text')
        .addColumn('created_at', key, (col) => col.notNull())
        .execute();
      // The history of one sku at one warehouse, newest first.
      await db.schema
        .createIndex('stock_sets_stock')
        .on('stock_sets')
        .columns(['store_id', 'warehouse_code', 'sku', 'created_at', 'id'])
        .execute();
      await guardWrites(db, flags, { generation: 1, tables: TABLES });
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await unguardWrites(db, flags, { tables: TABLES });
      await db.schema.dropTable('stock_sets').execute();
    },
  };
}
