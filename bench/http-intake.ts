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
 * The floor runs twice, each in a database of its own: reserving (one `reserved = reserved + qty`
 * update a line) and not reserving (the stock rows written, nothing reserved: its intake before
 * stock was committed at routing). Rows side by side in one run: Fulfil against the floor
 * reserving (the target), the floor reserving against the floor not reserving (what the
 * reservation costs the floor), and Fulfil against the floor not reserving. Fulfil has no intake
 * that does not reserve: it is measured once.
 *
 * Afterwards each side must hold exactly as many orders as it answered 201 for.
 */
import { join } from 'node:path';
import { startFloor, startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { benchSalesOrder, CHANNEL_SECRET, fillStore, ordersInQueue, STORE } from './fill-store.js';
import { openFloorPostgres } from './floor-postgres.js';
import { openFloorSqlite } from './floor-sqlite.js';
import type { FloorReservation } from './floor-store.js';
import { CONNECTIONS, describeLoad, type LoadResult, postsInTurn } from './load.js';
import type { Sizes } from './options.js';
import { dropSchema } from './raw-postgres.js';
import { addRow, ratioOf } from './summary.js';

const ONE = `/rest/${STORE}/V1/salesOrders`;
const BATCH = `/rest/${STORE}/V1/salesOrders/batch`;
const BATCH_SIZE = 100;

/** Requests of one kind a side sends: a warm-up, then the measured ones. */
interface Load {
  warmup: number;
  measured: number;
}

/**
 * Warm-up, then the measured load; each request takes fresh sales orders from `first`. With the
 * server's CPU time so far (`cpuMs`), also the CPU the server spent per measured request.
 */
async function measure(
  url: string,
  bodyOf: (n: number) => string,
  requests: Load,
  cpuMs: () => number,
): Promise<{ result: LoadResult; sent: number; cpuPerRequest: number }> {
  const run = postsInTurn(url, CHANNEL_SECRET, bodyOf);
  // autocannon wants at least one request per connection.
  const warmup = Math.max(CONNECTIONS, requests.warmup);
  await run(warmup);
  const before = cpuMs();
  const result = await run(requests.measured);
  return {
    result,
    sent: warmup + requests.measured,
    cpuPerRequest: (cpuMs() - before) / result.requests,
  };
}

const one = (base: number) => (n: number) =>
  JSON.stringify({ sales_order: benchSalesOrder(base + n) });
const hundred = (base: number) => (n: number) =>
  JSON.stringify({
    sales_orders: Array.from({ length: BATCH_SIZE }, (_, k) =>
      benchSalesOrder(base + n * BATCH_SIZE + k),
    ),
  });

/** A floor's database of its own, `reservation` naming it: a file, or a Postgres schema. */
async function floorPlace(
  database: BenchDatabase,
  dir: string,
  reservation: FloorReservation,
  postgresUrl?: string,
) {
  const name = reservation === 'reserving' ? 'reserving' : 'not_reserving';
  const arg = reservation === 'reserving' ? 'reserving' : 'not-reserving';
  if (database.kind === 'sqlite' || !postgresUrl) {
    const file = join(dir, `floor-intake-${name}.db`);
    await openFloorSqlite(file, true).close();
    return { mode: 'intake-sqlite', args: [file, arg], drop: async () => {} };
  }
  const schema = `fulfil_bench_floor_intake_${name}_${process.pid}`;
  await (await openFloorPostgres(postgresUrl, schema, true)).close();
  return {
    mode: 'intake-postgres',
    args: [postgresUrl, schema, arg],
    drop: () => dropSchema(postgresUrl, schema),
  };
}

interface IntakeRun {
  single: Awaited<ReturnType<typeof measure>>;
  batch: Awaited<ReturnType<typeof measure>>;
}

/** The floor's singles then batches, in a database of its own; checks what it holds after. */
async function measureFloor(
  database: BenchDatabase,
  dir: string,
  reservation: FloorReservation,
  singles: Load,
  batches: Load,
  postgresUrl?: string,
): Promise<IntakeRun> {
  const place = await floorPlace(database, dir, reservation, postgresUrl);
  try {
    const server = await startFloor(dir, place.mode, place.args);
    try {
      const single = await measure(server.url, one(10_000_000), singles, server.cpuMs);
      const batch = await measure(server.url, hundred(20_000_000), batches, server.cpuMs);
      const answer = await fetch(server.url);
      const held = ((await answer.json()) as { pending_accept: number }).pending_accept;
      const expected = single.sent + batch.sent * BATCH_SIZE;
      if (held !== expected) {
        throw new Error(
          `intake: the floor ${reservation} holds ${held} orders of ${expected} answered 201`,
        );
      }
      return { single, batch };
    } finally {
      await server.stop();
    }
  } finally {
    await place.drop();
  }
}

export async function benchHttpIntake(
  database: BenchDatabase,
  dir: string,
  sizes: Sizes,
  postgresUrl?: string,
): Promise<void> {
  await fillStore(database, { invoiced: 0, pending: 0 });
  // Each side's server is warmed with as many orders, singly and then in batches.
  const singles = { warmup: sizes.warmupRequests, measured: sizes.acceptRequests };
  const batches = {
    warmup: Math.ceil(sizes.warmupRequests / BATCH_SIZE),
    measured: Math.max(CONNECTIONS, Math.round(sizes.acceptRequests / 40)),
  };

  const fulfil = await startFulfil(dir, database.url);
  let ours: IntakeRun;
  try {
    ours = {
      single: await measure(fulfil.url + ONE, one(10_000_000), singles, fulfil.cpuMs),
      batch: await measure(fulfil.url + BATCH, hundred(20_000_000), batches, fulfil.cpuMs),
    };
  } finally {
    await fulfil.stop();
  }
  const held = (await ordersInQueue(database, 'pending_accept')).length;
  const expected = ours.single.sent + ours.batch.sent * BATCH_SIZE;
  if (held !== expected) {
    throw new Error(`intake: Fulfil holds ${held} orders of ${expected} answered 201`);
  }
  const reserving = await measureFloor(database, dir, 'reserving', singles, batches, postgresUrl);
  const notReserving = await measureFloor(
    database,
    dir,
    'not reserving',
    singles,
    batches,
    postgresUrl,
  );

  const perSecond = (result: LoadResult) => Math.round(result.requestsPerSecond * BATCH_SIZE);
  /** One summary row: `side` against `floor`, of the single or the batch intakes. */
  const row = (
    kind: keyof IntakeRun,
    scenario: string,
    side: IntakeRun,
    floor: IntakeRun,
    target: string,
    label = '',
  ) => {
    const ours = side[kind].result;
    const theirs = floor[kind].result;
    const batch = kind === 'batch';
    const cpu = (run: IntakeRun) => `${run[kind].cpuPerRequest.toFixed(2)} ms CPU/request`;
    addRow({
      scenario: `${batch ? 'batch ' : ''}${scenario}, ${batch ? '100 sales orders' : '1 sales order'} x 2 lines per request, ${database.label}`,
      fulfil: `${label}${batch ? `${perSecond(ours)} orders/s (${describeLoad(ours)})` : describeLoad(ours)}, ${cpu(side)}`,
      floor: `${batch ? `${perSecond(theirs)} orders/s` : describeLoad(theirs)}, ${cpu(floor)}`,
      ratio: ratioOf(ours.requestsPerSecond, theirs.requestsPerSecond),
      target,
    });
  };
  row('single', 'intake over HTTP', ours, reserving, '≥ 0.5');
  row(
    'batch',
    'intake over HTTP',
    ours,
    reserving,
    database.kind === 'sqlite' ? '≥ 5,000 orders/s' : '—',
  );
  // Side by side, same run: what the reservation costs the floor, and Fulfil against the floor
  // that does not reserve (the floor's intake before stock was committed at routing).
  for (const kind of ['single', 'batch'] as const) {
    row(
      kind,
      'intake over HTTP, floor reserving vs floor not reserving',
      reserving,
      notReserving,
      '—',
      'floor reserving: ',
    );
    row(kind, 'intake over HTTP vs floor not reserving', ours, notReserving, '—');
  }
}
