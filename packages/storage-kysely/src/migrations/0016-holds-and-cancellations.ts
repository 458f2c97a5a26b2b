import type { Kysely, Migration } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';
import { guardWrites } from '../writer-generation.js';

/**
 * The holds and cancellation requests of each fulfillment order (docs/channel-guide.md), as JSON
 * on its own row: they decide which queues list it, so they are read and written with it, under
 * the lock every action on it takes, and no concurrent action can write the order without them.
 * Null for none. A process of the release before would act on a held order and write it back
 * into its queues, so writers of generation 2 are required from now on (writer-generation.ts):
 * every guarded table, the orders' among them, refuses the older process's writes. Frozen in time
 * like every migration.
 */
export function holdsAndCancellationsMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('fulfillment_orders').addColumn('holds', 'text').execute();
      await db.schema
        .alterTable('fulfillment_orders')
        .addColumn('cancellation_requests', 'text')
        .execute();
      await guardWrites(db, flags, { generation: 2, tables: [] });
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('fulfillment_orders')
        .dropColumn('cancellation_requests')
        .execute();
      await db.schema.alterTable('fulfillment_orders').dropColumn('holds').execute();
    },
  };
}
