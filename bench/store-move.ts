/**
 * Moving a store in bulk: `fulfil orders import` of N two-item sales orders from NDJSON into a
 * SQLite file and, when FULFIL_TEST_POSTGRES_URL is set, into Postgres (a schema of its own,
 * dropped afterwards); then `fulfil export` of that store and `fulfil import` of the dump into an
 * empty database of the same kind. The CLI runs as a child process under /usr/bin/time, so the figures are
 * what an operator sees: orders per second and the child's peak RSS. The floor is the same file
 * streamed and parsed line by line by a bare node process in the same run.
 *
 *   node --import tsx bench/store-move.ts [--quick] [--orders N] [--only sqlite|postgres]      (after `pnpm build`)
 *
 * Nothing here asserts on a timing; it only checks that every order was taken in.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as fixtures from '../packages/core/src/testing/fixtures.js';

const { values } = parseArgs({
  options: { quick: { type: 'boolean' }, orders: { type: 'string' }, only: { type: 'string' } },
});
// `--only sqlite` or `--only postgres`: one side of a long run (a million orders take minutes each).
if (values.only !== undefined && values.only !== 'sqlite' && values.only !== 'postgres') {
  throw new Error(`--only takes sqlite or postgres, not "${values.only}"`);
}
const orders = Number(values.orders ?? (values.quick ? 2_000 : 1_000_000));
const cli = fileURLToPath(new URL('../packages/server/dist/cli.js', import.meta.url));
const SKUS = ['SKU-1', 'SKU-2'];

/** Runs `node args` under /usr/bin/time; resolves to its wall time, peak RSS and stdout. */
function timed(args: string[], env: NodeJS.ProcessEnv = {}) {
  const rssFile = join(dir, 'rss');
  const started = performance.now();
  const stdout = execFileSync(
    '/usr/bin/time',
    ['-f', '%M', '-o', rssFile, process.execPath, ...args],
    {
      env: { ...process.env, ...env },
      maxBuffer: 1 << 26,
    },
  ).toString();
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    rssMb: Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024,
    stdout,
  };
}

async function writeOrders(file: string): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < orders; i++) {
    const order = fixtures.salesOrder(
      String(500_000_000 + i),
      SKUS.map((sku) => ({ sku, qty: 1 })),
      { warehouse_code: 'WH-A' },
    );
    if (!out.write(`${JSON.stringify(order)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

const seed = {
  stores: [
    {
      code: 'default',
      settings: { partial_items: false, reroute: true },
      warehouses: [{ code: 'WH-A', name: 'Partner A', fulfilled_by: 'partner', priority: 10 }],
      stock: SKUS.map((sku) => ({ warehouse_code: 'WH-A', sku, qty: 1_000_000_000 })),
      tokens: [],
    },
  ],
};

const FLOOR = `
const { createReadStream } = require('node:fs');
const { createInterface } = require('node:readline');
let n = 0;
createInterface({ input: createReadStream(process.argv[1]), crlfDelay: Infinity })
  .on('line', (line) => { if (JSON.parse(line).sales_order_number) n++; })
  .on('close', () => console.log(n));
`;

function row(name: string, ours: { seconds: number; rssMb: number }, floorRate: number): void {
  const rate = orders / ours.seconds;
  console.log(
    `${name.padEnd(28)} ${Math.round(rate).toString().padStart(8)} orders/s  peak RSS ${ours.rssMb.toFixed(0).padStart(4)} MB` +
      `  floor ${Math.round(floorRate)} orders/s  ratio ${(floorRate / rate).toFixed(1)}x`,
  );
}

function importInto(db: string) {
  const seedFile = join(dir, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed));
  execFileSync(process.execPath, [cli, 'seed', seedFile, '--db', db], { stdio: 'ignore' });
  const run = timed([cli, 'orders', 'import', join(dir, 'orders.ndjson'), '--db', db, '--json']);
  const summary = JSON.parse(run.stdout) as { taken_in: number };
  if (summary.taken_in !== orders) throw new Error(`took in ${summary.taken_in} of ${orders}`);
  return run;
}

/** Where the export writes and the import reads (in the run's directory). */
const dumpFile = () => join(dir, 'store.ndjson');

async function exportFrom(db: string) {
  const dump = dumpFile();
  const run = timed([cli, 'export', '--out', dump, '--db', db]);
  let exported = 0;
  for await (const line of createInterface({ input: createReadStream(dump) })) {
    if (line.startsWith('{"table":"fulfillment_orders"')) exported++;
  }
  if (exported !== orders) throw new Error(`exported ${exported} of ${orders}`);
  return run;
}

/** `fulfil import` of the dump just exported into an empty database: the other half of a move. */
function importDump(db: string) {
  const run = timed([cli, 'import', dumpFile(), '--db', db]);
  rmSync(dumpFile());
  const counts = JSON.parse(run.stdout) as { rows: { fulfillment_orders?: number } };
  if (counts.rows.fulfillment_orders !== orders) {
    throw new Error(`imported ${counts.rows.fulfillment_orders} of ${orders}`);
  }
  return run;
}

const dir = mkdtempSync(join(tmpdir(), 'fulfil-move-bench-'));
try {
  await writeOrders(join(dir, 'orders.ndjson'));
  const floor = timed(['-e', FLOOR, join(dir, 'orders.ndjson')]);
  if (Number(floor.stdout) !== orders) throw new Error('the floor did not read every line');
  const floorRate = orders / floor.seconds;
  console.log(`store move: ${orders} two-item sales orders, NDJSON, CLI as a child process`);
  if (values.only !== 'postgres') {
    const sqlite = `sqlite:${join(dir, 'store.db')}`;
    row('orders import → SQLite file', importInto(sqlite), floorRate);
    row('export ← SQLite file', await exportFrom(sqlite), floorRate);
    row('import dump → SQLite file', importDump(`sqlite:${join(dir, 'moved.db')}`), floorRate);
  }
  const postgres = values.only === 'sqlite' ? undefined : process.env.FULFIL_TEST_POSTGRES_URL;
  if (postgres) {
    const schemas = [`bench_move_${process.pid}`, `bench_moved_${process.pid}`];
    const [source, target] = schemas.map((schema) => {
      const url = new URL(postgres);
      url.searchParams.set('schema', schema);
      return url.toString();
    }) as [string, string];
    try {
      row('orders import → Postgres', importInto(source), floorRate);
      row('export ← Postgres', await exportFrom(source), floorRate);
      row('import dump → Postgres', importDump(target), floorRate);
    } finally {
      for (const schema of schemas) {
        execFileSync('psql', [postgres, '-qc', `drop schema if exists ${schema} cascade`], {
          env: { ...process.env, PGOPTIONS: '--client-min-messages=warning' },
        });
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
