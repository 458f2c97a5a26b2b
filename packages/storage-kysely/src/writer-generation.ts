import { type Kysely, sql } from 'kysely';
import { UPGRADE_GUIDE } from './newer-release.js';
import type { SchemaFlags } from './schema-flags.js';

/**
 * The writer generation: how the database refuses the writes of a process older than its schema.
 *
 * A process keeps running while a newer release migrates its database (a rolling upgrade). Its
 * code writes as the schema was when it was built: it knows nothing of what later migrations
 * made every writer keep up (the change id of each queue entry and the change clock that
 * pollers and caches rely on, docs/polling.md; later, the change tracking of new tables). Such a
 * write must fail loudly, never land silently. So every connection of this code declares the
 * generation it writes as ({@link WRITER_GENERATION}), the database records the generation its
 * schema requires, and a trigger on each guarded table refuses a write whose connection declares
 * less, or nothing at all, as every process of a release before the guard does.
 *
 * For developers: when a migration adds something every writer must keep up, and older code
 * would bypass (a new table's change tracking, an invariant across tables), raise
 * {@link WRITER_GENERATION} by one and have that migration call {@link guardWrites} with the new
 * number and the new tables it must guard. Say in the release notes that processes of the
 * earlier release must be stopped before the migration (docs/operations.md, "Upgrades").
 *
 * How a connection declares it, by `SchemaFlags.writerDeclaration`:
 * - `function` (SQLite): an application-defined SQL function the adapter registers on its
 *   connection, returning the generation. It is named by the message an older process must read:
 *   such a process has no function of that name, and SQLite says
 *   `no such function: this database was migrated by a newer Fulfil; stop this process`.
 * - `setting` (Postgres): each transaction sets `fulfil.writer_generation` as it begins, in the
 *   BEGIN's own round trip. A session-wide setting would not survive a pooler that hands one
 *   client's transactions to different server connections; a transaction-local one does.
 */

/** The generation this code writes as. Raise it only together with a migration that requires it. */
export const WRITER_GENERATION = 3;

/** What an older process reads when its write is refused. */
export const OLDER_WRITER_MESSAGE =
  'this database was migrated by a newer Fulfil; stop this process';

/** SQLite: the function each connection of this code registers (see above). */
export const WRITER_GENERATION_FUNCTION = OLDER_WRITER_MESSAGE;

/** Postgres: the setting each transaction of this code sets. */
export const WRITER_GENERATION_SETTING = 'fulfil.writer_generation';

/** Postgres: what a transaction runs as it begins, after BEGIN, to declare the generation. */
export const DECLARE_WRITER_GENERATION_SQL = `set local ${WRITER_GENERATION_SETTING} = ${WRITER_GENERATION}`;

/** The one-row table that holds the generation the schema requires (`required`). */
export const REQUIRED_GENERATION_TABLE = 'fulfil_writer_generation';

/** Postgres: the SQLSTATE of a refused write (class `FU`, unused by Postgres itself). */
export const OLDER_WRITER_SQLSTATE = 'FU001';

/** Postgres: the trigger function every guarded table calls. */
const REFUSE_FUNCTION = 'fulfil_refuse_older_writers';

/** Every trigger of the guard is named so: `fulfil_writers_<table>_<event>`. */
const TRIGGER_PREFIX = 'fulfil_writers_';
const triggerName = (table: string, event: string) => `${TRIGGER_PREFIX}${table}_${event}`;

const SQLITE_EVENTS = ['insert', 'update', 'delete'] as const;

/**
 * For migrations: requires writers of at least `generation` from now on (never lowering what the
 * schema already requires), and guards `tables` (each name a plain identifier) besides those
 * guarded already: a write to one of them from a connection that declares less is refused with
 * {@link OLDER_WRITER_MESSAGE}. The first call creates the guard's own table, which records the
 * generation required.
 *
 * The required generation is written into the guard itself (each trigger on SQLite, the one
 * trigger function on Postgres) rather than read from that table on every write: a read per row
 * would cost more than the rest of the guard. Raising it rewrites them.
 *
 * Frozen in time like the migrations that call it: what it creates must stay what an earlier
 * migration created with it. A different guard is a new function beside this one.
 */
export async function guardWrites(
  // biome-ignore lint/suspicious/noExplicitAny: called from migrations, which must not follow the latest types
  db: Kysely<any>,
  flags: SchemaFlags,
  { generation, tables }: { generation: number; tables: readonly string[] },
): Promise<void> {
  if (!Number.isSafeInteger(generation) || generation < 1) {
    throw new Error(`fulfil: a writer generation is a positive integer, not ${generation}`);
  }
  const required = await raiseRequiredGeneration(db, generation);
  if (flags.writerDeclaration === 'function') {
    await guardSqliteTables(db, required, tables);
  } else {
    await guardPostgresTables(db, required, tables);
  }
}

/** Records that writers need `generation` at least; returns the generation now required. */
// biome-ignore lint/suspicious/noExplicitAny: see guardWrites
async function raiseRequiredGeneration(db: Kysely<any>, generation: number): Promise<number> {
  const table = sql.table(REQUIRED_GENERATION_TABLE);
  await sql`create table if not exists ${table} (required integer not null)`.execute(db);
  const { rows } = await sql<{ required: number }>`select required from ${table}`.execute(db);
  const current = rows[0] ? Number(rows[0].required) : undefined;
  if (current === undefined) {
    await sql`insert into ${table} (required) values (${sql.lit(generation)})`.execute(db);
  } else if (current < generation) {
    await sql`update ${table} set required = ${sql.lit(generation)}`.execute(db);
  }
  return Math.max(current ?? generation, generation);
}

/**
 * SQLite runs triggers per row only: one per event and table. The ones already there are
 * written again, so that every guarded table requires the generation now required.
 */
async function guardSqliteTables(
  // biome-ignore lint/suspicious/noExplicitAny: see guardWrites
  db: Kysely<any>,
  required: number,
  tables: readonly string[],
): Promise<void> {
  const { rows } = await sql<{ table: string }>`select distinct tbl_name as "table"
    from sqlite_master where type = 'trigger'
      and substr(name, 1, ${sql.lit(TRIGGER_PREFIX.length)}) = ${sql.lit(TRIGGER_PREFIX)}`.execute(
    db,
  );
  const guarded = new Set([...rows.map((row) => row.table), ...tables]);
  for (const table of guarded) {
    for (const event of SQLITE_EVENTS) {
      const trigger = sql.id(triggerName(table, event));
      await sql`drop trigger if exists ${trigger}`.execute(db);
      await sql`create trigger ${trigger} before ${sql.raw(event)} on ${sql.table(table)}
        when ${sql.id(WRITER_GENERATION_FUNCTION)}() < ${sql.lit(required)}
        begin select raise(abort, ${sql.lit(OLDER_WRITER_MESSAGE)}); end`.execute(db);
    }
  }
}

/**
 * Postgres runs one trigger per statement, whatever the rows it writes (and truncate too); every
 * guarded table's trigger calls the one function, which holds the generation required.
 */
async function guardPostgresTables(
  // biome-ignore lint/suspicious/noExplicitAny: see guardWrites
  db: Kysely<any>,
  required: number,
  tables: readonly string[],
): Promise<void> {
  await sql`create or replace function ${sql.id(REFUSE_FUNCTION)}() returns trigger
    language plpgsql as $$
    declare
      declared integer := coalesce(
        nullif(current_setting(${sql.lit(WRITER_GENERATION_SETTING)}, true), '')::integer, 0);
    begin
      if declared < ${sql.lit(required)} then
        raise exception using
          errcode = ${sql.lit(OLDER_WRITER_SQLSTATE)},
          message = ${sql.lit(OLDER_WRITER_MESSAGE)},
          detail = format('writing %s needs writer generation %s; this connection declares %s',
            tg_table_name, ${sql.lit(required)}, declared),
          hint = ${sql.lit(`Stop the processes of the earlier release: see ${UPGRADE_GUIDE}.`)};
      end if;
      return null;
    end
    $$`.execute(db);
  for (const table of tables) {
    const trigger = sql.id(triggerName(table, 'writes'));
    await sql`drop trigger if exists ${trigger} on ${sql.table(table)}`.execute(db);
    await sql`create trigger ${trigger}
      before insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function ${sql.id(REFUSE_FUNCTION)}()`.execute(db);
  }
}

/**
 * For a migration's `down`: takes the guard off `tables`; with `dropGuard`, off the schema too
 * (its table and, on Postgres, its trigger function), for the migration that first set it up.
 */
export async function unguardWrites(
  // biome-ignore lint/suspicious/noExplicitAny: see guardWrites
  db: Kysely<any>,
  flags: SchemaFlags,
  { tables, dropGuard = false }: { tables: readonly string[]; dropGuard?: boolean },
): Promise<void> {
  for (const table of tables) {
    if (flags.writerDeclaration === 'function') {
      for (const event of SQLITE_EVENTS) {
        await sql`drop trigger if exists ${sql.id(triggerName(table, event))}`.execute(db);
      }
    } else {
      await sql`drop trigger if exists ${sql.id(triggerName(table, 'writes'))}
        on ${sql.table(table)}`.execute(db);
    }
  }
  if (!dropGuard) return;
  if (flags.writerDeclaration === 'setting') {
    await sql`drop function if exists ${sql.id(REFUSE_FUNCTION)}()`.execute(db);
  }
  await sql`drop table if exists ${sql.table(REQUIRED_GENERATION_TABLE)}`.execute(db);
}

/**
 * Whether `error` (or an error it wraps) is a write the database refused because this process
 * is older than the schema: the operator must stop it.
 */
export function isOlderWriterRefusal(error: unknown): boolean {
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return false;
    const { message, cause } = current as { message?: unknown; cause?: unknown };
    if (typeof message === 'string' && message.includes(OLDER_WRITER_MESSAGE)) return true;
    current = cause;
  }
  return false;
}
