/**
 * The largest orders the server takes (docs/limits.md: 1,000 lines), and held feed polls, each
 * row against the same server idle in the same run (the floor: `/health` with nothing else to do):
 *
 * - intake: sales orders of the most lines over HTTP, against orders of 100 lines: the time per
 *   line of each (an order's cost is linear in its lines when the two are close), and `/health`
 *   p99 while the large ones go in.
 * - a queue page and a feed page of such orders (`after=0`): the page's bytes (bounded by
 *   `PAGE_TEXT_LIMIT`), how long it takes, and `/health` p99 while it is fetched in a loop.
 * - held polls: N requests held on the sales order feed (`since` + `wait`), against N held on a
 *   queue: `/health` p99 while they are held, one commit halfway waking them all.
 */
import { MAX_ORDER_LINES } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { type RunningChild, startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { CHANNEL_SECRET, fillStore, PARTNER_SECRET, SKUS, STORE, WAREHOUSE } from './fill-store.js';
import { addRow, ratioOf } from './summary.js';

export interface LargeOrderSizes {
  /** Largest orders taken in, then paged. */
  orders: number;
  /** Page fetches per page row. */
  fetches: number;
  /** Requests held on the feed, and on a queue. */
  held: number;
  /** Seconds they are held. */
  heldSeconds: number;
}

export function largeOrderSizes(quick: boolean): LargeOrderSizes {
  return quick
    ? { orders: 3, fetches: 3, held: 50, heldSeconds: 2 }
    : { orders: 12, fetches: 20, held: 2_000, heldSeconds: 10 };
}

/** The smaller orders an order of the most lines is compared with, line for line. */
const SMALLER = 100;

const ms = (value: number) => `${value.toFixed(1)} ms`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** A sales order of `lines` lines at the bench warehouse; names of 100 characters. */
function order(number: number, lines: number) {
  return fixtures.salesOrder(
    String(600_000_000 + number),
    Array.from({ length: lines }, (_, index) => ({
      sku: SKUS[index % SKUS.length] as string,
      qty: 1,
      name: `${'Product '.repeat(12)}${index}`,
    })),
    { warehouse_code: WAREHOUSE },
  );
}

/** `/health` asked one after another until `done` resolves: each answer's time, in ms. */
async function healthWhile(server: RunningChild, done: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  while (!finished) {
    const started = performance.now();
    const response = await fetch(`${server.url}/health`);
    await response.arrayBuffer();
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return times;
}

/** `/health` p99 of the server idle: the floor every row is compared with. */
async function idleHealth(server: RunningChild): Promise<number> {
  const pause = new Promise((resolve) => setTimeout(resolve, 1_000));
  return percentile(await healthWhile(server, pause), 99);
}

async function post(server: RunningChild, path: string, body: unknown, token: string) {
  const response = await fetch(`${server.url}/rest/${STORE}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (response.status >= 300) throw new Error(`POST ${path}: ${response.status}`);
}

async function get(server: RunningChild, path: string, token: string) {
  const response = await fetch(`${server.url}/rest/${STORE}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
  return { bytes, cursor: response.headers.get('fulfil-cursor') as string };
}

/** Intakes of `count` orders of `lines` lines: ms per line of each. */
async function intakes(server: RunningChild, first: number, count: number, lines: number) {
  const perLine: number[] = [];
  for (let n = 0; n < count; n++) {
    const started = performance.now();
    await post(server, '/V1/salesOrders', { sales_order: order(first + n, lines) }, CHANNEL_SECRET);
    perLine.push((performance.now() - started) / lines);
  }
  return perLine;
}

/** Fetches `path` `count` times: its bytes and the p50 of its time. */
async function pages(server: RunningChild, path: string, token: string, count: number) {
  const times: number[] = [];
  let bytes = 0;
  for (let n = 0; n < count; n++) {
    const started = performance.now();
    bytes = (await get(server, path, token)).bytes;
    times.push(performance.now() - started);
  }
  return { bytes, p50: percentile(times, 50) };
}

/** Held requests that were not answered 200 (shed, reset), per row. */
const failures = { count: 0 };

/**
 * Holds `count` requests on `path` (`since` + `wait`) for `seconds`, each asked again when
 * answered, from the cursor of its last answer, as a follower does.
 */
async function hold(
  server: RunningChild,
  path: string,
  token: string,
  count: number,
  seconds: number,
) {
  const until = performance.now() + seconds * 1000;
  const { cursor: start } = await get(server, `${path}?after=${Number.MAX_SAFE_INTEGER}`, token);
  const one = async () => {
    let cursor = start;
    while (performance.now() < until) {
      const response = await fetch(
        `${server.url}/rest/${STORE}${path}?since=${encodeURIComponent(cursor)}&wait=${seconds}`,
        { headers: { authorization: `Bearer ${token}` } },
      ).catch(() => null);
      await response?.arrayBuffer().catch(() => {});
      // Refused or cut (the server sheds load, the connection resets): counted, and asked again.
      if (response?.status !== 200) {
        failures.count += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      cursor = response.headers.get('fulfil-cursor') as string;
    }
  };
  return Promise.all(Array.from({ length: count }, one));
}

/**
 * `/health` p99 while `count` requests are held on `path`, and one small intake halfway wakes
 * them all (the feed's followers and `pending_accept`'s each have it, and ask again).
 */
async function heldHealth(
  server: RunningChild,
  path: string,
  token: string,
  sizes: LargeOrderSizes,
  first: number,
): Promise<{ p99: number; text: string }> {
  const held = hold(server, path, token, sizes.held, sizes.heldSeconds);
  const commits = (async () => {
    await new Promise((resolve) => setTimeout(resolve, (sizes.heldSeconds * 1000) / 2));
    await post(server, '/V1/salesOrders', { sales_order: order(first, 2) }, CHANNEL_SECRET);
  })();
  // Measured once every request is held: a moment after they were sent.
  await new Promise((resolve) => setTimeout(resolve, 500));
  failures.count = 0;
  const times = await healthWhile(server, Promise.all([held, commits]));
  const p99 = ms(percentile(times, 99));
  return {
    p99: percentile(times, 99),
    text: failures.count ? `${p99} (${failures.count} not 200)` : p99,
  };
}

export async function benchLargeOrders(
  database: BenchDatabase,
  dir: string,
  sizes: LargeOrderSizes,
): Promise<void> {
  await fillStore(database, { invoiced: 0, pending: 0 });
  const server = await startFulfil(dir, database.url, 1, [
    '--max-wait',
    String(sizes.heldSeconds + 5),
    '--max-waiters-per-token',
    String(sizes.held + 10),
    '--max-waiters',
    String(2 * sizes.held + 10),
  ]);
  try {
    const floor = await idleHealth(server);
    const label = database.label;

    const small = await intakes(server, 0, sizes.orders, SMALLER);
    const largeDone = intakes(server, 1_000, sizes.orders, MAX_ORDER_LINES);
    const duringIntake = await healthWhile(server, largeDone);
    const large = await largeDone;
    addRow({
      scenario: `intake of ${MAX_ORDER_LINES}-line sales orders, ${label}`,
      fulfil: `${percentile(large, 50).toFixed(3)} ms a line; /health p99 ${ms(percentile(duringIntake, 99))} meanwhile`,
      floor: `${SMALLER}-line orders: ${percentile(small, 50).toFixed(3)} ms a line`,
      ratio: ratioOf(percentile(small, 50), percentile(large, 50)),
      target: 'a line costs what it costs in a smaller order (ratio ≈ 1)',
    });

    for (const [name, path, token] of [
      [
        'queue page (pending_accept, after=0)',
        '/V1/fulfillmentOrders/pending_accept',
        PARTNER_SECRET,
      ],
      ['sales order feed page (after=0)', '/V1/salesOrders', CHANNEL_SECRET],
    ] as const) {
      const fetched = pages(server, `${path}?after=0`, token, sizes.fetches);
      const during = await healthWhile(server, fetched);
      const { bytes, p50 } = await fetched;
      addRow({
        scenario: `${name} of ${sizes.orders} ${MAX_ORDER_LINES}-line orders, ${label}`,
        fulfil: `${(bytes / 1024).toFixed(0)} KiB, p50 ${ms(p50)}; /health p99 ${ms(percentile(during, 99))}`,
        floor: `/health p99 idle ${ms(floor)}`,
        ratio: ratioOf(floor, percentile(during, 99)),
        target: 'page ≤ 1 MiB of JSON',
      });
    }

    // Each commit brings an order to both: the queue's followers are answered as the feed's.
    const queueHeld = await heldHealth(
      server,
      '/V1/fulfillmentOrders/pending_accept',
      PARTNER_SECRET,
      sizes,
      10_000,
    );
    const feedHeld = await heldHealth(server, '/V1/salesOrders', CHANNEL_SECRET, sizes, 20_000);
    addRow({
      scenario: `${sizes.held} held feed polls (one commit wakes them), ${label}`,
      fulfil: `/health p99 ${feedHeld.text}`,
      floor: `${sizes.held} held queue polls: /health p99 ${queueHeld.text}`,
      ratio: ratioOf(queueHeld.p99, feedHeld.p99),
      target: 'as cheap as held queue polls',
    });
  } finally {
    await server.stop();
  }
}
