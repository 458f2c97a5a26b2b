import { randomBytes } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';

/**
 * The change cursor (docs/polling.md): each queue entry records the change that last wrote it,
 * and `fulfil_change_clock` holds what a cursor is checked against. Its one row carries the
 * database's epoch, random, so that a cursor of another database (a restored dump, a fresh
 * file) is told apart from one of this database, and the counter of SQLite's changes. Entries
 * written before this migration are change 0: older than any cursor.
 */
export function changeCursorMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('queue_entries')
        .addColumn('change_id', flags.bigint, (col) => col.notNull().defaultTo(0))
        .execute();
      // Covers a `since` poll: equality on (store, queue), rows already in change order, the
      // warehouse filter read from the index itself.
      await db.schema
        .createIndex('queue_entries_changes')
        .on('queue_entries')
        .columns(['store_id', 'queue', 'change_id', 'order_id', 'warehouse_code'])
        .execute();
      await db.schema
        .createTable('fulfil_change_clock')
        .addColumn('epoch', 'text', (col) => col.notNull())
        .addColumn('value', flags.bigint, (col) => col.notNull())
        .execute();
      await db
        .insertInto('fulfil_change_clock')
        .values({ epoch: randomBytes(8).toString('hex'), value: 0 })
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('fulfil_change_clock').execute();
      await db.schema.dropIndex('queue_entries_changes').execute();
      await db.schema.alterTable('queue_entries').dropColumn('change_id').execute();
    },
  };
}
