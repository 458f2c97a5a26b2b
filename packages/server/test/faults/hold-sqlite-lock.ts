/**
 * Another process holding a SQLite file's write lock (see sqlite-lock.test.ts). Takes
 * `BEGIN IMMEDIATE` on the file and prints `locked`; commits nothing and lets go when it reads
 * `release` on stdin (printing `released on request`) or, failing that, after `holdMs`
 * (printing `released by itself`).
 */
import { createRequire } from 'node:module';

/** The little of better-sqlite3 this uses; the driver is a dependency of the SQLite adapter. */
type Driver = new (filename: string) => { exec(sql: string): void; close(): void };
const require = createRequire(new URL('../../../storage-sqlite/package.json', import.meta.url));
const BetterSqlite3 = require('better-sqlite3') as Driver;

const [filename, holdMsText] = process.argv.slice(2);
if (!filename || !holdMsText) throw new Error('usage: hold-sqlite-lock <file> <holdMs>');

const db = new BetterSqlite3(filename);
db.exec('begin immediate');
process.stdout.write('locked\n');

function release(how: string): void {
  db.exec('rollback');
  db.close();
  process.stdout.write(`released ${how}\n`);
  process.exit(0);
}

const timer = setTimeout(() => release('by itself'), Number(holdMsText));
process.stdin.setEncoding('utf8').on('data', (chunk: string) => {
  if (!chunk.includes('release')) return;
  clearTimeout(timer);
  release('on request');
});
