/**
 * What one Postgres can commit, and how close each action over HTTP comes to it:
 *
 * - the floor: pgbench's TPC-B (`-c 10 -j 2 -T 20`, scale 10, in a database of its own), the
 *   physical limit of one Postgres doing small transactions of five statements on this machine;
 * - Fulfil: a sales order intake (one order a request), accept, allocate, ship and a stock sync
 *   over HTTP, one after the other on the same orders, each measured after a warm-up, with the
 *   round trips and statements per request counted at the driver (statement-counter.mjs), and
 *   the CPU time per request of the server and of the Postgres backends serving it.
 *
 * Each stage uses the orders the one before it left; afterwards every order must be where the
 * answers said it went.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { OrderResource } from '@fulfil/core';
import { backendCpu, backendCpuSince } from './backend-cpu.js';
import { type RunningChild, startFulfil } from './child.js';
import { postgresDatabase } from './databases.js';
import {
  benchSalesOrder,
  CHANNEL_SECRET,
  ERP_SECRET,
  fillStore,
  ordersInQueue,
  PARTNER_SECRET,
  SKUS,
  STORE,
  WAREHOUSE,
} from './fill-store.js';
import { acceptBody } from './http-accept.js';
import { CONNECTIONS, describeLoad, type LoadResult, postsInTurn } from './load.js';
import { withPostgres } from './raw-postgres.js';
import { addRow, ratioOf } from './summary.js';

const COUNTER = fileURLToPath(new URL('./statement-counter.mjs', import.meta.url));
const V1 = `/rest/${STORE}/V1`;
/** Orders taken in before the first stage, so each later stage has the bodies autocannon builds ahead. */
const SLACK_ORDERS = 10 * CONNECTIONS;

export interface WritePathSizes {
  /**
   * Requests of each stage before it is measured: the server compiles each action's code over
   * its first thousands (docs/benchmarks.md, Warm-up). At least one per connection.
   */
  warmup: number;
  /** Measured requests of each stage. */
  requests: number;
  /** pgbench: `-s` and `-T`. */
  scale: number;
  seconds: number;
}

export const writePathSizes = (quick: boolean): WritePathSizes =>
  quick
    ? { warmup: CONNECTIONS, requests: 60, scale: 1, seconds: 2 }
    : { warmup: 5_000, requests: 3_000, scale: 10, seconds: 20 };

interface DriverCounts {
  snapshot: number;
  roundTrips: number;
  statements: number;
}

/** The driver's counts in `server` now (it writes them on SIGUSR2). */
async function countsOf(server: RunningChild, file: string): Promise<DriverCounts> {
  const before = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DriverCounts) : null;
  process.kill(server.pid, 'SIGUSR2');
  for (let tries = 0; tries < 200; tries++) {
    await sleep(10);
    if (!existsSync(file)) continue;
    const counts = JSON.parse(readFileSync(file, 'utf8')) as DriverCounts;
    if (counts.snapshot !== before?.snapshot) return counts;
  }
  throw new Error('write path: the server did not write its driver counts');
}

/** pgbench on this machine, or null: Debian keeps it beside the server's binaries. */
function findPgbench(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'pgbench'))) return join(dir, 'pgbench');
  }
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  for (const version of versions.sort().reverse()) {
    const path = join('/usr/lib/postgresql', version, 'bin', 'pgbench');
    if (existsSync(path) && statSync(path).isFile()) return path;
  }
  return null;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} exited ${code}:\n${output.slice(-2000)}`)),
    );
  });
}

/** TPC-B transactions a second, in a database created for it and dropped afterwards; null without pgbench. */
async function pgbenchTps(postgresUrl: string, sizes: WritePathSizes): Promise<number | null> {
  const pgbench = findPgbench();
  if (!pgbench) {
    console.log('  pgbench is not installed: the write path has no floor in this run');
    return null;
  }
  const name = `fulfil_bench_pgbench_${process.pid}`;
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  await withPostgres(postgresUrl, (client) => client.query(`create database ${name}`));
  try {
    await run(pgbench, ['-i', '-q', '-s', String(sizes.scale), url.href]);
    const output = await run(pgbench, [
      ...['-c', '10', '-j', '2', '-T', String(sizes.seconds)],
      url.href,
    ]);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1];
    if (!tps) throw new Error(`pgbench printed no tps:\n${output.slice(-2000)}`);
    console.log(
      `  pgbench TPC-B, scale ${sizes.scale}, 10 clients, ${sizes.seconds} s: ${Number(tps).toFixed(0)} tps`,
    );
    return Number(tps);
  } finally {
    await withPostgres(postgresUrl, (client) =>
      client.query(`drop database if exists ${name} with (force)`),
    );
  }
}

/** The server's Postgres connections, found by the `application_name` its URL gives them. */
const applicationName = () => `fulfil_write_path_${process.pid}`;

interface StageResult {
  result: LoadResult;
  /** Requests answered 2xx, warm-up included. */
  sent: number;
  roundTrips: number;
  statements: number;
  /** ms of CPU a measured request cost the server, and the Postgres backends serving it. */
  serverCpu: number;
  postgresCpu: number;
}

/**
 * A warm-up of `warmup` requests, then `requests` measured ones; request n sends `bodyOf(n)`.
 * The driver counts are read around the measured part only.
 */
async function stage(
  server: RunningChild,
  postgresUrl: string,
  countsFile: string,
  path: string,
  secret: string,
  { warmup, requests }: { warmup: number; requests: number },
  bodyOf: (n: number) => string,
): Promise<StageResult> {
  const send = postsInTurn(server.url + path, secret, bodyOf);
  await send(warmup);
  const before = await countsOf(server, countsFile);
  const backendsBefore = await backendCpu(postgresUrl, applicationName());
  const serverBefore = server.cpuMs();
  const result = await send(requests);
  const serverAfter = server.cpuMs();
  const postgresCpu = await backendCpuSince(postgresUrl, applicationName(), backendsBefore);
  const after = await countsOf(server, countsFile);
  return {
    result,
    sent: warmup + requests,
    roundTrips: (after.roundTrips - before.roundTrips) / result.requests,
    statements: (after.statements - before.statements) / result.requests,
    serverCpu: (serverAfter - serverBefore) / result.requests,
    postgresCpu: postgresCpu / result.requests,
  };
}

/**
 * The warm-up and the measured requests of a stage with `orders` to act on: the bodies built
 * ahead, one per connection after each of the two parts, must exist too.
 */
function requestsFor(orders: number, sizes: WritePathSizes) {
  const possible = orders - sizes.warmup - 2 * CONNECTIONS;
  if (possible < CONNECTIONS) throw new Error(`write path: only ${orders} orders left for a stage`);
  return { warmup: sizes.warmup, requests: Math.min(sizes.requests, possible) };
}

const itemsOf = (order: OrderResource) => order.items.map((item) => ({ item_id: item.id }));

export async function benchWritePath(
  dir: string,
  postgresUrl: string,
  sizes: WritePathSizes,
  serverDbParams?: string,
): Promise<void> {
  const floor = await pgbenchTps(postgresUrl, sizes);
  const database = postgresDatabase(postgresUrl, 'write-path');
  const countsFile = join(dir, 'write-path-counts.json');
  const results: [string, StageResult][] = [];
  try {
    await fillStore(database, { invoiced: 0, pending: SLACK_ORDERS });
    const params = [`application_name=${applicationName()}`, serverDbParams].filter(Boolean);
    const serverUrl = `${database.url}&${params.join('&')}`;
    if (serverDbParams) console.log(`  the server's database URL adds ${serverDbParams}`);
    const server = await startFulfil(dir, serverUrl, 1, [], {
      NODE_OPTIONS: `--import=${COUNTER}`,
      FULFIL_BENCH_COUNTS: countsFile,
    });
    try {
      const intake = await stage(
        server,
        postgresUrl,
        countsFile,
        `${V1}/salesOrders`,
        CHANNEL_SECRET,
        sizes,
        (n) => JSON.stringify({ sales_order: benchSalesOrder(40_000_000 + n) }),
      );
      results.push(['intake (1 sales order x 2 lines)', intake]);

      const pending = await ordersInQueue(database, 'pending_accept');
      const accept = await stage(
        server,
        postgresUrl,
        countsFile,
        `${V1}/fulfillmentOrder/accept`,
        PARTNER_SECRET,
        requestsFor(pending.length, sizes),
        (n) => (pending[n] ? acceptBody(pending[n]) : ''),
      );
      results.push(['accept (2 lines)', accept]);

      const accepted = await ordersInQueue(database, 'pending_allocation');
      const allocate = await stage(
        server,
        postgresUrl,
        countsFile,
        `${V1}/fulfillmentOrder/allocate`,
        ERP_SECRET,
        requestsFor(accepted.length, sizes),
        (n) => {
          const order = accepted[n];
          return order
            ? JSON.stringify({
                allocation: { order_id: order.fulfillment_order_number, items: itemsOf(order) },
              })
            : '';
        },
      );
      results.push(['allocate (2 lines)', allocate]);

      const allocated = await ordersInQueue(database, 'pending_shipment');
      const ship = await stage(
        server,
        postgresUrl,
        countsFile,
        `${V1}/fulfillmentOrder/ship`,
        PARTNER_SECRET,
        requestsFor(allocated.length, sizes),
        (n) => {
          const order = allocated[n];
          return order
            ? JSON.stringify({
                shipment: {
                  order_id: order.fulfillment_order_number,
                  items: itemsOf(order),
                  carrier_title: 'Bench Post',
                  carrier_tracking_number: `BP${n}`,
                },
              })
            : '';
        },
      );
      results.push(['ship (2 lines, 1 track)', ship]);

      const stock = await stage(
        server,
        postgresUrl,
        countsFile,
        `${V1}/stockItems`,
        PARTNER_SECRET,
        sizes,
        (n) =>
          JSON.stringify({
            stock_items: SKUS.map((sku) => ({
              warehouse_code: WAREHOUSE,
              sku,
              qty: 1_000_000_000 - n,
            })),
          }),
      );
      results.push([`stock sync (${SKUS.length} entries)`, stock]);

      const shipped = (await ordersInQueue(database, 'pending_invoice')).length;
      if (shipped !== ship.sent || accepted.length !== accept.sent) {
        throw new Error(
          `write path: ${accept.sent} accepts and ${ship.sent} ships answered 200; Fulfil holds ${accepted.length} accepted and ${shipped} shipped orders`,
        );
      }
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
  for (const [action, result] of results) {
    const cpu = `${result.serverCpu.toFixed(2)} ms CPU/request in the server, ${result.postgresCpu.toFixed(2)} ms in Postgres`;
    console.log(
      `  ${action}: ${describeLoad(result.result)}, ${result.roundTrips.toFixed(1)} round trips and ${result.statements.toFixed(1)} statements a request, ` +
        `${cpu}, ${floor ? `${ratioOf(result.result.requestsPerSecond, floor)} of pgbench` : 'no pgbench'}`,
    );
    addRow({
      scenario: `${action} over HTTP, Postgres, against pgbench TPC-B (round trips a request)`,
      fulfil: `${describeLoad(result.result)}, ${result.roundTrips.toFixed(1)} round trips, ${cpu}`,
      floor: floor ? `${floor.toFixed(0)} tps` : 'no pgbench',
      ratio: floor ? ratioOf(result.result.requestsPerSecond, floor) : '—',
      target:
        action.startsWith('accept') || action.startsWith('intake') || action.startsWith('ship')
          ? '≥ 0.3'
          : '—',
    });
  }
}
