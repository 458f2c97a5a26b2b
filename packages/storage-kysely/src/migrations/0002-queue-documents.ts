import type { Kysely, Migration } from 'kysely';

/**
 * The read model: each queue entry carries the order as that queue shows it, as JSON text, so a
 * poll reads one indexed page of documents and nothing else. Frozen in time like every
 * migration: it only adds the column. The documents themselves are built by the code that
 * presents orders, which lives on: `fillMissingDocuments` runs after the migrations and writes
 * every document still missing, the existing orders' right after this migration.
 */
export function queueDocumentsMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('queue_entries').addColumn('document', 'text').execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('queue_entries').dropColumn('document').execute();
    },
  };
}
