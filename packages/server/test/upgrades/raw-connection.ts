import { createRequire } from 'node:module';
import { parseDatabaseUrl } from '../../src/database-url.js';

/**
 * A connection of its own to a test database, through the bare driver and nothing of Fulfil's:
 * what a process of an earlier release holds (it declares no writer generation), or an operator's
 * SQL shell. The drivers are dependencies of the adapters, loaded from there.
 */
export interface RawConnection {
  /** Runs one statement, `$1`… its parameters, and returns its rows (none for a write). */
  query<R = Record<string, unknown>>(text: string, parameters?: readonly unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

interface SqliteStatement {
  reader: boolean;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): unknown;
}
type SqliteDriver = new (
  filename: string,
) => { prepare(text: string): SqliteStatement; close(): void };
interface PgClient {
  connect(): Promise<void>;
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
}
type PgDriver = {
  Client: new (config: { connectionString: string; options?: string }) => PgClient;
};

const fromAdapter = (name: string) =>
  createRequire(new URL(`../../../${name}/package.json`, import.meta.url));

export async function rawConnection(url: string): Promise<RawConnection> {
  const target = parseDatabaseUrl(url);
  if (target.kind === 'postgres') {
    const pg = fromAdapter('storage-postgres')('pg') as PgDriver;
    const client = new pg.Client({
      connectionString: target.connectionString,
      ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
    });
    await client.connect();
    return {
      query: async <R>(text: string, parameters: readonly unknown[] = []) =>
        (await client.query(text, [...parameters])).rows as R[],
      close: () => client.end(),
    };
  }
  if (target.kind !== 'sqlite') throw new Error('a raw connection needs a file or Postgres');
  const Sqlite = fromAdapter('storage-sqlite')('better-sqlite3') as SqliteDriver;
  const db = new Sqlite(target.path);
  // Kept once prepared, as a process keeps its statements: SQLite prepares one again by itself
  // when the schema has changed under it.
  const statements = new Map<string, SqliteStatement>();
  return {
    async query<R>(text: string, parameters: readonly unknown[] = []) {
      // better-sqlite3 binds `?` in order: each `$n` becomes one, bound to parameter n.
      const order = [...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]) - 1);
      let statement = statements.get(text);
      if (!statement) {
        statement = db.prepare(text.replace(/\$\d+/g, '?'));
        statements.set(text, statement);
      }
      const bound = order.map((index) => parameters[index]);
      if (statement.reader) return statement.all(...bound) as R[];
      statement.run(...bound);
      return [];
    },
    async close() {
      db.close();
    },
  };
}
