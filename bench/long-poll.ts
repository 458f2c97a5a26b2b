/**
 * Long polling (docs/polling.md), each row against a bare node:http floor of the same run:
 *
 * - wake-up: a partner waits (`since` + `wait`) on pending_allocation; an accept commits on the
 *   server and the waiter has the order. Floor: a node:http server that holds a GET and answers
 *   it when a POST arrives (floor-server.ts `wake`). p50/p99 of the time from the commit's
 *   answer (or the floor's POST answer) to the waiter's answer.
 * - across processes: the same, the commit made by another process (an intake in this one), the
 *   server `serve --workers 2` on Postgres: the wake-up travels by NOTIFY.
 * - idle waiters: N requests held for a while: the server's RSS growth and database connections
 *   against the floor holding as many.
 * - an idle `watch()`: requests a minute, against a partner polling every 30 s.
 */
import { createEngine } from '@fulfil/core';
import { createClient } from '../packages/client/src/index.js';
import { type RunningChild, startFloor, startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import {
  benchSalesOrder,
  CHANNEL_SECRET,
  ERP_SECRET,
  fillStore,
  PARTNER_SECRET,
  STORE,
} from './fill-store.js';
import { acceptFirstOfPage } from './partner-accept.js';
import { withPostgres } from './raw-postgres.js';
import { addRow, ratioOf } from './summary.js';

export interface LongPollSizes {
  wakeUps: number;
  idleWaiters: number;
  idleSeconds: number;
  watchSeconds: number;
  /** `serve --max-wait` for the idle rows: how long one held request lasts. */
  maxWait: number;
}

export function longPollSizes(quick: boolean): LongPollSizes {
  return quick
    ? { wakeUps: 5, idleWaiters: 20, idleSeconds: 2, watchSeconds: 2, maxWait: 1 }
    : { wakeUps: 100, idleWaiters: 1_000, idleSeconds: 60, watchSeconds: 90, maxWait: 25 };
}

const QUEUE = `/rest/${STORE}/V1/fulfillmentOrders`;
/** The idle waiters' server names its Postgres connections so: only they are counted. */
const APPLICATION_NAME = `fulfil_bench_waits_${process.pid}`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;

async function getJson(url: string, token: string) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { id: number; fulfillment_order_number: string }[];
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  return { body, cursor: response.headers.get('fulfil-cursor') as string };
}

/** One wake-up of the floor: hold a GET, POST, time from the POST's answer to the GET's. */
async function floorWakeUp(floor: RunningChild): Promise<number> {
  const waiting = fetch(`${floor.url}/wait`).then(async (response) => {
    await response.arrayBuffer();
    return performance.now();
  });
  // The GET must be held before the POST that answers it: fire until one was.
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const fire = await fetch(`${floor.url}/fire`, { method: 'POST' });
    const { woke } = (await fire.json()) as { woke: number };
    const fired = performance.now();
    if (woke > 0) return Math.max(0, (await waiting) - fired);
  }
}

async function floorWakeUps(dir: string, count: number): Promise<number[]> {
  const floor = await startFloor(dir, 'wake', []);
  try {
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(await floorWakeUp(floor));
    return times;
  } finally {
    await floor.stop();
  }
}

/**
 * Wake-ups through the server: `token` waits on `path` (a queue, the sales orders feed) since its
 * cursor; `commit` puts something there and resolves once the commit is acknowledged.
 */
const missed = { count: 0 };

async function wakeUps(
  server: RunningChild,
  path: string,
  token: string,
  count: number,
  commit: (n: number) => Promise<void>,
): Promise<number[]> {
  const url = `${server.url}${path}`;
  let { cursor } = await getJson(`${url}?after=${Number.MAX_SAFE_INTEGER}`, token);
  const times: number[] = [];
  for (let n = 0; n < count; n++) {
    const waiting = getJson(`${url}?since=${cursor}&wait=20`, token).then((answer) => ({
      answer,
      at: performance.now(),
    }));
    // The poll must be held before the commit: a moment to send it and find nothing.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await commit(n);
    const committed = performance.now();
    const { answer, at } = await waiting;
    cursor = answer.cursor;
    // A wait that ended without the order is a wake-up missed: counted, and shown in the row.
    if (answer.body.length === 0) missed.count += 1;
    else times.push(Math.max(0, at - committed));
  }
  return times;
}

/** Accepts the partner's next pending order over HTTP: one commit on the server. */
function acceptOver(server: RunningChild) {
  return async () => {
    const pageUrl = `${server.url}${QUEUE}/pending_accept?after=0`;
    if (!(await acceptFirstOfPage(server.url, pageUrl))) throw new Error('no order left to accept');
  };
}

/** Hands a new sales order in over HTTP as the channel: one commit on the server. */
function intakeOver(server: RunningChild) {
  return async (n: number) => {
    const response = await fetch(`${server.url}/rest/${STORE}/V1/salesOrders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CHANNEL_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sales_order: benchSalesOrder(900_000 + n) }),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`intake answered ${response.status}`);
  };
}

function wakeRow(scenario: string, ours: number[], floor: number[], target: string) {
  const lost =
    missed.count > 0
      ? `, ${missed.count} wake-ups missed (answered [] at the end of the wait)`
      : '';
  missed.count = 0;
  addRow({
    scenario,
    fulfil: `p50 ${ms(percentile(ours, 50))}, p99 ${ms(percentile(ours, 99))}${lost}`,
    floor: `p50 ${ms(percentile(floor, 50))}, p99 ${ms(percentile(floor, 99))}`,
    ratio: ratioOf(percentile(floor, 99), percentile(ours, 99)),
    target,
  });
}

/**
 * Postgres connections of the server under test (application_name `fulfil`): open, and busy (in
 * a statement or a transaction) at this moment; null off Postgres.
 */
async function connectionsOf(postgresUrl: string | undefined): Promise<string | null> {
  if (!postgresUrl) return null;
  return withPostgres(postgresUrl, async (client) => {
    const { rows } = await client.query<{ open: number; busy: number }>(
      "select count(*)::int as open, (count(*) filter (where state <> 'idle'))::int as busy" +
        ' from pg_stat_activity where application_name = $1',
      [APPLICATION_NAME],
    );
    return `${rows[0]?.open ?? 0} open (${rows[0]?.busy ?? 0} busy)`;
  });
}

/** Holds `count` requests on `url` for `seconds` (each asked again when answered). */
async function holdWaiters(url: string, token: string | null, count: number, seconds: number) {
  const until = performance.now() + seconds * 1000;
  const one = async () => {
    while (performance.now() < until) {
      const response = await fetch(url, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }).catch(() => null);
      await response?.arrayBuffer().catch(() => {});
      if (response && response.status !== 200) throw new Error(`a waiter got ${response.status}`);
    }
  };
  return Promise.all(Array.from({ length: count }, one));
}

export async function benchLongPoll(
  database: BenchDatabase,
  dir: string,
  sizes: LongPollSizes,
  postgresUrl: string | undefined,
): Promise<void> {
  const pgUrl = database.kind === 'postgres' ? postgresUrl : undefined;
  await fillStore(database, { invoiced: 0, pending: sizes.wakeUps + 10 });
  const floorTimes = await floorWakeUps(dir, sizes.wakeUps);

  // One process: the accept and the waiter on the same server.
  const server = await startFulfil(dir, database.url, 1, [
    '--max-waiters-per-token',
    String(sizes.idleWaiters + 10),
  ]);
  try {
    const ours = await wakeUps(
      server,
      `${QUEUE}/pending_allocation`,
      ERP_SECRET,
      sizes.wakeUps,
      acceptOver(server),
    );
    wakeRow(
      `wake-up: accept commit → waiting ERP has the order, one process, ${database.label}`,
      ours,
      floorTimes,
      'p99 ≤ 50 ms',
    );
    // A sales channel holds its feed; a sales order handed in over HTTP is the commit.
    const channelTimes = await wakeUps(
      server,
      `/rest/${STORE}/V1/salesOrders`,
      CHANNEL_SECRET,
      sizes.wakeUps,
      intakeOver(server),
    );
    wakeRow(
      `feed wake-up: intake commit → the channel's held wait has the change, one process, ${database.label}`,
      channelTimes,
      floorTimes,
      'p99 ≤ 50 ms',
    );
  } finally {
    await server.stop();
  }

  if (database.kind === 'postgres') {
    const workers = await startFulfil(dir, database.url, 2);
    const repository = await database.open();
    const engine = createEngine({ repository });
    try {
      // The commit is an intake in this process: another process than either worker.
      const partnerTimes = await wakeUps(
        workers,
        `${QUEUE}/pending_accept`,
        PARTNER_SECRET,
        sizes.wakeUps,
        async (n) => {
          await engine.intake(STORE, benchSalesOrder(800_000 + n));
        },
      );
      wakeRow(
        `wake-up across processes (intake in another process, serve --workers 2), ${database.label}`,
        partnerTimes,
        floorTimes,
        'p99 ≤ 250 ms',
      );
    } finally {
      await engine.close();
      await workers.stop();
    }
  }

  // Idle waiters: RSS growth and database connections while they are held.
  const waitingUrl = pgUrl
    ? `${database.url}${database.url.includes('?') ? '&' : '?'}application_name=${APPLICATION_NAME}`
    : database.url;
  const waiting = await startFulfil(dir, waitingUrl, 1, [
    '--max-wait',
    String(sizes.maxWait),
    '--max-waiters-per-token',
    String(sizes.idleWaiters + 10),
  ]);
  const floor = await startFloor(dir, 'wake', []);
  try {
    const { cursor } = await getJson(`${waiting.url}${QUEUE}/pending_shipment`, PARTNER_SECRET);
    const baseConnections = await connectionsOf(pgUrl);
    const rssBefore = waiting.rssMb();
    const floorBefore = floor.rssMb();
    const ours = holdWaiters(
      `${waiting.url}${QUEUE}/pending_shipment?since=${cursor}&wait=${sizes.maxWait}`,
      PARTNER_SECRET,
      sizes.idleWaiters,
      sizes.idleSeconds,
    );
    const floorHeld = holdWaiters(`${floor.url}/wait`, null, sizes.idleWaiters, 0.1);
    // Sampled while the requests are held: a quarter, half and three quarters of the way.
    const samples: (string | null)[] = [];
    for (let quarter = 1; quarter <= 3; quarter++) {
      await new Promise((resolve) => setTimeout(resolve, (sizes.idleSeconds * 1000) / 4));
      samples.push(await connectionsOf(pgUrl));
    }
    const rssAfter = waiting.rssMb();
    const floorAfter = floor.rssMb();
    await ours;
    await fetch(`${floor.url}/fire`, { method: 'POST' }).then((r) => r.arrayBuffer());
    await floorHeld;
    const growth = rssAfter - rssBefore;
    const floorGrowth = floorAfter - floorBefore;
    const connections =
      baseConnections === null ? '' : `, DB connections ${baseConnections} → ${samples.join(', ')}`;
    addRow({
      scenario: `${sizes.idleWaiters} idle waiters held ${sizes.idleSeconds} s, ${database.label}`,
      fulfil: `RSS ${signed(growth)} MB${connections}`,
      floor: `RSS ${signed(floorGrowth)} MB (node:http holding as many)`,
      ratio: ratioOf(Math.max(floorGrowth, 0.1), Math.max(growth, 0.1)),
      target: 'RSS growth < 50 MB; connections at the pool baseline',
    });

    // An idle watch(): how many requests a minute it sends.
    const longPolls: number[] = [];
    const client = createClient({
      baseUrl: waiting.url,
      storeCode: STORE,
      token: PARTNER_SECRET,
      fetch: (url, init) => {
        if (url.includes('since=')) longPolls.push(performance.now());
        return globalThis.fetch(url, init as RequestInit);
      },
    });
    const controller = new AbortController();
    const watch = client.watch('pending_shipment', {
      wait: sizes.maxWait,
      signal: controller.signal,
    });
    const stopAt = setTimeout(() => controller.abort(), sizes.watchSeconds * 1000);
    for await (const _ of watch) {
      // pending_shipment is empty: nothing comes.
    }
    clearTimeout(stopAt);
    // Steady state: the long polls one after another (the first pass over the queue left out).
    const spans = longPolls.slice(1).map((at, i) => at - (longPolls[i] as number));
    const meanMs = spans.reduce((sum, span) => sum + span, 0) / Math.max(spans.length, 1);
    const perMinute = spans.length > 0 ? 60_000 / meanMs : Number.NaN;
    addRow({
      scenario: `idle watch() (--max-wait ${sizes.maxWait} s) for ${sizes.watchSeconds} s, ${database.label}`,
      fulfil: `${perMinute.toFixed(1)} requests/min (${longPolls.length} long polls, one every ${(meanMs / 1000).toFixed(1)} s)`,
      floor: '2.0 requests/min (a partner polling every 30 s)',
      ratio: ratioOf(2, perMinute),
      target: '≤ 3 requests a minute',
    });
  } finally {
    await floor.stop();
    await waiting.stop();
  }
}
