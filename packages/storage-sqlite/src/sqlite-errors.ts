/**
 * Whether the error is SQLite's "database is locked" (SQLITE_BUSY and its extended codes): the
 * busy timeout ran out while another connection held the lock. better-sqlite3's `SqliteError`
 * carries the code as a string; no driver type is imported for that. Errors that wrap one as
 * their `cause` (a failed migration, say) count too.
 */
export function isSqliteBusy(error: unknown): boolean {
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return false;
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
    current = cause;
  }
  return false;
}
