import { type Expression, type Kysely, sql } from 'kysely';

/**
 * A Postgres cursor (`DECLARE … CURSOR` / `FETCH`) over one query, inside the transaction that
 * declares it and closed when that ends. Its rows come a fetch at a time, so memory stays bounded
 * whatever the size of the result, and the whole result is one plan run once instead of a query
 * per page. The next fetch is asked for as soon as one arrives: the server builds it while the
 * caller works on the rows it has.
 */
export class PostgresCursor<Row> {
  // biome-ignore lint/suspicious/noExplicitAny: a cursor reads any query.
  readonly #db: Kysely<any>;
  readonly #name: string;
  readonly #size: number;
  #next: Promise<Row[]> | undefined;

  // biome-ignore lint/suspicious/noExplicitAny: see above
  private constructor(db: Kysely<any>, name: string, size: number) {
    this.#db = db;
    this.#name = name;
    this.#size = size;
  }

  /** Declares cursor `name` over `query` in transaction `db`; fetches `size` rows at a time. */
  static async declare<Row>(
    // biome-ignore lint/suspicious/noExplicitAny: see above
    db: Kysely<any>,
    name: string,
    query: Expression<unknown>,
    size: number,
  ): Promise<PostgresCursor<Row>> {
    await sql`declare ${sql.id(name)} no scroll cursor for ${query}`.execute(db);
    const cursor = new PostgresCursor<Row>(db, name, size);
    cursor.#prefetch();
    return cursor;
  }

  /** The next rows in the query's order; none once the result is through. */
  async fetch(): Promise<Row[]> {
    if (!this.#next) return [];
    const rows = await this.#next;
    this.#next = undefined;
    if (rows.length === this.#size) this.#prefetch();
    return rows;
  }

  #prefetch(): void {
    const next = sql<Row>`fetch forward ${sql.lit(this.#size)} from ${sql.id(this.#name)}`
      .execute(this.#db)
      .then((result) => result.rows);
    // Awaited by the next `fetch`, which throws what it threw; until then it is not unhandled.
    next.catch(() => {});
    this.#next = next;
  }
}
