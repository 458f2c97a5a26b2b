// Preloaded (`node --import`) into a `fulfil serve` under test by the write-path benchmark:
// counts, at the driver, every call pg's Client makes to the database (one round trip each:
// node-postgres sends one query and waits for its answer) and, of those, the statements that
// are not transaction control. SIGUSR2 writes the counts so far to $FULFIL_BENCH_COUNTS.
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const fromAdapter = createRequire(
  new URL('../packages/storage-postgres/package.json', import.meta.url),
);
const pg = fromAdapter('pg');
const counts = { snapshot: 0, roundTrips: 0, statements: 0 };
const CONTROL = /^\s*(begin|start|commit|rollback|savepoint|release|set)\b/i;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  counts.roundTrips++;
  const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  if (typeof text === 'string' && !CONTROL.test(text)) counts.statements++;
  return query.apply(this, args);
};
process.on('SIGUSR2', () => {
  counts.snapshot++;
  // Written aside, then renamed: the reader never sees half a file.
  const file = process.env.FULFIL_BENCH_COUNTS;
  writeFileSync(`${file}.tmp`, JSON.stringify(counts));
  renameSync(`${file}.tmp`, file);
});
