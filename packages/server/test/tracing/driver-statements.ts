import { createRequire } from 'node:module';
import { trace } from '@opentelemetry/api';

/**
 * Counts the statements the database drivers run, below every layer of ours: better-sqlite3's
 * statement runs (kysely's and the adapter's own reads alike) and pg's `Client#query` calls.
 */
export interface StatementCounter {
  /** Statements run since the counter was made. */
  readonly count: number;
  stop(): void;
}

const requireFrom = (pkg: string) =>
  createRequire(new URL(`../../../${pkg}/package.json`, import.meta.url));

type Method = (...args: unknown[]) => unknown;

/** Whether a driver call is one to count: every call, or those made inside one trace. */
function counted(traceId: string | undefined): boolean {
  return traceId === undefined || trace.getActiveSpan()?.spanContext().traceId === traceId;
}

function countCalls(
  prototype: Record<string, unknown>,
  methods: readonly string[],
  traceId: string | undefined,
): StatementCounter {
  let count = 0;
  const originals = methods.map((name) => [name, prototype[name] as Method] as const);
  for (const [name, original] of originals) {
    prototype[name] = function (this: unknown, ...args: unknown[]) {
      if (counted(traceId)) count += 1;
      return original.apply(this, args);
    };
  }
  return {
    get count() {
      return count;
    },
    stop() {
      for (const [name, original] of originals) prototype[name] = original;
    },
  };
}

/**
 * With `traceId`, only the statements run while a span of that trace is active: a request's,
 * not those of a background round (a courier loop's, a session sweep's) that lands meanwhile.
 * A statement of the request that lost its trace is still caught: its own span is then in
 * another trace, which the tests refuse.
 */
export function countStatements(
  system: 'sqlite' | 'postgresql',
  traceId?: string,
): StatementCounter {
  if (system === 'sqlite') {
    const Database = requireFrom('storage-sqlite')('better-sqlite3');
    const scratch = new Database(':memory:');
    const prototype = Object.getPrototypeOf(scratch.prepare('select 1'));
    scratch.close();
    return countCalls(prototype, ['run', 'all', 'get', 'iterate'], traceId);
  }
  const pg = requireFrom('storage-postgres')('pg');
  return countCalls(pg.Client.prototype, ['query'], traceId);
}
