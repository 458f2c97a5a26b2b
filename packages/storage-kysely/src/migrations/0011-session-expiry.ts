import type { Kysely, Migration } from 'kysely';

/**
 * Expired operator sessions are deleted soon after their expiry (`deleteExpiredSessions`, on a
 * timer in `serve` and at each login): this index lets that delete seek the expired rows
 * instead of reading every session. Frozen in time like every migration.
 */
export function sessionExpiryMigration(): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createIndex('operator_sessions_expires')
        .on('operator_sessions')
        .column('expires_at')
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      await db.schema.dropIndex('operator_sessions_expires').execute();
    },
  };
}
