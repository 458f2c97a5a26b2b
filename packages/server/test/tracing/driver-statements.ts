import { createRequire } from 'node:module';

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

function countCalls(
  prototype: Record<string, unknown>,
  methods: readonly string[],
): StatementCounter {
  let count = 0;
  const originals = methods.map((name) => [name, prototype[name] as Method] as const);
  for (const [name, original] of originals) {
    prototype[name] = function (this: unknown, ...args: unknown[]) {
      count += 1;
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

export function countStatements(system: 'sqlite' | 'postgresql'): StatementCounter {
  if (system === 'sqlite') {
    const Database = requireFrom('storage-sqlite')('better-sqlite3');
    const scratch = new Database(':memory:');
    const prototype = Object.getPrototypeOf(scratch.prepare('select 1'));
    scratch.close();
    return countCalls(prototype, ['run', 'all', 'get', 'iterate']);
  }
  const pg = requireFrom('storage-postgres')('pg');
  return countCalls(pg.Client.prototype, ['query']);
}
