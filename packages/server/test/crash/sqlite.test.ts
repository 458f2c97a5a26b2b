import { sqliteIntegrityProblems } from '@fulfil/storage-sqlite';
import { parseDatabaseUrl } from '../../src/database-url.js';
import { sqliteDatabase } from '../scale-out/support.js';
import { describeCrashSafety } from './kill-cycles.js';

// A SQLite file in WAL mode with synchronous=FULL (the default): kills must lose nothing, and
// SQLite's own checks must find the file sound afterwards.
describeCrashSafety({
  name: 'a SQLite file',
  makeDatabase: sqliteDatabase,
  async integrityProblems(database) {
    const target = parseDatabaseUrl(database.url);
    if (target.kind !== 'sqlite') throw new Error(`not a SQLite file: ${database.url}`);
    return sqliteIntegrityProblems(target.path);
  },
});
