/**
 * Runs every benchmark: `pnpm bench`. Each prints our figure, the raw better-sqlite3 floor
 * measured in the same run on the same data, and their ratio. Benchmarks, not tests: nothing
 * here asserts on a timing (they only check that both sides did the same work).
 *
 * The workspace packages load from their TypeScript sources (tsx follows the `paths` of the root
 * tsconfig.json), so no build is needed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchAccept } from './accept.js';
import { benchPoll } from './poll.js';
import { Sqlite } from './raw-sqlite.js';
import { benchStockSync } from './stock-sync.js';

const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'fulfil-bench-'));
try {
  const probe = new Sqlite(':memory:');
  const version = probe.prepare('select sqlite_version()').pluck().get();
  probe.close();
  console.log(
    `fulfil benchmarks: node ${process.version}, SQLite ${version} (better-sqlite3); ` +
      'figures are medians over rounds after a warm-up, both sides in turns in one process',
  );
  await benchPoll(dir);
  await benchAccept(dir);
  await benchStockSync(dir);
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
