import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/** True when `name` (in `schema`, or the default schema) can be read. */
async function tableExists(
  db: Kysely<unknown>,
  schema: string | undefined,
  name: string,
): Promise<boolean> {
  const table = sql.table(schema ? `${schema}.${name}` : name);
  try {
    await sql`select 1 from ${table} where 1 = 0`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/**
 * What kysely's migrator asks of an introspector (does the schema exist, do its bookkeeping
 * tables), answered by probing for those tables alone. The dialects' own introspectors list every
 * table of every schema: slow where there are many, and on Postgres failing with
 * `schema "…" does not exist` when another schema is dropped while they read.
 */
export class BookkeepingIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;
  readonly #inner: DatabaseIntrospector;
  readonly #schema: string | undefined;
  readonly #tables: readonly string[];

  constructor(db: Kysely<unknown>, schema: string | undefined, tables: readonly string[]) {
    this.#db = db;
    this.#inner = db.introspection;
    this.#schema = schema;
    this.#tables = tables;
  }

  /** The schema list is one catalog read, safe beside a concurrent drop. */
  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#inner.getSchemas();
  }

  async getTables(): Promise<TableMetadata[]> {
    const found: TableMetadata[] = [];
    for (const name of this.#tables) {
      if (await tableExists(this.#db, this.#schema, name)) {
        found.push({
          name,
          isView: false,
          columns: [],
          ...(this.#schema ? { schema: this.#schema } : {}),
        });
      }
    }
    return found;
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/**
 * `db` as the migrator sees it: the same database, with the bookkeeping introspector. Methods
 * run on `db` itself (kysely keeps its state in private fields).
 */
export function withBookkeepingIntrospector<DB>(
  db: Kysely<DB>,
  introspector: DatabaseIntrospector,
): Kysely<DB> {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspector;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
