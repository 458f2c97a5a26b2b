import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The list of open holds (docs/admin-api.md) reads the orders that ever had a hold through this
 * index alone: a held order is in no queue, and only the few orders ever held are in it. Partial
 * on both databases; the query repeats its condition so that each planner can use it. Frozen in
 * time like every migration.
 */
export function heldOrdersMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createIndex('fulfillment_orders_held')
        .on('fulfillment_orders')
        .columns(['store_id', 'id'])
        .where(sql.ref('holds'), 'is not', null)
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('fulfillment_orders_held').execute();
    },
  };
}
