/**
 * A sales channel's intake over HTTP (docs/channel-guide.md), against a bare node:http server
 * taking the same sales orders in with raw prepared statements (floor-schema.ts), one transaction
 * per request on both sides:
 *
 * - one 2-line sales order a request (`POST /V1/salesOrders`). Fulfil writes the fulfillment
 *   order, its lines, its queue entry and document, the sales order as taken in, its feed entry,
 *   the sequence claim and the audit event; the floor writes the order (the sales order as its
 *   header), its lines, its queue entry, the audit event and the stock rows of its skus,
 *   reserving its lines (stock is committed when routed).
 * - batches of 100 (`POST /V1/salesOrders/batch`), orders a second.
 *
 * Afterwards each side must hold exactly as many orders as it answered 201 for.
 */
import { join } from 'node:path';
import { startFloor, startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { benchSalesOrder, CHANNEL_SECRET, fillStore, ordersInQueue, STORE } from './fill-store.js';
import { openFloorPostgres } from './floor-postgres.js';
import { openFloorSqlite } from './floor-sqlite.js';
import { CONNECTIONS, describeLoad, type LoadResult, load } from './load.js';
import type { Sizes } from './options.js';
import { dropSchema } from './raw-postgres.js';
import { addRow, ratioOf } from './summary.js';

const ONE = `/rest/${STORE}/V1/salesOrders`;
const BATCH = `/rest/${STORE}/V1/salesOrders/batch`;
const BATCH_SIZE = 100;

/** Warm-up, then the measured load; each request takes fresh sales orders from `first`. */
async function measure(
  url: string,
  bodyOf: (n: number) => string,
  requests: number,
): Promise<{ result: LoadResult; sent: number }> {
  const headers = { authorization: `Bearer ${CHANNEL_SECRET}`, 'content-type': 'application/json' };
  let used = 0;
  const run = async (amount: number) => {
    const offset = used;
    // autocannon builds each connection's next request ahead: some bodies are built, not sent.
    used += amount + CONNECTIONS;
    return load({ url, method: 'POST', headers, amount, bodyOf: (n) => bodyOf(offset + n) });
  };
  // autocannon wants at least one request per connection.
  const warmup = Math.max(CONNECTIONS, Math.round(requests / 8));
  await run(warmup);
  const result = await run(requests);
  return { result, sent: warmup + requests };
}

const one = (base: number) => (n: number) =>
  JSON.stringify({ sales_order: benchSalesOrder(base + n) });
const hundred = (base: number) => (n: number) =>
  JSON.stringify({
    sales_orders: Array.from({ length: BATCH_SIZE }, (_, k) =>
      benchSalesOrder(base + n * BATCH_SIZE + k),
    ),
  });

async function floorPlace(database: BenchDatabase, dir: string, postgresUrl?: string) {
  if (database.kind === 'sqlite' || !postgresUrl) {
    const file = join(dir, 'floor-intake.db');
    await openFloorSqlite(file, true).close();
    return { mode: 'intake-sqlite', args: [file], drop: async () => {} };
  }
  const schema = `fulfil_bench_floor_intake_${process.pid}`;
  await (await openFloorPostgres(postgresUrl, schema, true)).close();
  return {
    mode: 'intake-postgres',
    args: [postgresUrl, schema],
    drop: () => dropSchema(postgresUrl, schema),
  };
}

export async function benchHttpIntake(
  database: BenchDatabase,
  dir: string,
  sizes: Sizes,
  postgresUrl?: string,
): Promise<void> {
  await fillStore(database, { invoiced: 0, pending: 0 });
  const singles = sizes.acceptRequests;
  const batches = Math.max(CONNECTIONS, Math.round(sizes.acceptRequests / 40));

  const fulfil = await startFulfil(dir, database.url);
  let ours: Awaited<ReturnType<typeof measure>>;
  let oursBatch: Awaited<ReturnType<typeof measure>>;
  try {
    ours = await measure(fulfil.url + ONE, one(10_000_000), singles);
    oursBatch = await measure(fulfil.url + BATCH, hundred(20_000_000), batches);
  } finally {
    await fulfil.stop();
  }
  const place = await floorPlace(database, dir, postgresUrl);
  let floor: Awaited<ReturnType<typeof measure>>;
  let floorBatch: Awaited<ReturnType<typeof measure>>;
  let floorHeld: number;
  try {
    const server = await startFloor(dir, place.mode, place.args);
    try {
      floor = await measure(server.url, one(10_000_000), singles);
      floorBatch = await measure(server.url, hundred(20_000_000), batches);
      const answer = await fetch(server.url);
      floorHeld = ((await answer.json()) as { pending_accept: number }).pending_accept;
    } finally {
      await server.stop();
    }
  } finally {
    await place.drop();
  }
  const held = (await ordersInQueue(database, 'pending_accept')).length;
  const expected = ours.sent + oursBatch.sent * BATCH_SIZE;
  const floorExpected = floor.sent + floorBatch.sent * BATCH_SIZE;
  if (held !== expected || floorHeld !== floorExpected) {
    throw new Error(
      `intake: Fulfil holds ${held} orders of ${expected} answered 201, the floor ${floorHeld} of ${floorExpected}`,
    );
  }
  addRow({
    scenario: `intake over HTTP, 1 sales order x 2 lines per request, ${database.label}`,
    fulfil: describeLoad(ours.result),
    floor: describeLoad(floor.result),
    ratio: ratioOf(ours.result.requestsPerSecond, floor.result.requestsPerSecond),
    target: '≥ 0.5',
  });
  const perSecond = (result: LoadResult) => Math.round(result.requestsPerSecond * BATCH_SIZE);
  addRow({
    scenario: `batch intake over HTTP, 100 sales orders x 2 lines per request, ${database.label}`,
    fulfil: `${perSecond(oursBatch.result)} orders/s (${describeLoad(oursBatch.result)})`,
    floor: `${perSecond(floorBatch.result)} orders/s`,
    ratio: ratioOf(oursBatch.result.requestsPerSecond, floorBatch.result.requestsPerSecond),
    target: database.kind === 'sqlite' ? '≥ 5,000 orders/s' : '—',
  });
}
