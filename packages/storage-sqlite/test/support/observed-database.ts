import type { SqliteDatabase } from 'kysely';

/** A failure SQLite could report for the next statement `matches` picks. */
export interface Fault {
  matches: RegExp;
  /** What SQLite did before reporting it (e.g. roll the whole transaction back). */
  before?: () => void;
  error: () => Error;
}

/**
 * The database as kysely's driver sees it, recording the SQL of every statement it runs: what
 * SQLite executes, however the statement was built (by kysely on each call, or prepared once).
 * Each fault pushed into `faults` strikes once, at the first statement it matches, as SQLite
 * would have failed it.
 */
export function observed(
  database: SqliteDatabase,
  statements: string[],
  faults: Fault[] = [],
): SqliteDatabase {
  const record = (text: string) => {
    statements.push(text);
    const index = faults.findIndex((fault) => fault.matches.test(text));
    const fault = faults[index];
    if (!fault) return;
    faults.splice(index, 1);
    fault.before?.();
    throw fault.error();
  };
  return {
    close: () => database.close(),
    prepare: (text: string) => {
      const statement = database.prepare(text);
      return {
        get reader() {
          return statement.reader;
        },
        all: (parameters) => {
          record(text);
          return statement.all(parameters);
        },
        run: (parameters) => {
          record(text);
          return statement.run(parameters);
        },
        iterate: (parameters) => {
          record(text);
          return statement.iterate(parameters);
        },
      };
    },
  };
}
