import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';
import { guardWrites, unguardWrites } from '../writer-generation.js';

const TABLES = ['stock_adjustments', 'stock_adjustment_lines'];

/**
 * Stock adjustments, the start of the stock history: `stock_adjustments` one row per applied
 * adjustment, unique by number in its store (what makes a repeat answer the first result, and
 * two racing ones apply once), with the token that sent it; `stock_adjustment_lines` its lines
 * in the order sent (`line` from 0), each with its reason and the on hand it left, so that a
 * repeat compares and answers from them. Guarded like every other table (writer-generation.ts),
 * generation 1: no older process writes either table. Frozen in time like every migration.
 */
export function stockAdjustmentsMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      const key = flags.binaryCollation ? sql`text collate "C"` : 'text';
      const big = flags.bigint;
      const table = db.schema.createTable('stock_adjustments');
      await (flags.autoIncrementId === 'autoincrement'
        ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      )
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('adjustment_number', key, (col) => col.notNull())
        .addColumn('token_name', 'text', (col) => col.notNull())
        .addColumn('created_at', key, (col) => col.notNull())
        .addUniqueConstraint('stock_adjustments_store_number_unique', [
          'store_id',
          'adjustment_number',
        ])
        .execute();
      await db.schema
        .createTable('stock_adjustment_lines')
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('adjustment_id', big, (col) => col.notNull().references('stock_adjustments.id'))
        .addColumn('line', 'integer', (col) => col.notNull())
        .addColumn('warehouse_code', key, (col) => col.notNull())
        .addColumn('sku', key, (col) => col.notNull())
        .addColumn('delta', big, (col) => col.notNull())
        .addColumn('reason', key, (col) => col.notNull())
        .addColumn('on_hand', big, (col) => col.notNull())
        .addPrimaryKeyConstraint('stock_adjustment_lines_pk', ['adjustment_id', 'line'])
        .execute();
      // The history of one sku at one warehouse, in the order it was written.
      await db.schema
        .createIndex('stock_adjustment_lines_stock')
        .on('stock_adjustment_lines')
        .columns(['store_id', 'warehouse_code', 'sku', 'adjustment_id'])
        .execute();
      await guardWrites(db, flags, { generation: 1, tables: TABLES });
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await unguardWrites(db, flags, { tables: TABLES });
      await db.schema.dropTable('stock_adjustment_lines').execute();
      await db.schema.dropTable('stock_adjustments').execute();
    },
  };
}
