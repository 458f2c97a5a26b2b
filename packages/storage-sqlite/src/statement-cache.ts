import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct statements stay prepared; the engine issues a few dozen shapes. */
const DEFAULT_CAPACITY = 256;

/**
 * The database as kysely sees it, with prepared statements kept by their SQL. kysely's SQLite
 * driver prepares every statement on every call; the engine runs the same few dozen statements
 * over and over, so preparing each once is a large part of the cost of an action. The cache is
 * least-recently-used and bounded. Sharing one statement is safe: kysely runs each to
 * completion synchronously on the single connection, and SQLite re-prepares a statement by
 * itself when the schema changes under it.
 */
export function withStatementCache(
  database: SqliteDatabase,
  capacity = DEFAULT_CAPACITY,
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (sql: string) => {
      const cached = statements.get(sql);
      if (cached) {
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > capacity) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}
