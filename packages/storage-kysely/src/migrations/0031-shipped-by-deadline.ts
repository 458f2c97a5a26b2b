import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The shipped orders by how they kept their deadline (docs/deadlines.md): `(store_id,
 * shipped_at > fulfill_by, id)` over the shipped orders, so that the `met` and `missed` filters
 * are each one equality prefix of an index in id order, a page a range of it that stops when
 * full, and their capped count a range too. Neither planner can tell how many shipped orders
 * compare one way or the other from the two columns (a comparison of two columns is a guess of
 * a third), so 0030's partial index of the late ones was passed over for a scan of every
 * shipped order; an equality on an indexed expression is one SQLite plans by. Postgres folds
 * `(a > b) = true` back into `a > b` and reads 0030's partial index for `missed`. The predicate
 * and the expression are the very text the queries say (storage deadline-sql.ts). Frozen in
 * time like every migration.
 */
export function shippedByDeadlineMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await sql`create index fulfillment_orders_shipped_by_deadline
        on fulfillment_orders (store_id, (shipped_at > fulfill_by), id)
        where status in ('pending_invoice', 'partially_invoiced', 'invoiced')`.execute(db);
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('fulfillment_orders_shipped_by_deadline').execute();
    },
  };
}
