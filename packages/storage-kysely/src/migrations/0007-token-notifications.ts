import { type Kysely, type Migration, sql } from 'kysely';
import type { SchemaFlags } from '../schema-flags.js';

/** The channel every change of a token is announced on, where `tokenNotifications` is on. */
export const TOKENS_CHANNEL = 'fulfil_tokens';

/**
 * Every process keeps the tokens it has read (token-cache.ts) and must hear when one changes,
 * whoever changed it: another server process, the CLI, or SQL by hand. On a database that can
 * notify (Postgres), a trigger announces each statement that changes a token's identity, scope
 * or validity on {@link TOKENS_CHANNEL}; the notification is sent when the writer commits. A
 * token's last use is written once a minute and changes nothing a request is checked against:
 * it is not announced. Elsewhere (SQLite) this migration does nothing: another process's
 * commit moves the file's data_version instead.
 */
export function tokenNotificationsMigration(flags: SchemaFlags): Migration {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: a migration must not follow the latest types
    async up(db: Kysely<any>): Promise<void> {
      if (!flags.tokenNotifications) return;
      await sql`create function fulfil_announce_token_change() returns trigger
        language plpgsql as $$
        begin
          perform pg_notify(${sql.lit(TOKENS_CHANNEL)}, '');
          return null;
        end
        $$`.execute(db);
      await sql`create trigger tokens_announce_change
        after insert or delete or truncate
          or update of store_id, name, hash, resources, warehouses, expires_at, revoked_at
        on tokens for each statement execute function fulfil_announce_token_change()`.execute(db);
    },
    // biome-ignore lint/suspicious/noExplicitAny: see above
    async down(db: Kysely<any>): Promise<void> {
      if (!flags.tokenNotifications) return;
      await sql`drop trigger tokens_announce_change on tokens`.execute(db);
      await sql`drop function fulfil_announce_token_change()`.execute(db);
    },
  };
}
