import { type Kysely, sql } from 'kysely';

/**
 * A database that a newer Fulfil has migrated, met by an older one (kysely's migrator calls it
 * "corrupted": it finds applied migrations it does not have). The older code must not write to
 * it, and the operator must learn what happened and how to go back.
 */

/** Where the operator's guide says how to upgrade and how to go back. */
export const UPGRADE_GUIDE = 'docs/operations.md, "Upgrades"';

/**
 * The migrations recorded in the bookkeeping table `table` (in `schema`, when given) that are
 * not in `known`, in the order they were applied; empty when the table cannot be read.
 */
export async function unknownMigrations(
  db: Kysely<unknown>,
  table: string,
  schema: string | undefined,
  known: readonly string[],
): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(
      schema ? `${schema}.${table}` : table,
    )} order by timestamp, name`.execute(db);
    return rows.map((row) => row.name).filter((name) => !known.includes(name));
  } catch {
    return [];
  }
}

/** The error that says a newer Fulfil migrated the database, naming what it applied. */
export function newerReleaseError(unknown: readonly string[], cause: unknown): Error {
  return new Error(
    `fulfil: a newer Fulfil migrated this database (migrations this version does not know: ` +
      `${unknown.join(', ')}), so this version will not open it. To go back to this version, ` +
      `restore the backup taken before the upgrade; otherwise run the newer release. ` +
      `See ${UPGRADE_GUIDE}.`,
    { cause },
  );
}
