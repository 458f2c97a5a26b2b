import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The courier loop finds orders due for another try through `fulfillment_orders_courier_due`;
 * only orders with a try to come have a due time, so the index now holds only them. Every other
 * order (each one taken in, most of them for ever) no longer writes an entry: an intake writes
 * one index fewer. Partial on both databases; the query repeats the condition so that each
 * planner can use it. Frozen in time like every migration.
 */
export function courierDuePartialMigration(): Migration {
  // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
  async function replaceIndex(db: Kysely<any>, partial: boolean): Promise<void> {
    await db.schema.dropIndex('fulfillment_orders_courier_due').execute();
    const index = db.schema
      .createIndex('fulfillment_orders_courier_due')
      .on('fulfillment_orders')
      .columns(['courier_next_attempt_at', 'id']);
    await (partial
      ? index.where(sql.ref('courier_next_attempt_at'), 'is not', null)
      : index
    ).execute();
  }
  return {
    up: (db) => replaceIndex(db, true),
    down: (db) => replaceIndex(db, false),
  };
}
