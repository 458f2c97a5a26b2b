import { defined, Probe, type Settle, type SpanShape } from '@fulfil/core';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { ForwardingDriver, withDriver } from './wrapped-dialect.js';

/** Which database statements run on, as OpenTelemetry's database conventions name it. */
export interface StatementTarget {
  /** `db.system.name`. */
  system: 'sqlite' | 'postgresql';
  /** `db.namespace`: the database (Postgres: `database|schema` when a schema is set). */
  namespace?: string;
}

/**
 * What the `fulfil:sql` channel tells of a statement. `query` is its text with placeholders,
 * never its values; spans carry its summary only.
 */
export interface StatementMessage extends StatementTarget {
  query: string;
  /** `db.operation.name`: `SELECT`, `INSERT`, `BEGIN`, … */
  operation: string;
  /** `db.query.summary`: the operations and the tables they name, `SELECT fulfillment_orders`. */
  summary: string;
}

export const statementProbe = new Probe<StatementMessage>({
  channel: 'fulfil:sql',
  scope: '@fulfil/storage-kysely',
  kind: 'client',
  spanName: (message) => message.summary,
  attributes: (message) => ({
    'db.system.name': message.system,
    'db.namespace': message.namespace,
    'db.operation.name': message.operation,
    'db.query.summary': message.summary,
  }),
});

const OPERATIONS = new Set(['select', 'insert', 'update', 'delete']);
/** Words after which the next name is a table a statement reads or writes. */
const TARGETS = new Set(['from', 'into', 'join', 'update']);
/** Words before an `update` that is no UPDATE: `do update` (upsert), `for [no key] update` (lock). */
const NOT_AN_UPDATE = new Set(['do', 'for', 'key']);
const TOKENS = /"(?:[^"]|"")*"|'(?:[^']|'')*'|[A-Za-z_][\w$.]*|[()]|[^\s\w"'()]+/g;
const SUMMARY_LIMIT = 255;

/**
 * A statement's operation and summary (OpenTelemetry's `db.query.summary`): each operation
 * (`SELECT`, `INSERT`, `UPDATE`, `DELETE`) with the tables it names, in order, consecutive
 * repeats once; a statement of another kind (`BEGIN`, `COMMIT`, `SAVEPOINT`, `PRAGMA`, …) by its
 * first word. Literals are skipped: no value of the text reaches the summary.
 */
export function summarizeStatement(sql: string): { operation: string; summary: string } {
  const parts: string[] = [];
  let operation: string | undefined;
  /** The word after which a table is named, until it is. */
  let target = '';
  let previous = '';
  /** A name just read from: a `(` after it makes it a function (`from unnest(…)`). */
  let named = false;
  for (const [token] of sql.matchAll(TOKENS)) {
    if (token.startsWith("'")) continue;
    const word = token.toLowerCase();
    if (named && token === '(') parts.pop();
    named = false;
    // `do update set` (an upsert) is part of its INSERT; `for update` a lock of its SELECT.
    const clause = word === 'update' && NOT_AN_UPDATE.has(previous);
    previous = word;
    if (clause) continue;
    if (target) {
      const after = target;
      target = '';
      if (/^[A-Za-z_"]/.test(token) && !OPERATIONS.has(word)) {
        const table = token.startsWith('"') ? token.slice(1, -1).replaceAll('""', '"') : token;
        if (parts[parts.length - 1] !== table) {
          parts.push(table);
          // After `into` or `update`, a `(` opens a list of columns.
          named = after === 'from' || after === 'join';
        }
        continue;
      }
    }
    if (OPERATIONS.has(word)) {
      const upper = word.toUpperCase();
      operation ??= upper;
      if (parts[parts.length - 1] !== upper) parts.push(upper);
    }
    if (TARGETS.has(word)) target = word;
  }
  if (!operation) {
    const first = /[A-Za-z]+/.exec(sql)?.[0]?.toUpperCase() ?? 'UNKNOWN';
    return { operation: first, summary: first };
  }
  let summary = parts.join(' ');
  if (summary.length > SUMMARY_LIMIT) {
    summary = summary.slice(0, summary.lastIndexOf(' ', SUMMARY_LIMIT));
  }
  return { operation, summary };
}

/**
 * A statement's span, the same for every run of its text on one database: built the first time,
 * so that a traced statement costs the span and nothing else.
 */
class StatementShape implements SpanShape<StatementMessage> {
  readonly name: string;
  readonly attributes;
  readonly leaf: boolean;
  readonly #target: StatementTarget;
  readonly #query: string;
  readonly #operation: string;

  constructor(target: StatementTarget, query: string) {
    const { operation, summary } = summarizeStatement(query);
    this.name = summary;
    this.attributes = Object.freeze(
      defined({
        'db.system.name': target.system,
        'db.namespace': target.namespace,
        'db.operation.name': operation,
        'db.query.summary': summary,
      }),
    );
    // better-sqlite3 runs a statement in one call and has no instrumentation to nest; pg's may.
    this.leaf = target.system === 'sqlite';
    this.#target = target;
    this.#query = query;
    this.#operation = operation;
  }

  message(): StatementMessage {
    return {
      ...this.#target,
      query: this.#query,
      operation: this.#operation,
      summary: this.name,
    };
  }
}

/** The shapes of one database's statements by text: the hot ones are a few hundred texts. */
export class StatementShapes {
  readonly #target: StatementTarget;
  readonly #known = new Map<string, StatementShape>();

  constructor(target: StatementTarget) {
    this.#target = target;
  }

  of(query: string): SpanShape<StatementMessage> {
    let known = this.#known.get(query);
    if (!known) {
      // Multi-row inserts have a text per row count: past the bound, start again.
      if (this.#known.size >= SHAPES_KEPT) this.#known.clear();
      known = new StatementShape(this.#target, query);
      this.#known.set(query, known);
    }
    return known;
  }
}

const SHAPES_KEPT = 2048;

/** Statements quicker than this have no span of their own (see `recordStatementSpansFrom`). */
let statementSpanMinMs = 0;

/**
 * From now on, a statement has a span only when it took at least `ms` milliseconds, or failed;
 * 0 (the default): every statement has one. An SDK's span costs more than most SQLite
 * statements take, and a trace is read for where the time went: a quick statement is not it.
 * A span is then made once its statement has settled, so an instrumentation of pg nests nothing
 * in it. The `fulfil:sql` channel still tells every statement. Process-wide, as the SDK is.
 */
export function recordStatementSpansFrom(ms: number): void {
  if (!(Number.isFinite(ms) && ms >= 0)) {
    throw new RangeError(`a statement span threshold is a number of ms >= 0, not ${ms}`);
  }
  statementSpanMinMs = ms;
}

/** The threshold `recordStatementSpansFrom` set. */
export function statementSpanThreshold(): number {
  return statementSpanMinMs;
}

/** A connection whose every statement is a span of the `fulfil:sql` probe. */
class TracedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    readonly shapes: StatementShapes,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!statementProbe.enabled) return this.inner.executeQuery<R>(query);
    return statementProbe.traceShaped(
      this.shapes.of(query.sql),
      () => this.inner.executeQuery<R>(query),
      rowsOf as Settle<QueryResult<R>>,
      statementSpanMinMs,
    );
  }

  async *streamQuery<R>(
    query: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    if (!statementProbe.enabled) {
      yield* this.inner.streamQuery<R>(query, chunkSize);
      return;
    }
    // The span lasts from the first read to the last, the caller's work between reads included.
    let finish!: (error?: unknown) => void;
    const finished = new Promise<void>((resolve, reject) => {
      finish = (error) => (error === undefined ? resolve() : reject(error));
    });
    const traced = statementProbe.traceShaped(this.shapes.of(query.sql), () => finished);
    traced.catch(() => {});
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
      finish();
    } catch (error) {
      finish(error);
      throw error;
    } finally {
      finish();
    }
  }
}

const rowsOf = {
  result: (result: QueryResult<unknown>) => ({ 'db.response.returned_rows': result.rows.length }),
};

/** kysely's driver of `dialect`, handing out {@link TracedConnection}s. */
class TracedDriver extends ForwardingDriver<TracedConnection> {
  constructor(inner: Driver, target: StatementTarget) {
    const shapes = new StatementShapes(target);
    // BEGIN, COMMIT and ROLLBACK go through the traced connection: they are statements too.
    super(inner, (connection) => new TracedConnection(connection, shapes));
  }
}

/**
 * `dialect` with a span per statement (`fulfil:sql`): every statement kysely runs on it, those of
 * transactions (BEGIN, COMMIT, savepoints) and migrations included. Neither better-sqlite3 nor
 * kysely has instrumentation of its own; pg's, if an app installs it, nests its spans in these.
 */
export function traceStatements(dialect: Dialect, target: StatementTarget): Dialect {
  return withDriver(dialect, (driver) => new TracedDriver(driver, target));
}
