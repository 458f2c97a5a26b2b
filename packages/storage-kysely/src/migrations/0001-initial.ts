import { type CreateTableBuilder, type Kysely, type Migration, sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';

/**
 * The first schema. Frozen in time: once released, this file never changes; a later change of
 * the schema is a new migration next to it. It depends on nothing but kysely's schema builder and
 * the adapter's {@link SchemaFlags}, so it behaves the same when bundled.
 */
export function initialMigration(flags: SchemaFlags): Migration {
  // `Kysely<any>` is kysely's own signature for migrations: they must not follow the latest types.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  type Db = Kysely<any>;
  // biome-ignore lint/suspicious/noExplicitAny: see above
  type Table = CreateTableBuilder<any, any>;

  const key = flags.binaryCollation ? sql`text collate "C"` : 'text';
  const big = flags.bigint;
  const withId = (table: Table): Table =>
    flags.autoIncrementId === 'autoincrement'
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
      : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity());
  const money = (table: Table, names: readonly string[]): Table =>
    names.reduce((t, name) => t.addColumn(name, big), table);

  return {
    async up(db: Db): Promise<void> {
      await withId(db.schema.createTable('stores'))
        .addColumn('code', key, (col) => col.notNull().unique())
        .addColumn('settings', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('warehouses')
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('code', key, (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('active', 'integer', (col) => col.notNull())
        .addColumn('fulfilled_by', 'text', (col) => col.notNull())
        .addColumn('priority', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('warehouses_pk', ['store_id', 'code'])
        .execute();

      await db.schema
        .createTable('stock')
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('warehouse_code', key, (col) => col.notNull())
        .addColumn('sku', key, (col) => col.notNull())
        .addColumn('on_hand', big, (col) => col.notNull())
        .addColumn('reserved', big, (col) => col.notNull())
        .addPrimaryKeyConstraint('stock_pk', ['store_id', 'warehouse_code', 'sku'])
        .execute();

      await withId(db.schema.createTable('tokens'))
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('name', key, (col) => col.notNull())
        .addColumn('hash', 'text', (col) => col.notNull().unique())
        .addColumn('resources', 'text', (col) => col.notNull())
        .addColumn('warehouses', 'text')
        .addColumn('expires_at', key)
        .addColumn('revoked_at', key)
        .addColumn('created_at', key, (col) => col.notNull())
        .addUniqueConstraint('tokens_store_name_unique', ['store_id', 'name'])
        .execute();

      await db.schema
        .createTable('sales_order_sequences')
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('sales_order_number', key, (col) => col.notNull())
        .addColumn('last_sequence', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('sales_order_sequences_pk', ['store_id', 'sales_order_number'])
        .execute();

      let orders = withId(db.schema.createTable('fulfillment_orders'))
        .addColumn('store_id', big, (col) => col.notNull().references('stores.id'))
        .addColumn('fulfillment_order_number', key, (col) => col.notNull())
        .addColumn('sales_order_id', big, (col) => col.notNull())
        .addColumn('sales_order_number', key, (col) => col.notNull())
        .addColumn('warehouse_code', key, (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('allow_partial', 'integer')
        .addColumn('customer_firstname', 'text', (col) => col.notNull())
        .addColumn('customer_lastname', 'text', (col) => col.notNull())
        .addColumn('customer_email', 'text', (col) => col.notNull())
        .addColumn('customer_is_guest', 'integer', (col) => col.notNull());
      orders = money(orders, [
        'shipping_amount',
        'shipping_amount_excl_tax',
        'shipping_tax_amount',
        'shipping_tax_rate',
        'grand_total',
        'grand_total_excl_tax',
        'tax_amount',
        'cod_amount',
        'package_value',
      ]);
      await orders
        .addColumn('payment', 'text', (col) => col.notNull())
        .addColumn('shipping', 'text', (col) => col.notNull())
        .addColumn('billing_address', 'text', (col) => col.notNull())
        .addColumn('shipping_address', 'text', (col) => col.notNull())
        .addColumn('failure', 'text')
        .addColumn('courier_attempts', 'integer', (col) => col.notNull())
        .addColumn('courier_last_error', 'text')
        .addColumn('courier_next_attempt_at', key)
        .addColumn('allocated_at', key)
        .addColumn('shipped_at', key)
        .addColumn('invoiced_at', key)
        .addColumn('created_at', key, (col) => col.notNull())
        .addColumn('updated_at', key, (col) => col.notNull())
        .addUniqueConstraint('fulfillment_orders_store_number_unique', [
          'store_id',
          'fulfillment_order_number',
        ])
        .execute();
      await db.schema
        .createIndex('fulfillment_orders_courier_due')
        .on('fulfillment_orders')
        .columns(['courier_next_attempt_at', 'id'])
        .execute();

      let items = withId(db.schema.createTable('order_items'))
        .addColumn('order_id', big, (col) => col.notNull().references('fulfillment_orders.id'))
        .addColumn('position', 'integer', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('warehouse_code', key, (col) => col.notNull())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('sku', key, (col) => col.notNull())
        .addColumn('qty', 'integer', (col) => col.notNull());
      items = money(items, [
        'price',
        'price_excl_tax',
        'tax_amount',
        'tax_rate',
        'total_price',
        'total_price_excl_tax',
        'total_tax_amount',
      ]);
      await items
        .addColumn('rejected_by', 'text', (col) => col.notNull())
        .addColumn('invoice_number', 'text')
        .execute();
      await db.schema
        .createIndex('order_items_order')
        .on('order_items')
        .columns(['order_id', 'position'])
        .execute();

      await withId(db.schema.createTable('shipments'))
        .addColumn('order_id', big, (col) => col.notNull().references('fulfillment_orders.id'))
        .addColumn('items', 'text', (col) => col.notNull())
        .addColumn('tracks', 'text', (col) => col.notNull())
        .addColumn('created_at', key, (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('shipments_order')
        .on('shipments')
        .columns(['order_id', 'id'])
        .execute();

      await withId(db.schema.createTable('invoices'))
        .addColumn('order_id', big, (col) => col.notNull().references('fulfillment_orders.id'))
        .addColumn('invoice_number', key, (col) => col.notNull())
        .addColumn('item_ids', 'text', (col) => col.notNull())
        .addColumn('shipping_amount_incl_tax', big, (col) => col.notNull())
        .addColumn('invoice_time', 'text')
        .addColumn('additional_data', 'text')
        .addColumn('doc_binary', 'text')
        .addColumn('created_at', key, (col) => col.notNull())
        .addUniqueConstraint('invoices_order_number_unique', ['order_id', 'invoice_number'])
        .execute();

      await db.schema
        .createTable('queue_entries')
        .addColumn('order_id', big, (col) => col.notNull().references('fulfillment_orders.id'))
        .addColumn('store_id', big, (col) => col.notNull())
        .addColumn('queue', key, (col) => col.notNull())
        .addColumn('warehouse_code', key, (col) => col.notNull())
        .addColumn('updated_at', key, (col) => col.notNull())
        .addPrimaryKeyConstraint('queue_entries_pk', ['order_id', 'queue'])
        .execute();
      // Covers the whole polling query: equality on (store, queue), rows already in id order, the
      // warehouse and `since` filters read from the index itself.
      await db.schema
        .createIndex('queue_entries_poll')
        .on('queue_entries')
        .columns(['store_id', 'queue', 'order_id', 'warehouse_code', 'updated_at'])
        .execute();
      // For tokens scoped to a few warehouses of a store with many.
      await db.schema
        .createIndex('queue_entries_poll_warehouse')
        .on('queue_entries')
        .columns(['store_id', 'queue', 'warehouse_code', 'order_id'])
        .execute();

      await withId(db.schema.createTable('audit_events'))
        .addColumn('order_id', big, (col) => col.notNull().references('fulfillment_orders.id'))
        .addColumn('at', key, (col) => col.notNull())
        .addColumn('actor', 'text', (col) => col.notNull())
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('details', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('audit_events_order')
        .on('audit_events')
        .columns(['order_id', 'id'])
        .execute();
    },

    async down(db: Db): Promise<void> {
      for (const table of [
        'audit_events',
        'queue_entries',
        'invoices',
        'shipments',
        'order_items',
        'fulfillment_orders',
        'sales_order_sequences',
        'tokens',
        'stock',
        'warehouses',
        'stores',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
