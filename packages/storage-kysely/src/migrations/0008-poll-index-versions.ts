import type { Kysely, Migration } from 'kysely';

const POLL_COLUMNS = ['store_id', 'queue', 'order_id', 'warehouse_code', 'updated_at'];

/**
 * The poll index carries each entry's change id as well, so that a page's versions (its order
 * ids and change ids, poll-query.ts) come from the index alone. It also settles which plan a
 * poll gets where the planner cannot see the page's `limit` and `offset` (Postgres, one plan for
 * all runs of a prepared poll): rows in id order with every column the versions need, no other
 * index can be cheaper, whatever share of the queue the planner guesses is read. Frozen in time
 * like every migration.
 */
export function pollIndexVersionsMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('queue_entries_poll').execute();
      await db.schema
        .createIndex('queue_entries_poll')
        .on('queue_entries')
        .columns([...POLL_COLUMNS, 'change_id'])
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('queue_entries_poll').execute();
      await db.schema
        .createIndex('queue_entries_poll')
        .on('queue_entries')
        .columns(POLL_COLUMNS)
        .execute();
    },
  };
}
