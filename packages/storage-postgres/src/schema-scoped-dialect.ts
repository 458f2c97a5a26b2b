import {
  type ColumnMetadata,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  type Kysely,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from 'kysely';

/**
 * Postgres whose introspection sees the connection's own schema only (`current_schema()`: the
 * repository's `schema`, else the first of the search_path).
 *
 * kysely's Postgres introspector reads the tables of every schema of the database, passing each
 * schema's name to has_schema_privilege; when another installation drops its schema meanwhile,
 * that fails with "schema … does not exist". Its migrator introspects on every start to find
 * its bookkeeping tables, so a start beside someone else's cleanup could fail.
 */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  // biome-ignore lint/suspicious/noExplicitAny: the signature kysely's Dialect declares
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SchemaScopedIntrospector(db);
  }
}

interface ColumnRow {
  table: string;
  schema: string;
  table_type: string;
  column: string;
  type: string;
  type_schema: string;
  nullable: string;
  column_default: string | null;
  identity: string;
  comment: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: introspection reads the catalogs, outside any schema type
type AnyDb = Kysely<any>;

class SchemaScopedIntrospector implements DatabaseIntrospector {
  readonly #db: AnyDb;

  constructor(db: AnyDb) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select nspname as name from pg_catalog.pg_namespace`.execute(this.#db);
    return rows;
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    // information_schema checks privileges by object id, never by a name that may be gone.
    const { rows } = await sql<ColumnRow>`
      select c.table_name as "table", c.table_schema as "schema", t.table_type,
             c.column_name as "column", c.udt_name as "type", c.udt_schema as type_schema,
             c.is_nullable as nullable, c.column_default, c.is_identity as identity,
             col_description(format('%I.%I', c.table_schema, c.table_name)::regclass,
                             c.ordinal_position::int) as comment
      from information_schema.columns c
      join information_schema.tables t
        on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema()
      order by c.table_name, c.ordinal_position`.execute(this.#db);
    const tables = new Map<string, { table: TableMetadata; columns: ColumnMetadata[] }>();
    for (const row of rows) {
      if (
        !options.withInternalKyselyTables &&
        (row.table === DEFAULT_MIGRATION_TABLE || row.table === DEFAULT_MIGRATION_LOCK_TABLE)
      ) {
        continue;
      }
      let entry = tables.get(row.table);
      if (!entry) {
        const columns: ColumnMetadata[] = [];
        entry = {
          table: {
            name: row.table,
            schema: row.schema,
            isView: row.table_type === 'VIEW',
            columns,
          },
          columns,
        };
        tables.set(row.table, entry);
      }
      entry.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: row.nullable === 'YES',
        hasDefaultValue: row.column_default !== null,
        isAutoIncrementing:
          row.identity === 'YES' || (row.column_default?.startsWith('nextval(') ?? false),
        ...(row.comment === null ? {} : { comment: row.comment }),
      });
    }
    return [...tables.values()].map((entry) => entry.table);
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
