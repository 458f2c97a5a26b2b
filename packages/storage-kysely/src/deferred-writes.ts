import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { ForwardingDriver, withDriver } from './wrapped-dialect.js';

/**
 * Writes whose answer nobody reads (an audit event, a stock delta, an order's changed columns)
 * may wait inside a transaction for the next statement that needs an answer, and then go to the
 * database together with the others that waited, as one statement, and with that next statement
 * too when it touches none of their tables: for a database server, where every statement is a
 * round trip, an action's writes then cost no round trip of their own. Nothing changes what the transaction does: every statement that reads (or writes and
 * reads its answer), the COMMIT included, runs only after every write before it has run, and a
 * write waits only behind writes to other tables (two writes of one table run in their order,
 * unless their caller marked them as writes that may run as one: see `deferrable`).
 */

/** Each deferrable write, with what it may share a statement with (`deferrable`'s `alongside`). */
const DEFERRABLE = new WeakMap<CompiledQuery, object>();

/**
 * Marks `query` as a write whose answer its caller ignores: it may run later in its transaction.
 * Writes of one table wait together only when they carry the same `alongside` token: their
 * caller vouches that they have the same effect whichever runs first, or both as one statement
 * (on one snapshot). Without a token, a write of a table waits alone: the ones before it run first.
 */
export function deferrable<Q extends CompiledQuery>(query: Q, alongside: object = query): Q {
  DEFERRABLE.set(query, alongside);
  return query;
}

/**
 * A statement that sends nothing of its own: run in a transaction of a dialect that defers
 * writes, it runs the writes that wait, now, and fails as they do. Never run it elsewhere.
 */
export const runWaitingWrites: CompiledQuery = Object.freeze(
  CompiledQuery.raw('/* the writes that wait */'),
);

/** The table a plain `insert into` / `update` / `delete from` statement writes; null otherwise. */
const WRITTEN_TABLE = /^(?:insert into|update|delete from) "([^"]+)"/;
/** `$n` placeholders; a text with a literal or a dollar quote is never merged (see `mergeable`). */
const PLACEHOLDER = /\$(\d+)/g;

function mergeable(sql: string): string | null {
  if (sql.includes("'") || sql.includes('$$') || /^\s*with\b/i.test(sql)) return null;
  return WRITTEN_TABLE.exec(sql)?.[1] ?? null;
}

/** A plain `select` or `insert into`: a statement the waiting writes may ride with. */
const CARRIER = /^(?:select|insert into)\s/;

/**
 * Whether `query` may carry the writes to `tables` as `with` clauses of its own: a plain select
 * or insert without literals that names none of those tables (it would not see their writes,
 * all of one statement seeing one snapshot).
 */
function carries(query: CompiledQuery, tables: Iterable<string>): boolean {
  const { sql } = query;
  if (!CARRIER.test(sql) || sql.includes("'") || sql.includes('$$')) return false;
  for (const table of tables) if (namePattern(table).test(sql)) return false;
  return true;
}

/** The pattern of a table's name as a word, made once per table: asked of every statement. */
const namePatterns = new Map<string, RegExp>();
function namePattern(table: string): RegExp {
  let pattern = namePatterns.get(table);
  if (!pattern) {
    pattern = new RegExp(`\\b${table}\\b`);
    namePatterns.set(table, pattern);
  }
  return pattern;
}

/**
 * The merged texts made so far, by the texts they merge, one level per statement (a carrier's
 * last, under {@link CARRIED}): an action merges the same few texts on every run, and its
 * statements' texts are the very strings kept by the prepared queries, whose hashes the engine
 * keeps. Renumbering the placeholders anew, and hashing a new text to find its name, cost more
 * than looking it up. Bounded: past {@link MERGED_KEPT} texts it starts again.
 */
interface MergedTexts {
  next: Map<string, MergedTexts>;
  text?: string;
}
const CARRIED = '\u0000carrier';
const MERGED_KEPT = 512;
let mergedRoot: MergedTexts = { next: new Map() };
let mergedCount = 0;

function mergedText(queries: readonly CompiledQuery[], carrier: CompiledQuery | undefined): string {
  let node = mergedRoot;
  const texts = queries.map((query) => query.sql);
  if (carrier) texts.push(CARRIED, carrier.sql);
  for (const text of texts) {
    let next = node.next.get(text);
    if (!next) {
      next = { next: new Map() };
      node.next.set(text, next);
    }
    node = next;
  }
  if (node.text === undefined) {
    if (mergedCount >= MERGED_KEPT) {
      mergedRoot = { next: new Map() };
      mergedCount = 0;
    }
    mergedCount += 1;
    node.text = renumberedText(queries, carrier);
  }
  return node.text;
}

/** The merged text: each statement a `with` clause, its placeholders renumbered. */
function renumberedText(queries: readonly CompiledQuery[], carrier?: CompiledQuery): string {
  let offset = 0;
  const renumbered = (query: CompiledQuery) => {
    const start = offset;
    offset += query.parameters.length;
    return query.sql.replace(PLACEHOLDER, (_, n: string) => `$${Number(n) + start}`);
  };
  const clauses = queries.map((query, index) => `w${index + 1} as (${renumbered(query)})`);
  return `with ${clauses.join(', ')} ${carrier ? renumbered(carrier) : 'select 1'}`;
}

/**
 * The statements as one: each a data-modifying `with` clause of a `select 1`, or of `carrier`
 * (Postgres runs every one of them to completion, once, whether or not it is read), their
 * placeholders renumbered; its answer is the carrier's.
 */
export function mergeWrites(
  queries: readonly CompiledQuery[],
  carrier?: CompiledQuery,
): CompiledQuery {
  const parameters: unknown[] = [];
  for (const query of queries) for (const parameter of query.parameters) parameters.push(parameter);
  if (carrier) for (const parameter of carrier.parameters) parameters.push(parameter);
  const [first] = queries as [CompiledQuery];
  return { ...(carrier ?? first), sql: mergedText(queries, carrier), parameters };
}

const NO_ROWS: QueryResult<never> = Object.freeze({ rows: [] }) as QueryResult<never>;

/** A connection that keeps a transaction's deferrable writes until a statement needs them run. */
class DeferringConnection implements DatabaseConnection {
  #inTransaction = false;
  #waiting: CompiledQuery[] = [];
  /** The tables the waiting writes change, each with the `alongside` token of those writes. */
  readonly #tables = new Map<string, object>();

  constructor(
    readonly inner: DatabaseConnection,
    readonly keep: KeptTexts | undefined,
  ) {}

  began(): void {
    this.#inTransaction = true;
  }

  /** The transaction ended; what still waits (only after a rollback) is dropped. */
  ended(): void {
    this.#inTransaction = false;
    this.dropWaiting();
  }

  dropWaiting(): void {
    this.#waiting = [];
    this.#tables.clear();
  }

  async flush(): Promise<void> {
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.dropWaiting();
    const [only] = waiting;
    if (waiting.length === 1 && only) {
      await this.inner.executeQuery(only);
      return;
    }
    await this.#runMerged(waiting);
  }

  /** `waiting` as one statement, with `carrier` if given (its answer is the statement's). */
  #runMerged<R>(waiting: CompiledQuery[], carrier?: CompiledQuery): Promise<QueryResult<R>> {
    const merged = mergeWrites(waiting, carrier);
    // The same action merges the same writes each time: a few texts, planned once per connection;
    // not a carrier with a list, one text per length, unless the carrier is itself kept: those
    // pad their lists to a few lengths (prepared-queries.ts).
    const keep = this.keep;
    if (keep && (!carrier?.sql.includes(' in (') || keep.has(carrier.sql))) keep.add(merged.sql);
    return this.inner.executeQuery<R>(merged);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (query === runWaitingWrites) {
      await this.flush();
      return NO_ROWS;
    }
    const alongside = this.#inTransaction ? DEFERRABLE.get(query) : undefined;
    const table = alongside === undefined ? null : mergeable(query.sql);
    if (table !== null && alongside !== undefined) {
      const waiting = this.#tables.get(table);
      if (waiting !== undefined && waiting !== alongside) await this.flush();
      this.#waiting.push(query);
      this.#tables.set(table, alongside);
      return NO_ROWS;
    }
    if (this.#waiting.length > 0 && carries(query, this.#tables.keys())) {
      const waiting = this.#waiting;
      this.dropWaiting();
      return this.#runMerged<R>(waiting, query);
    }
    await this.flush();
    return this.inner.executeQuery<R>(query);
  }

  async *streamQuery<R>(
    query: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    await this.flush();
    yield* this.inner.streamQuery<R>(query, chunkSize);
  }
}

const deferringOf = (connection: DatabaseConnection) => connection as DeferringConnection;

/** kysely's driver of `dialect`, handing out {@link DeferringConnection}s. */
class DeferringDriver extends ForwardingDriver<DeferringConnection> {
  constructor(inner: Driver, keep: KeptTexts | undefined) {
    super(inner, (connection) => new DeferringConnection(connection, keep));
  }

  override async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    await this.inner.beginTransaction(connection, settings);
    deferringOf(connection).began();
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    // A waiting write that fails fails the commit: kysely then rolls the transaction back.
    await deferringOf(connection).flush();
    await this.inner.commitTransaction(connection);
    deferringOf(connection).ended();
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    deferringOf(connection).ended();
    await this.inner.rollbackTransaction(connection);
  }

  override async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    // What waits was written after the savepoint (its statement ran every write before it).
    deferringOf(connection).dropWaiting();
    await super.rollbackToSavepoint(connection, name, compile);
  }

  override releaseConnection(connection: DatabaseConnection): Promise<void> {
    deferringOf(connection).ended();
    return super.releaseConnection(connection);
  }
}

/** The texts a driver keeps prepared (Postgres: by name): `add` one, `has` asks. */
export interface KeptTexts {
  add(sql: string): void;
  has(sql: string): boolean;
}

/**
 * `dialect` whose transactions run the writes marked {@link deferrable} together, just before
 * the next statement that needs them run; `keep` is given each merged text of a bounded few
 * (Postgres prepares it by name). For a database server: in process (SQLite) a statement is no
 * round trip.
 */
export function deferWrites(dialect: Dialect, keep?: KeptTexts): Dialect {
  return withDriver(dialect, (driver) => new DeferringDriver(driver, keep));
}
