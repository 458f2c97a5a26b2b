import type { Kysely, Migration } from 'kysely';

/**
 * What routing reads of a warehouse beyond its priority (docs/routing.md): where it is
 * (`latitude`, `longitude`, degrees, for the `distance` rule), the countries it ships to
 * (`countries`, JSON text of ISO 3166-1 alpha-2 codes, for `market`) and the fulfillment orders
 * it takes per local day (`daily_capacity`, for the capacity rules). Null: the warehouse has
 * none, as every warehouse before this migration. Double precision on both databases: a real
 * would round a coordinate to metres. A process of the release before writes warehouses
 * without these columns, leaving them as they were: no writer generation is needed. Frozen in
 * time like every migration.
 */
export function warehouseRoutingMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('warehouses').addColumn('latitude', 'double precision').execute();
      await db.schema.alterTable('warehouses').addColumn('longitude', 'double precision').execute();
      await db.schema.alterTable('warehouses').addColumn('countries', 'text').execute();
      await db.schema.alterTable('warehouses').addColumn('daily_capacity', 'integer').execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      for (const column of ['daily_capacity', 'countries', 'longitude', 'latitude'])
        await db.schema.alterTable('warehouses').dropColumn(column).execute();
    },
  };
}
