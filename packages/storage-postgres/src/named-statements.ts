import pg from 'pg';

/**
 * The repository's hot statements (storage-kysely's `PreparedQueries`: reading a token, a
 * store, an order, a page of a queue) by their SQL, each with a name. A connection of a pool
 * made with {@link namingClient} prepares a named statement once and from then on only binds
 * and executes it: Postgres parses and plans it once per connection instead of on every run,
 * which was about half of what such a statement cost. Every other statement runs unnamed.
 */
export class StatementNames {
  readonly #names = new Map<string, string>();

  /** Names `sql`: from now on, every connection keeps it prepared. */
  add(sql: string): void {
    if (!this.#names.has(sql)) this.#names.set(sql, `fulfil_${this.#names.size + 1}`);
  }

  has(sql: string): boolean {
    return this.#names.has(sql);
  }

  nameOf(sql: string): string | undefined {
    return this.#names.get(sql);
  }
}

/**
 * Whether `error` is Postgres refusing a prepared statement whose result columns changed
 * under it (a migration added a column to a table it reads with `*`): the statement must be
 * prepared again, and the transaction may simply run again.
 */
export function isStalePlan(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === '0A000' &&
    typeof message === 'string' &&
    message.includes('cached plan must not change result type')
  );
}

type Query = (...args: unknown[]) => unknown;

/**
 * A pg `Client` class whose `query(text, values)` runs a statement `names` knows as a named
 * prepared statement. After a stale plan, the connection prepares its statements afresh under
 * new names (the old ones cannot be replaced while they exist), and the failure is thrown, so
 * that the repository runs the transaction again (`isPostgresRetryable`).
 */
export function namingClient(names: StatementNames): new () => pg.Client {
  return class NamingClient extends pg.Client {
    /** Bumped after a stale plan: part of every name this connection prepares. */
    #generation = 0;

    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this keeps them all
    override query(...args: any[]): any {
      const [text, values, callback] = args as [unknown, unknown, unknown];
      const name =
        typeof text === 'string' && Array.isArray(values) && callback === undefined
          ? names.nameOf(text)
          : undefined;
      const query = super.query as Query;
      if (name === undefined) return query.apply(this, args);
      const named = { name: `${name}_${this.#generation}`, text, values };
      return (query.call(this, named) as Promise<unknown>).catch((error: unknown) => {
        if (isStalePlan(error)) this.#generation += 1;
        throw error;
      });
    }
  };
}
