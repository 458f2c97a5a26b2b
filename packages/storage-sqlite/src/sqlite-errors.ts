/**
 * SQLite's result code of an error, read structurally: better-sqlite3's `SqliteError` carries it
 * as a string (`SQLITE_BUSY_SNAPSHOT`…); no driver type is imported for that. An error that wraps
 * one as its `cause` (a failed migration, say) has its code too.
 */
function sqliteCodeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return undefined;
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
    current = cause;
  }
  return undefined;
}

/**
 * Whether the error is SQLite's "database is locked" (SQLITE_BUSY and its extended codes):
 * another connection held the lock the statement needed.
 */
export function isSqliteBusy(error: unknown): boolean {
  return sqliteCodeOf(error)?.startsWith('SQLITE_BUSY') ?? false;
}

/**
 * Primary result codes that say the file cannot serve now, whatever was asked of it: locked past
 * the wait, disk full, not writable, an I/O error, not openable.
 */
const UNAVAILABLE_CODES = [
  'SQLITE_BUSY',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
];

/** Whether the error is a fault of the database file or its disk rather than of the work. */
export function isSqliteUnavailable(error: unknown): boolean {
  const code = sqliteCodeOf(error);
  return (
    code !== undefined &&
    UNAVAILABLE_CODES.some((primary) => code === primary || code.startsWith(`${primary}_`))
  );
}
