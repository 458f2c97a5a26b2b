/**
 * Runs the benchmarks: `pnpm bench [--quick] [--orders N] [--only <scenario>…] [--cpu-prof <dir>]`
 * (options.ts). Each scenario prints our figure, a
 * floor measured in the same run on the same data, and their ratio; the run ends with one table
 * of them all (summary.ts). Benchmarks, not tests: nothing here asserts on a timing, but a
 * scenario whose two sides did not do the same work, or whose server failed a request, fails
 * the run.
 *
 * The in-process scenarios load the workspace packages from their TypeScript sources (tsx
 * follows the `paths` of the root tsconfig.json); the HTTP ones run `fulfil serve` from the
 * built packages (scripts/fulfil.mjs builds them first when a source is newer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchAccept } from './accept.js';
import { benchAdminDashboard, benchAdminSearch, fillForAdmin } from './admin-search.js';
import { benchImport } from './bulk-import.js';
import { profileServersInto, runFulfil } from './child.js';
import { type BenchDatabase, postgresDatabase, sqliteDatabase } from './databases.js';
import { benchDeadlines } from './deadlines.js';
import { benchHttpAccept } from './http-accept.js';
import { benchHttpDocs } from './http-docs.js';
import { benchHttpIntake } from './http-intake.js';
import { benchHttpPoll } from './http-poll.js';
import { benchLargeOrders, largeOrderSizes } from './large-orders.js';
import { benchLongPoll, longPollSizes } from './long-poll.js';
import { readOptions, type Scenario, sizesOf } from './options.js';
import { benchPipelining, pipeliningSizes } from './pipelining.js';
import { benchPoll } from './poll.js';
import { benchPollScale } from './poll-scale.js';
import { Sqlite } from './raw-sqlite.js';
import { benchRouting } from './routing.js';
import { benchRoutingIntake } from './routing-intake.js';
import { benchStockSync } from './stock-sync.js';
import { printSummary } from './summary.js';
import { benchTracing } from './tracing.js';
import { benchWritePath, writePathSizes } from './write-path.js';

const options = readOptions(process.argv.slice(2), process.env);
const sizes = sizesOf(options);
const runs = (scenario: Scenario) => options.only.has(scenario);
if (options.cpuProfDir) profileServersInto(options.cpuProfDir);
const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'fulfil-bench-'));
const created: BenchDatabase[] = [];

/** The database `name` on `kind`, dropped at the end of the run. */
function database(kind: 'sqlite' | 'postgres', name: string): BenchDatabase {
  const made =
    kind === 'sqlite'
      ? sqliteDatabase(dir, name)
      : postgresDatabase(options.postgresUrl as string, name);
  created.push(made);
  return made;
}

function section(title: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`\n── ${title} (at ${seconds} s)`);
}

try {
  const probe = new Sqlite(':memory:');
  const version = probe.prepare('select sqlite_version()').pluck().get();
  probe.close();
  console.log(
    `fulfil benchmarks${options.quick ? ' --quick (tiny sizes: proves they run, measures nothing)' : ''}: ` +
      `node ${process.version}, SQLite ${version}, ` +
      `Postgres ${options.postgresUrl ? 'on' : 'off (set FULFIL_TEST_POSTGRES_URL)'}`,
  );
  // Builds the packages now when they are stale, not while a server is being timed.
  await runFulfil(dir, ['--help']);

  if (runs('poll') || runs('accept') || runs('stock-sync')) {
    section('in process: engine against raw better-sqlite3, same data');
    if (runs('poll')) await benchPoll(dir, options.quick);
    if (runs('accept')) await benchAccept(dir, options.quick);
    if (runs('stock-sync')) await benchStockSync(dir, options.quick);
  }

  if (runs('routing')) {
    section('in process: routing decisions against the greedy router, same orders');
    await benchRouting(options.quick);
    section('in process: intake by the richest rule list against the default list, same orders');
    await benchRoutingIntake(dir, options.quick);
  }

  const kinds = options.postgresUrl ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
  for (const kind of kinds) {
    // The write path's SQLite rows are the HTTP accept and intake against their raw floor.
    const sqliteWrites = kind === 'sqlite' && runs('write-path');
    // The bulk import fills the database the HTTP poll and accept scenarios use.
    if (runs('bulk-import') || runs('http-poll') || runs('http-accept') || sqliteWrites) {
      const pool = database(kind, 'pool');
      section(`${pool.label}: bulk import of ${sizes.poolOrders} orders`);
      const floor = await benchImport(pool, dir, sizes.poolOrders, options.postgresUrl);
      try {
        if (runs('http-poll')) {
          section(`${pool.label}: poll over HTTP`);
          await benchHttpPoll(pool, dir, sizes);
        }
        if (runs('http-accept') || sqliteWrites) {
          section(`${pool.label}: accept over HTTP`);
          await benchHttpAccept(pool, floor.place, floor.accepts, dir, sizes);
        }
      } finally {
        await floor.place.drop();
      }
    }
    if (runs('http-intake') || sqliteWrites) {
      const intake = database(kind, 'intake');
      section(`${intake.label}: a sales channel's intake over HTTP`);
      await benchHttpIntake(intake, dir, sizes, options.postgresUrl);
    }
    if (runs('tracing')) {
      const traced = database(kind, 'traced');
      section(`${traced.label}: what tracing costs an accept over HTTP`);
      await benchTracing(traced, dir, sizes, options.quick);
    }
    if (runs('http-docs') && kind === 'sqlite') {
      section('the API reference page over HTTP');
      await benchHttpDocs(database(kind, 'docs'), dir, sizes);
    }
    if (runs('admin-search') || runs('admin-dashboard')) {
      const admin = database(kind, 'admin');
      section(`${admin.label}: the admin API's reads with ${sizes.largeOrders} orders stored`);
      await fillForAdmin(admin, sizes.largeOrders);
      if (runs('admin-search')) await benchAdminSearch(admin, sizes.largeOrders, options.quick);
      if (runs('admin-dashboard'))
        await benchAdminDashboard(admin, sizes.largeOrders, options.quick);
      await admin.drop();
    }
    if (runs('deadlines')) {
      const deadlines = database(kind, 'deadlines');
      section(`${deadlines.label}: the admin search by deadline with ${sizes.largeOrders} orders`);
      await benchDeadlines(deadlines, sizes.largeOrders, options.quick);
      await deadlines.drop();
    }
    if (runs('long-poll')) {
      const waits = database(kind, 'waits');
      section(`${waits.label}: long polling`);
      await benchLongPoll(waits, dir, longPollSizes(options.quick), options.postgresUrl);
    }
    if (runs('large-orders')) {
      const large = database(kind, 'large-orders');
      section(`${large.label}: the largest orders, and held feed polls`);
      await benchLargeOrders(large, dir, largeOrderSizes(options.quick));
    }
    if (runs('write-path') && kind === 'postgres' && options.postgresUrl) {
      section('Postgres: the write path against pgbench TPC-B');
      await benchWritePath(
        dir,
        options.postgresUrl,
        writePathSizes(options.quick),
        options.serverDbParams,
      );
    }
    if (runs('pipelining') && kind === 'postgres' && options.postgresUrl) {
      section('Postgres: a pipelining driver (postgres.js) against pg, the same accept');
      await benchPipelining(options.postgresUrl, pipeliningSizes(options.quick));
    }
    if (runs('poll-scale')) {
      const small = database(kind, 'small');
      section(
        `${small.label}: poll with ${sizes.smallOrders} vs ${sizes.largeOrders} orders stored`,
      );
      await benchPollScale(small, database(kind, 'large'), dir, sizes);
    }
  }
  printSummary();
  console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  // What was measured before the failure still counts; the run fails all the same.
  printSummary();
  throw error;
} finally {
  for (const made of created) await made.drop();
  rmSync(dir, { recursive: true, force: true });
}
