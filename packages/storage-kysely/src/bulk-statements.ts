import {
  type Compilable,
  CompiledQuery,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
  sql,
} from 'kysely';
import { arrayLiteral } from './array-literal.js';
import type { Database } from './database.js';
import { deferrable } from './deferred-writes.js';

/** Bound values per statement at most: under SQLite's limit (32,766) and Postgres' (65,535). */
const MAX_VALUES = 32_000;
/** Rows per statement at most, however narrow the rows. */
const MAX_ROWS = 1000;

/**
 * A multi-row insert into `table` of rows that carry `columns`, each value a bound parameter;
 * `finish` completes it (conflict handling, returning) the same way whatever the rows.
 */
export interface BulkShape<T extends keyof Database & string, Row, Out> {
  /** Names the statement among the repository's bulk statements. */
  name: string;
  table: T;
  columns: readonly (keyof Row & string)[];
  finish(insert: InsertQueryBuilder<Database, T, InsertResult>): Compilable<Out>;
  /**
   * Whether the caller ignores what the statement answers: inside a transaction it may then run
   * later, together with other such writes (deferred-writes.ts).
   */
  deferrable?: boolean;
}

/** How the repository's database takes many rows in one statement. */
export interface BulkStatementsOptions {
  /**
   * Bind one array per column and unnest them (Postgres): one short statement per shape, the
   * same text whatever the row count, with nothing per row for the database to parse and no
   * limit of bound values. Otherwise a `values (…), (…)` list, split by {@link statementSizes}.
   */
  arrayParameters?: boolean;
  /**
   * Told each array statement's text once, when it is first compiled: one text serves every row
   * count, so the database may keep it prepared (Postgres: by name, see `keepPrepared`).
   */
  onCompiled?: (sql: string) => void;
}

/** Up to this many rows, one statement carries exactly the rows given. */
const EXACT_ROWS = 16;

/**
 * How `count` rows are split into statements: a few rows (an action's items, stock rows, audit
 * events) in one statement of their exact number; more as many of the largest size as fit, then
 * the rest by powers of two. So a few sizes serve every count and each is compiled (and, on
 * SQLite, prepared) once.
 */
export function statementSizes(count: number, largest: number): number[] {
  if (count <= Math.min(EXACT_ROWS, largest)) return count > 0 ? [count] : [];
  const sizes: number[] = [];
  let left = count;
  for (; left >= largest; left -= largest) sizes.push(largest);
  for (let size = 2 ** Math.floor(Math.log2(Math.max(left, 1))); left > 0; size /= 2) {
    if (left >= size) {
      sizes.push(size);
      left -= size;
    }
  }
  return sizes;
}

/**
 * The repository's multi-row statements, compiled once (per row count, for a `values` list) and
 * then only given new values: writing a thousand orders costs a few statements and no query
 * building per row. Lives as long as the repository (one database).
 */
export class BulkStatements {
  readonly #compiled = new Map<string, string>();
  /** Postgres type of each column of a table, read from the catalog once: `bigint`, `text`, … */
  readonly #columnTypes = new Map<string, Map<string, string>>();
  readonly #arrays: boolean;
  readonly #onCompiled: ((sql: string) => void) | undefined;

  constructor(options: BulkStatementsOptions = {}) {
    this.#arrays = options.arrayParameters ?? false;
    this.#onCompiled = options.onCompiled;
  }

  /** Whether the database binds arrays (`BulkStatementsOptions.arrayParameters`): Postgres. */
  get arrayParameters(): boolean {
    return this.#arrays;
  }

  /** Inserts `rows` as `shape` says, in as few statements as the database allows; their rows out. */
  async run<T extends keyof Database & string, Row, Out>(
    db: Kysely<Database>,
    shape: BulkShape<T, Row, Out>,
    rows: readonly Row[],
  ): Promise<Out[]> {
    if (rows.length === 0) return [];
    if (this.#arrays) {
      const columns = shape.columns.map((column) => arrayLiteral(rows.map((row) => row[column])));
      const text = await this.#arraysSql(db, shape);
      const query = CompiledQuery.raw(text, columns);
      return (await db.executeQuery<Out>(shape.deferrable ? deferrable(query) : query)).rows;
    }
    const width = shape.columns.length;
    const largest = Math.min(MAX_ROWS, Math.floor(MAX_VALUES / width));
    const out: Out[] = [];
    let start = 0;
    for (const size of statementSizes(rows.length, largest)) {
      const parameters: unknown[] = new Array(size * width);
      let next = 0;
      for (let row = start; row < start + size; row++) {
        const values = rows[row] as Row;
        for (const column of shape.columns) parameters[next++] = values[column] ?? null;
      }
      start += size;
      const result = await db.executeQuery<Out>(
        CompiledQuery.raw(this.#valuesSql(db, shape, size), parameters),
      );
      for (const row of result.rows) out.push(row);
    }
    return out;
  }

  #valuesSql<T extends keyof Database & string, Row, Out>(
    db: Kysely<Database>,
    shape: BulkShape<T, Row, Out>,
    size: number,
  ): string {
    const key = `${shape.name}:${size}`;
    const known = this.#compiled.get(key);
    if (known !== undefined) return known;
    // Placeholder rows: only the statement's text is kept, the values are bound at each run.
    const row = Object.fromEntries(shape.columns.map((column) => [column, 0]));
    const rows = Array.from({ length: size }, () => row);
    const compiled = shape.finish(db.insertInto(shape.table).values(rows as never)).compile();
    return this.#keep(key, shape, compiled, size * shape.columns.length);
  }

  async #arraysSql<T extends keyof Database & string, Row, Out>(
    db: Kysely<Database>,
    shape: BulkShape<T, Row, Out>,
  ): Promise<string> {
    const known = this.#compiled.get(shape.name);
    if (known !== undefined) return known;
    const types = await this.#typesOf(db, shape.table);
    const arrays = shape.columns.map((column) => {
      const type = types.get(column);
      if (type === undefined) throw new Error(`fulfil: ${shape.table} has no column ${column}`);
      return sql`${sql.val(null)}::${sql.raw(`${type}[]`)}`;
    });
    const insert = db
      .insertInto(shape.table)
      .columns(shape.columns as never)
      .expression(sql`select * from unnest(${sql.join(arrays)})`);
    const text = this.#keep(
      shape.name,
      shape,
      shape.finish(insert).compile(),
      shape.columns.length,
    );
    this.#onCompiled?.(text);
    return text;
  }

  #keep<T extends keyof Database & string, Row, Out>(
    key: string,
    shape: BulkShape<T, Row, Out>,
    compiled: CompiledQuery,
    parameters: number,
  ): string {
    if (compiled.parameters.length !== parameters) {
      throw new Error(`fulfil: the bulk statement ${shape.name} binds other values than its rows`);
    }
    this.#compiled.set(key, compiled.sql);
    return compiled.sql;
  }

  async #typesOf(db: Kysely<Database>, table: string): Promise<Map<string, string>> {
    const known = this.#columnTypes.get(table);
    if (known) return known;
    const { rows } = await db.executeQuery<{ name: string; type: string }>(
      CompiledQuery.raw(
        'select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute' +
          ' where attrelid = $1::regclass and attnum > 0 and not attisdropped',
        [table],
      ),
    );
    const types = new Map(rows.map((row) => [row.name, row.type]));
    this.#columnTypes.set(table, types);
    return types;
  }
}
