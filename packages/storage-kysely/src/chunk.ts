/**
 * Rows per multi-row statement. Keeps every statement well under SQLite's bound-variable limit
 * (32,766) and Postgres' (65,535) for tables of up to ~30 columns.
 */
export const ROWS_PER_STATEMENT = 1000;

/** Splits `items` into consecutive slices of at most `size`. */
export function chunk<T>(items: readonly T[], size: number = ROWS_PER_STATEMENT): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    slices.push(items.slice(start, start + size));
  }
  return slices;
}

/** Values per `in (…)` list: small enough for any bound-variable limit. */
export const IN_LIST_SIZE = 500;
