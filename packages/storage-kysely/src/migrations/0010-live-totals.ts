import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';
import { guardWrites } from '../writer-generation.js';

/**
 * Totals follow the live lines since this release (docs/behaviour.md); the release before left
 * the totals of an order as they were when a line was rejected, canceled or split off. This
 * lists the orders that may be so: some line no longer live, and no invoice yet (an invoiced
 * order is fiscal history and never changes). Their totals are recomputed after the migrations
 * by live code (live-totals-upgrade.ts), as every action writes an order: with its queue
 * documents under a new change id, and an audit event. Frozen in time like every migration.
 */
export function liveTotalsMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('fulfil_live_totals_due')
        .addColumn('order_id', flags.bigint, (col) => col.primaryKey())
        .execute();
      await guardWrites(db, flags, { generation: 1, tables: ['fulfil_live_totals_due'] });
      await sql`insert into fulfil_live_totals_due (order_id)
        select o.id from fulfillment_orders o
         where not exists (select 1 from invoices i where i.order_id = o.id)
           and exists (select 1 from order_items t
                        where t.order_id = o.id and t.status in ('rejected', 'canceled'))`.execute(
        db,
      );
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('fulfil_live_totals_due').execute();
    },
  };
}
