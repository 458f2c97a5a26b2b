import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * A pg pool as kysely's Postgres dialect sees it, that runs the statement texts it was asked to
 * keep as named prepared statements: pg parses such a text once per connection and from then on
 * only binds new values, where an unnamed statement is parsed and planned on every run. Only a
 * few fixed texts are kept (they stay prepared as long as their connection lives); every other
 * statement runs as before.
 */
export class NamedStatementPool implements PostgresPool {
  readonly #pool: pg.Pool;
  readonly #names = new Map<string, string>();
  /** One wrapper per pg client, so that kysely keeps one connection object per client. */
  readonly #clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Runs `sql` by name from now on. */
  keep(sql: string): void {
    if (!this.#names.has(sql)) this.#names.set(sql, `fulfil_${this.#names.size + 1}`);
  }

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.#pool.connect();
    let wrapped = this.#clients.get(client);
    if (!wrapped) {
      wrapped = this.#wrap(client);
      this.#clients.set(client, wrapped);
    }
    return wrapped;
  }

  end(): Promise<void> {
    return this.#pool.end();
  }

  #wrap(client: pg.PoolClient): PostgresPoolClient {
    const names = this.#names;
    function query<R>(
      sql: string,
      parameters: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(
      sqlOrCursor: string | PostgresCursor<R>,
      parameters?: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      if (typeof sqlOrCursor !== 'string') {
        return client.query(sqlOrCursor as never) as unknown as PostgresCursor<R>;
      }
      const values = parameters as unknown[];
      const name = names.get(sqlOrCursor);
      return (name === undefined
        ? client.query(sqlOrCursor, values)
        : client.query({ name, text: sqlOrCursor, values })) as unknown as Promise<
        PostgresQueryResult<R>
      >;
    }
    return { query, release: () => client.release() };
  }
}
