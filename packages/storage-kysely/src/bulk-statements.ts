import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** Bound values per statement at most: under SQLite's limit (32,766) and Postgres' (65,535). */
const MAX_VALUES = 32_000;
/** Rows per statement at most, however narrow the rows. */
const MAX_ROWS = 1000;

/**
 * A multi-row statement whose SQL depends only on how many rows it carries: an insert of many
 * rows, an upsert. `build` writes it with kysely for given rows; its values must all be bound
 * parameters, in row order, each row's in the order of `columns`.
 */
export interface BulkShape<Row, Out> {
  /** Names the statement among the repository's bulk statements. */
  name: string;
  columns: readonly (keyof Row & string)[];
  build(db: Kysely<Database>, rows: Row[]): Compilable<Out>;
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
 * The repository's multi-row statements, each compiled once per row count and then only given
 * new values: writing a thousand orders costs a few statements and no query building per row.
 * Lives as long as the repository (one dialect).
 */
export class BulkStatements {
  readonly #compiled = new Map<string, string>();

  /** Runs `shape` over `rows`, as few statements as the bound-value limits allow; their rows out. */
  async run<Row, Out>(
    db: Kysely<Database>,
    shape: BulkShape<Row, Out>,
    rows: readonly Row[],
  ): Promise<Out[]> {
    const width = shape.columns.length;
    const largest = Math.min(MAX_ROWS, Math.floor(MAX_VALUES / width));
    const out: Out[] = [];
    let start = 0;
    for (const size of statementSizes(rows.length, largest)) {
      const parameters: unknown[] = new Array(size * width);
      let next = 0;
      for (let row = start; row < start + size; row++) {
        const values = rows[row] as Row;
        for (const column of shape.columns) parameters[next++] = values[column];
      }
      start += size;
      const result = await db.executeQuery<Out>(
        CompiledQuery.raw(this.#sql(db, shape, size), parameters),
      );
      for (const row of result.rows) out.push(row);
    }
    return out;
  }

  #sql<Row, Out>(db: Kysely<Database>, shape: BulkShape<Row, Out>, size: number): string {
    const key = `${shape.name}:${size}`;
    const known = this.#compiled.get(key);
    if (known !== undefined) return known;
    // Placeholder rows: only the statement's text is kept, the values are bound at each run.
    const row = Object.fromEntries(shape.columns.map((column) => [column, 0])) as Row;
    const compiled = shape
      .build(
        db,
        Array.from({ length: size }, () => row),
      )
      .compile();
    if (compiled.parameters.length !== size * shape.columns.length) {
      throw new Error(`fulfil: the bulk statement ${shape.name} binds other values than its rows`);
    }
    this.#compiled.set(key, compiled.sql);
    return compiled.sql;
  }
}
