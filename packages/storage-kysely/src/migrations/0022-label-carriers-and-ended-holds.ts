import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';
import { guardWrites } from '../writer-generation.js';

/**
 * Two corrections of what a sales order view tells a storefront:
 *
 * - The carrier a courier label names itself by (`ups`, `DHL Express`), as it answered when it
 *   issued the label: the shipment's track names that carrier (docs/couriers.md). Null for labels
 *   issued before, and for a carrier that does not say.
 * - A canceled order is held by nothing since this release; the release before left the holds of
 *   a canceled held order active. This lists the orders that may be so: ended (canceled or
 *   rejected, no line left to move) with a hold not released. Live code releases their holds
 *   after the migrations (ended-holds-upgrade.ts), as an action writes an order: with its change
 *   id and a timeline entry. Holds are JSON text written by one encoder (`"released_at":null` for
 *   an active one), so a text match finds them on both databases.
 *
 * Frozen in time like every migration.
 */
export function labelCarriersAndEndedHoldsMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('courier_labels').addColumn('carrier_code', 'text').execute();
      await db.schema
        .createTable('fulfil_ended_holds_due')
        .addColumn('order_id', flags.bigint, (col) => col.primaryKey())
        .execute();
      await guardWrites(db, flags, { generation: 1, tables: ['fulfil_ended_holds_due'] });
      await sql`insert into fulfil_ended_holds_due (order_id)
        select o.id from fulfillment_orders o
         where o.holds is not null
           and o.holds like '%"released_at":null%'
           and o.status in ('canceled', 'rejected')`.execute(db);
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropTable('fulfil_ended_holds_due').execute();
      await db.schema.alterTable('courier_labels').dropColumn('carrier_code').execute();
    },
  };
}
