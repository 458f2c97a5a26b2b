import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';
import { guardWrites, unguardWrites } from '../writer-generation.js';

const TABLES = ['sales_orders', 'feed_entries'];

/**
 * Sales orders as taken in (`sales_orders`: what a repeated intake is compared with), and
 * `feed_entries`, the change-tracked lists other than the fulfillment queues (docs/polling.md):
 * one row per resource of a feed, with the change that last moved it, paged by id and followed
 * by change like `queue_entries`. Every sales order already taken in gets its record (its
 * content unknown: `received` null) and its entry of the `sales_orders` feed at change 0, older
 * than any cursor. Both tables are guarded like every other (writer-generation.ts); generation
 * 1 is enough, since it ships in the release that introduced the guard: no process that writes
 * orders without moving their sales order in the feed can declare it. Frozen in time like every
 * migration.
 */
export function salesOrdersMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      const key = flags.binaryCollation ? sql`text collate "C"` : 'text';
      const big = flags.bigint;
      const table = db.schema.createTable('sales_orders');
      await (flags.autoIncrementId === 'autoincrement'
        ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
      )
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('sales_order_number', key, (col) => col.notNull())
        .addColumn('sales_order_id', big, (col) => col.notNull())
        .addColumn('received', 'text')
        .addColumn('created_at', key, (col) => col.notNull())
        .addUniqueConstraint('sales_orders_store_number_unique', ['store_id', 'sales_order_number'])
        .execute();
      await db.schema
        .createTable('feed_entries')
        .addColumn('feed', key, (col) => col.notNull())
        .addColumn('entry_id', big, (col) => col.notNull())
        .addColumn('store_id', big, (col) => col.notNull())
        .addColumn('warehouse_code', key)
        .addColumn('updated_at', key, (col) => col.notNull())
        .addColumn('change_id', big, (col) => col.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('feed_entries_pk', ['feed', 'entry_id'])
        .execute();
      // A page by id, as `queue_entries_poll` serves a queue's, from the index alone.
      await db.schema
        .createIndex('feed_entries_page')
        .on('feed_entries')
        .columns(['store_id', 'feed', 'entry_id', 'warehouse_code', 'updated_at', 'change_id'])
        .execute();
      // A `since` page, as `queue_entries_changes` serves a queue's.
      await db.schema
        .createIndex('feed_entries_changes')
        .on('feed_entries')
        .columns(['store_id', 'feed', 'change_id', 'entry_id', 'warehouse_code'])
        .execute();
      // In the order they were taken in: their first fulfillment order's.
      await sql`insert into sales_orders (store_id, sales_order_number, sales_order_id, received, created_at)
        select store_id, sales_order_number, min(sales_order_id), null, min(created_at)
        from fulfillment_orders group by store_id, sales_order_number order by min(id)`.execute(db);
      await sql`insert into feed_entries (feed, entry_id, store_id, warehouse_code, updated_at, change_id)
        select 'sales_orders', s.id, s.store_id, null,
          (select max(f.updated_at) from fulfillment_orders f
            where f.store_id = s.store_id and f.sales_order_number = s.sales_order_number),
          0
        from sales_orders s`.execute(db);
      await guardWrites(db, flags, { generation: 1, tables: TABLES });
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await unguardWrites(db, flags, { tables: TABLES });
      await db.schema.dropTable('feed_entries').execute();
      await db.schema.dropTable('sales_orders').execute();
    },
  };
}
