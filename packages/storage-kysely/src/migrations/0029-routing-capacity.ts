import type { Kysely, Migration } from 'kysely';

/**
 * Daily capacity counted (docs/routing.md): `warehouse_days` holds, per warehouse and local
 * day, the fulfillment orders routed there (`routed`), raised by one conditional statement in
 * the transaction that routes (never past `daily_capacity` when the `capacity` rule blocks);
 * `warehouses.timezone` (IANA, null: UTC) says where a warehouse's day begins. Rows of past days
 * are only read for their day; nothing needs them once it is over. A process of the release
 * before writes warehouses without the column, leaving it as it was, and never counts: no
 * writer generation is needed. Frozen in time like every migration.
 */
export function routingCapacityMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('warehouses').addColumn('timezone', 'text').execute();
      await db.schema
        .createTable('warehouse_days')
        .addColumn('store_id', 'integer', (col) => col.notNull())
        .addColumn('warehouse_code', 'text', (col) => col.notNull())
        .addColumn('day', 'text', (col) => col.notNull())
        .addColumn('routed', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('warehouse_days_pk', ['store_id', 'warehouse_code', 'day'])
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('warehouse_days').execute();
      await db.schema.alterTable('warehouses').dropColumn('timezone').execute();
    },
  };
}
