import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';

/**
 * The operator's side (docs/admin-api.md): operators and their sessions, the request id and
 * reason of every audit event, a store-level audit for what concerns no one order, the last use
 * of a token, and the indexes of the order search. Frozen in time like every migration.
 */
export function adminMigration(flags: SchemaFlags): Migration {
  // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
  type Db = Kysely<any>;
  // biome-ignore lint/suspicious/noExplicitAny: see above
  type Table = CreateTableBuilder<any, any>;
  const key = flags.binaryCollation ? sql`text collate "C"` : 'text';
  const big = flags.bigint;
  const withId = (table: Table): Table =>
    flags.autoIncrementId === 'autoincrement'
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
      : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity());

  return {
    async up(db: Db): Promise<void> {
      await withId(db.schema.createTable('operators'))
        .addColumn('name', key, (col) => col.notNull().unique())
        .addColumn('role', 'text', (col) => col.notNull())
        .addColumn('store_code', key)
        .addColumn('hash', 'text', (col) => col.notNull().unique())
        .addColumn('created_at', key, (col) => col.notNull())
        .addColumn('revoked_at', key)
        .execute();
      await db.schema
        .createTable('operator_sessions')
        .addColumn('hash', 'text', (col) => col.primaryKey())
        .addColumn('operator_id', big, (col) => col.notNull().references('operators.id'))
        .addColumn('created_at', key, (col) => col.notNull())
        .addColumn('expires_at', key, (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('operator_sessions_operator')
        .on('operator_sessions')
        .column('operator_id')
        .execute();

      await db.schema.alterTable('audit_events').addColumn('request_id', 'text').execute();
      await db.schema.alterTable('audit_events').addColumn('reason', 'text').execute();
      await withId(db.schema.createTable('store_audit'))
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('at', key, (col) => col.notNull())
        .addColumn('actor', 'text', (col) => col.notNull())
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('reason', 'text')
        .addColumn('request_id', 'text')
        .addColumn('details', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('store_audit_store')
        .on('store_audit')
        .columns(['store_id', 'id'])
        .execute();

      await db.schema.alterTable('tokens').addColumn('last_used_at', key).execute();

      // The order search (admin-search.ts): each filter has an index that yields its orders
      // newest first, so a page is found without reading every match.
      const index = (name: string, columns: string) =>
        sql.raw(`create index ${name} on fulfillment_orders (${columns})`).execute(db);
      // Newest first with no filter: without it a database may sort a whole store.
      await index('fulfillment_orders_store', 'store_id, id');
      await index('fulfillment_orders_status', 'store_id, status, id');
      await index('fulfillment_orders_warehouse', 'store_id, warehouse_code, id');
      await index('fulfillment_orders_sales_order', 'store_id, sales_order_number');
      await index('fulfillment_orders_created', 'store_id, created_at, id');
      await index('fulfillment_orders_updated', 'store_id, updated_at, id');
      await index('fulfillment_orders_firstname', 'store_id, lower(customer_firstname)');
      await index('fulfillment_orders_lastname', 'store_id, lower(customer_lastname)');
      await index('fulfillment_orders_email', 'store_id, lower(customer_email)');
      await db.schema
        .createIndex('order_items_sku')
        .on('order_items')
        .columns(['sku', 'order_id'])
        .execute();
    },

    async down(db: Db): Promise<void> {
      for (const name of [
        'order_items_sku',
        'fulfillment_orders_email',
        'fulfillment_orders_lastname',
        'fulfillment_orders_firstname',
        'fulfillment_orders_updated',
        'fulfillment_orders_created',
        'fulfillment_orders_sales_order',
        'fulfillment_orders_warehouse',
        'fulfillment_orders_status',
        'fulfillment_orders_store',
      ]) {
        await db.schema.dropIndex(name).execute();
      }
      await db.schema.alterTable('tokens').dropColumn('last_used_at').execute();
      await db.schema.dropTable('store_audit').execute();
      await db.schema.alterTable('audit_events').dropColumn('reason').execute();
      await db.schema.alterTable('audit_events').dropColumn('request_id').execute();
      await db.schema.dropTable('operator_sessions').execute();
      await db.schema.dropTable('operators').execute();
    },
  };
}
