import { type Kysely, type Migration, sql } from 'kysely';

/**
 * 0030's index of `shipped_at` held every order, the many not shipped yet under null: each
 * intake wrote an entry that no read takes (the metrics' late shipments and the dashboard's
 * shipped counts read `shipped_at >= <since>`, a range of shipped orders). Now it holds the
 * shipped orders only, on both databases: a range on the column implies it is not null, so
 * SQLite and Postgres read the same range of the partial index, and an intake writes one b-tree
 * fewer. Frozen in time like every migration.
 */
export function shippedAtPartialMigration(): Migration {
  // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
  async function rebuild(db: Kysely<any>, shippedOnly: boolean): Promise<void> {
    await db.schema.dropIndex('fulfillment_orders_shipped_at').execute();
    const index = db.schema
      .createIndex('fulfillment_orders_shipped_at')
      .on('fulfillment_orders')
      .column('shipped_at');
    await (shippedOnly ? index.where(sql.ref('shipped_at'), 'is not', null) : index).execute();
  }
  return {
    up: (db) => rebuild(db, true),
    down: (db) => rebuild(db, false),
  };
}
