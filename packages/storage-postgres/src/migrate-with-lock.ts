import {
  type Database,
  type MigrateOptions,
  migrateToLatest,
  type SchemaFlags,
} from '@fulfil/storage-kysely';
import { type Kysely, sql } from 'kysely';

/**
 * Migrates under a session-level advisory lock keyed by the schema, so that processes starting
 * at once take turns: the first creates the schema and applies the migrations, the others find
 * them applied. The lock is held on one reserved connection while the migrator uses others.
 * Returns the names of the migrations applied now. `profile` is passed on (`MigrateOptions`).
 */
export async function migrateWithLock(
  db: Kysely<Database>,
  flags: SchemaFlags,
  schema: string | undefined,
  profile?: MigrateOptions['profile'],
): Promise<string[]> {
  const key = `fulfil:migrate:${schema ?? ''}`;
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext(${key}))`.execute(connection);
    try {
      if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(connection);
      return await migrateToLatest(db, flags, {
        ...(schema ? { migrationTableSchema: schema } : {}),
        ...(profile ? { profile } : {}),
      });
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(connection);
    }
  });
}
