import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';
import { guardWrites } from '../writer-generation.js';

/**
 * Stock is committed when a line is routed, no longer when a partner accepts it: a live line
 * waiting for its partner (`pending_accept`, held or not, in an order not abandoned) now holds
 * its qty reserved at its warehouse. This brings the reservations of the lines already waiting
 * in, one set-based statement, so that reserved = the qty of the live unshipped lines after the
 * upgrade. A process of the release before would reserve those lines a second time when their
 * partner accepts them, so writers of generation 3 are required from now on
 * (writer-generation.ts). Frozen in time like every migration.
 */
export function reservedWhenRoutedMigration(flags: SchemaFlags): Migration {
  // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
  const shift = (db: Kysely<any>, sign: '+' | '-') =>
    sql`insert into stock (store_id, warehouse_code, sku, on_hand, reserved)
      select o.store_id, i.warehouse_code, i.sku, 0, sum(i.qty)
      from order_items i join fulfillment_orders o on o.id = i.order_id
      where i.status = 'pending_accept'
        and (o.failure is null or o.failure not like '%"abandoned":true%')
      group by o.store_id, i.warehouse_code, i.sku
      on conflict (store_id, warehouse_code, sku)
      do update set reserved = stock.reserved ${sql.raw(sign)} excluded.reserved`.execute(db);
  return {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async up(db: Kysely<any>): Promise<void> {
      await guardWrites(db, flags, { generation: 3, tables: [] });
      await shift(db, '+');
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      // Every row met exists since `up`: the conflict branch takes the reservations back out.
      await shift(db, '-');
    },
  };
}
