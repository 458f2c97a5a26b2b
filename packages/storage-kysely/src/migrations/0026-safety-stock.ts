import type { Kysely, Migration } from 'kysely';

/**
 * Safety stock (docs/behaviour.md, Stock): what routing treats as not there. `warehouses.
 * safety_stock` the warehouse's default, 0 for every warehouse before this migration;
 * `stock.safety_stock` the override for one sku, null for the warehouse's default. A process of
 * the release before writes warehouses and stock without these columns, leaving them as they
 * were: no writer generation is needed. Frozen in time like every migration.
 */
export function safetyStockMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('warehouses')
        .addColumn('safety_stock', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('stock').addColumn('safety_stock', 'integer').execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('stock').dropColumn('safety_stock').execute();
      await db.schema.alterTable('warehouses').dropColumn('safety_stock').execute();
    },
  };
}
