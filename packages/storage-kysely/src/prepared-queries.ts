import { appendAll } from '@fulfil/core';
import {
  type Compilable,
  type CompiledQuery,
  createQueryId,
  type Kysely,
  type QueryResult,
  type RootOperationNode,
} from 'kysely';
import type { Database } from './database.js';
import { deferrable } from './deferred-writes.js';

/** Stands for an argument of a prepared query while kysely compiles it. */
class Argument {
  constructor(readonly index: number) {}
}

/** The argument at `index` of `PreparedQueries.run`, typed as the column it is compared with. */
export type ArgumentOf = <T>(index: number) => T;

/** The stand-ins of the `k`-th list of `PreparedQueries.runWithLists`, for an `in (…)`. */
export type ListedOf = <T>(k: number) => T[];

/**
 * `values` padded to a power of two by repeating the last one, which never changes what an
 * `in (…)` matches: lists of any length take one of a few shapes.
 */
export function paddedList<T>(values: readonly T[]): T[] {
  const padded = [...values];
  const last = values[values.length - 1] as T;
  let size = 1;
  while (size < values.length) size *= 2;
  while (padded.length > 0 && padded.length < size) padded.push(last);
  return padded;
}

interface Compiled {
  sql: string;
  query: RootOperationNode;
  /** Each parameter of the SQL: the index of an argument, or a constant of the query itself. */
  parameters: (Argument | unknown)[];
}

/**
 * The hot statements of an action (reading a store, a token, an order and its parts, moving a
 * queue entry), built and compiled by kysely once per repository instead of on every call:
 * building a query tree and compiling it cost more than SQLite takes to run these statements.
 * A query is built with stand-ins for its arguments; the SQL kysely compiles (plugins included)
 * is kept under its name, and each run binds that call's arguments in their place.
 *
 * A name must always stand for the same query shape on the same database: one instance per
 * repository, and the name says what varies (`order:for update`).
 */
export class PreparedQueries {
  readonly #compiled = new Map<string, Compiled>();
  readonly #onCompiled: ((sql: string) => void) | undefined;

  /** @param onCompiled told each statement's SQL once, when it is first compiled. */
  constructor(onCompiled?: (sql: string) => void) {
    this.#onCompiled = onCompiled;
  }

  /**
   * Runs the query `name` (built by `build` the first time) with `args`. `deferrable`: the caller
   * ignores its answer, so inside a transaction it may run later (deferred-writes.ts); with
   * `alongside`, in one statement with other writes of its table carrying the same token.
   */
  run<R>(
    db: Kysely<Database>,
    name: string,
    args: readonly unknown[],
    build: (db: Kysely<Database>, argument: ArgumentOf) => Compilable<R>,
    options?: { deferrable?: boolean; alongside?: object },
  ): Promise<QueryResult<R>> {
    let compiled = this.#compiled.get(name);
    if (!compiled) {
      const query = build(db, (index) => new Argument(index) as never).compile();
      compiled = { sql: query.sql, query: query.query, parameters: [...query.parameters] };
      this.#compiled.set(name, compiled);
      this.#onCompiled?.(compiled.sql);
    }
    const bound: CompiledQuery<R> = {
      sql: compiled.sql,
      query: compiled.query,
      queryId: createQueryId(),
      parameters: compiled.parameters.map((parameter) =>
        parameter instanceof Argument ? args[parameter.index] : parameter,
      ),
    };
    return db.executeQuery(
      options?.deferrable ? deferrable(bound, options.alongside ?? bound) : bound,
    );
  }

  /**
   * `run` for a query with `in (…)` lists (each not empty): each list is padded
   * ({@link paddedList}), so that lists of any length are compiled once per power of two; the
   * stand-ins of list `k` come from `listed(k)`, after the arguments of `args`.
   */
  runWithLists<R>(
    db: Kysely<Database>,
    name: string,
    args: readonly unknown[],
    lists: readonly (readonly unknown[])[],
    build: (db: Kysely<Database>, argument: ArgumentOf, listed: ListedOf) => Compilable<R>,
  ): Promise<QueryResult<R>> {
    const all = [...args];
    const starts: number[] = [];
    const sizes: number[] = [];
    for (const list of lists) {
      const padded = paddedList(list);
      starts.push(all.length);
      sizes.push(padded.length);
      appendAll(all, padded);
    }
    const listed = (argument: ArgumentOf) => (k: number) =>
      Array.from({ length: sizes[k] ?? 0 }, (_, i) => argument((starts[k] ?? 0) + i)) as never;
    return this.run(db, `${name} [${sizes.join(',')}]`, all, (db, argument) =>
      build(db, argument, listed(argument)),
    );
  }
}
