import BetterSqlite3 from 'better-sqlite3';

interface ForeignKeyProblem {
  table: string;
  rowid: number | null;
  parent: string;
}

/**
 * What SQLite's own checks find wrong with a database file: `PRAGMA integrity_check` (pages,
 * indexes, constraints) and `PRAGMA foreign_key_check`. Empty when the file is sound. Opens the
 * file read-write so that a WAL left by a killed process is recovered first, as the server would.
 */
export function sqliteIntegrityProblems(filename: string): string[] {
  const db = new BetterSqlite3(filename, { fileMustExist: true });
  try {
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    const foreignKeys = db.pragma('foreign_key_check') as ForeignKeyProblem[];
    return [
      ...integrity.map((row) => row.integrity_check).filter((message) => message !== 'ok'),
      ...foreignKeys.map(
        (row) => `${row.table} row ${row.rowid ?? '?'} refers to a missing ${row.parent} row`,
      ),
    ];
  } finally {
    db.close();
  }
}
