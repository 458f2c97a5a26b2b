import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';

/**
 * The shipped orders by whether they kept their deadline (docs/deadlines.md), so that the `met`
 * and `missed` filters each read a range of an index in id order, a page stopping when full and
 * its capped count a range too. No planner can tell how many shipped orders compare one way or
 * the other from the two columns (a comparison of two columns is a guess of a third), so 0030's
 * partial index of the late ones was passed over for a walk of every shipped order. The queries
 * say `(shipped_at > fulfill_by) = true` (or `= false`, with a deadline); per the adapter's
 * `comparisonIndexes`:
 * - `expression` (SQLite): one index keyed by that comparison, over the shipped orders; the
 *   equality is a prefix of it;
 * - `partial` (Postgres): it folds the equality back into `shipped_at > fulfill_by` (or `<=`),
 *   which 0030's `fulfillment_orders_missed` serves for `missed`; `fulfillment_orders_met` is its
 *   twin for `met`. The index answers the ids without the table.
 * The predicates and the expression are the very text the queries say (storage deadline-sql.ts).
 * Frozen in time like every migration.
 */
export function shippedByDeadlineMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      if (flags.comparisonIndexes === 'expression') {
        await sql`create index fulfillment_orders_shipped_by_deadline
          on fulfillment_orders (store_id, (shipped_at > fulfill_by), id)
          where status in ('pending_invoice', 'partially_invoiced', 'invoiced')`.execute(db);
      } else {
        await sql`create index fulfillment_orders_met on fulfillment_orders (store_id, id)
          where status in ('pending_invoice', 'partially_invoiced', 'invoiced')
            and shipped_at <= fulfill_by and fulfill_by <> '9999-12-31 23:59:59'`.execute(db);
      }
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema
        .dropIndex(
          flags.comparisonIndexes === 'expression'
            ? 'fulfillment_orders_shipped_by_deadline'
            : 'fulfillment_orders_met',
        )
        .execute();
    },
  };
}
