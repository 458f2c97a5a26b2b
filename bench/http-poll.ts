/**
 * Polling a 100-order page of pending_accept over HTTP, JSON and XML: `fulfil serve` against a
 * bare node:http server sending the very bytes Fulfil sent for that page. A repeated poll is
 * mostly answered by the server's response cache, so the same JSON poll is measured again while
 * one client keeps committing stock syncs (every sync empties the cache), with the cache off
 * (every poll a miss), then so going round 20 different polls of the same cost (no two polls
 * at once share a read), then so while a partner accepts orders of the polled page (each accept takes an order
 * off the page and brings the next one in: real traffic), and with the document
 * cache off as well (every poll reads its documents). Then the same JSON poll with
 * `serve --workers 2` against one worker.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningChild, startFloor, startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { PARTNER_SECRET, STORE, WAREHOUSE } from './fill-store.js';
import { CONNECTIONS, describeLoad, type LoadResult, load } from './load.js';
import type { Sizes } from './options.js';
import { acceptFirstOfPage } from './partner-accept.js';
import { addRow, ratioOf } from './summary.js';

const PATH = `/rest/${STORE}/V1/fulfillmentOrders/pending_accept?page=1`;
const FORMATS = { JSON: 'application/json', XML: 'application/xml' } as const;
const TARGETS: Record<string, string> = {
  'SQLite file JSON': '≥ 0.5',
  'Postgres JSON': '≥ 0.3',
};
/** The poll with the response cache off (docs/benchmarks.md). */
const UNCACHED_TARGETS: Record<string, string> = {
  'SQLite file': '≥ 0.4',
  Postgres: '≥ 0.25',
};

/**
 * How many different polls the row of different polls goes round: no two connections ask for
 * the same read at once.
 */
const QUERIES = 20;

/**
 * Warm-up, then the measured load: GET `url` with the partner's token; with `pathOf`, the n-th
 * request GETs that path instead.
 */
export async function measurePoll(
  url: string,
  accept: string,
  sizes: Sizes,
  pathOf?: (n: number) => string,
): Promise<LoadResult> {
  const headers = { authorization: `Bearer ${PARTNER_SECRET}`, accept };
  const paths = pathOf ? { pathOf } : {};
  await load({ url, headers, seconds: sizes.warmupSeconds, ...paths });
  return load({ url, headers, seconds: sizes.seconds, ...paths });
}

/**
 * The n-th request's poll, round {@link QUERIES}: `after=0`, `after=1`… Each asks for the first
 * orders of the queue, a page that costs what page 1 costs, but each is a read of its own.
 */
const queryOf = (n: number) => PATH.replace('page=1', `after=${n % QUERIES}`);

/**
 * Stock syncs of one sku no order holds, one after another with a new quantity each, until
 * `done` resolves; returns how many were answered 200.
 */
async function syncStockUntil(url: string, done: Promise<unknown>): Promise<number> {
  let over = false;
  void done.finally(() => {
    over = true;
  });
  let synced = 0;
  while (!over) {
    const response = await fetch(`${url}/rest/${STORE}/V1/stockItems`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PARTNER_SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        stock_items: [{ warehouse_code: WAREHOUSE, sku: 'SKU-SYNC', qty: 1_000 + synced }],
      }),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`stock sync answered ${response.status}`);
    synced++;
  }
  return synced;
}

/** The JSON poll while stock syncs commit meanwhile: what a poll costs when the cache misses. */
async function measurePollUnderWrites(url: string, sizes: Sizes) {
  const polls = measurePoll(url + PATH, FORMATS.JSON, sizes);
  const started = performance.now();
  const synced = await syncStockUntil(url, polls);
  const seconds = (performance.now() - started) / 1000;
  return { polls: await polls, syncsPerSecond: synced / seconds };
}

/**
 * The accepts the poll under accepts may make: what the pool holds beyond the orders the accept
 * scenario (http-accept.ts) takes afterwards.
 */
function acceptBudget(sizes: Sizes): number {
  return Math.max(
    0,
    sizes.poolOrders - (sizes.acceptWarmup + sizes.acceptRequests + 2 * CONNECTIONS),
  );
}

/**
 * A partner accepting the first order of the page, again and again, `budget` accepts spread
 * evenly over `seconds`, until `done` resolves; returns how many were answered 200.
 */
async function acceptFromPageUntil(
  url: string,
  done: Promise<unknown>,
  budget: number,
  seconds: number,
): Promise<number> {
  let over = false;
  void done.finally(() => {
    over = true;
  });
  const gapMs = (seconds * 1000) / Math.max(1, budget);
  let accepted = 0;
  while (!over && accepted < budget) {
    const started = performance.now();
    if (!(await acceptFirstOfPage(url, url + PATH))) break;
    accepted++;
    await new Promise((resolve) => setTimeout(resolve, gapMs - (performance.now() - started)));
  }
  return accepted;
}

/** What share of the requests a server logged from byte `from` on its response cache answered. */
function hitShare(server: RunningChild, from: number): string {
  const lines = readFileSync(server.log).subarray(from).toString('utf8');
  const requests = lines.match(/"msg":"request"/g)?.length ?? 0;
  const hits = lines.match(/"cache":"hit"/g)?.length ?? 0;
  return requests === 0 ? '' : `, ${Math.round((100 * hits) / requests)}% cache hits`;
}

const logSize = (server: RunningChild): number => statSync(server.log).size;

async function pageBytes(server: RunningChild, accept: string): Promise<Buffer> {
  const response = await fetch(server.url + PATH, {
    headers: { authorization: `Bearer ${PARTNER_SECRET}`, accept },
  });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`poll answered ${response.status}: ${body}`);
  return body;
}

export async function benchHttpPoll(
  database: BenchDatabase,
  dir: string,
  sizes: Sizes,
): Promise<void> {
  let oneWorker: LoadResult | undefined;
  let jsonFloor: LoadResult | undefined;
  /** The floor and ratio columns of a JSON poll row: against the JSON floor of this run. */
  const againstJsonFloor = (ours: LoadResult) => ({
    floor: jsonFloor ? describeLoad(jsonFloor) : '—',
    ratio: jsonFloor ? ratioOf(ours.requestsPerSecond, jsonFloor.requestsPerSecond) : '—',
  });
  const fulfil = await startFulfil(dir, database.url);
  try {
    for (const [format, contentType] of Object.entries(FORMATS)) {
      const bytes = await pageBytes(fulfil, contentType);
      const file = join(dir, `page-${database.kind}.${format.toLowerCase()}`);
      writeFileSync(file, bytes);
      const logged = logSize(fulfil);
      const ours = await measurePoll(fulfil.url + PATH, contentType, sizes);
      const hits = hitShare(fulfil, logged);
      const floorServer = await startFloor(dir, 'bytes', [file, contentType]);
      let floor: LoadResult;
      try {
        floor = await measurePoll(floorServer.url + PATH, contentType, sizes);
      } finally {
        await floorServer.stop();
      }
      if (format === 'JSON') {
        oneWorker = ours;
        jsonFloor = floor;
      }
      addRow({
        scenario: `poll ${format}, 100-order page (${Math.round(bytes.length / 1024)} KB), ${database.label}`,
        fulfil: `${describeLoad(ours)}${hits}`,
        floor: describeLoad(floor),
        ratio: ratioOf(ours.requestsPerSecond, floor.requestsPerSecond),
        target: TARGETS[`${database.label} ${format}`] ?? '—',
      });
    }
    const logged = logSize(fulfil);
    const underWrites = await measurePollUnderWrites(fulfil.url, sizes);
    const hits = hitShare(fulfil, logged);
    addRow({
      scenario: `poll JSON while a client commits stock syncs, ${database.label}`,
      fulfil: `${describeLoad(underWrites.polls)}, ${Math.round(underWrites.syncsPerSecond)} syncs/s${hits}`,
      ...againstJsonFloor(underWrites.polls),
      target: '—',
    });
  } finally {
    await fulfil.stop();
  }
  // Every poll a miss of the response cache: what the read path costs when something commits
  // between every two polls. Then without the document cache too: every poll reads its documents.
  const uncachedRows = [
    {
      flags: ['--response-cache', '0'],
      what: 'response cache off (every poll a miss)',
      target: UNCACHED_TARGETS[database.label] ?? '—',
      alsoOtherTraffic: true,
    },
    {
      flags: ['--response-cache', '0', '--document-cache-mb', '0'],
      what: 'response and document caches off (every poll reads its documents)',
      target: '—',
    },
  ];
  for (const { flags, what, target, alsoOtherTraffic } of uncachedRows) {
    const uncached = await startFulfil(dir, database.url, 1, flags);
    try {
      const ours = await measurePoll(uncached.url + PATH, FORMATS.JSON, sizes);
      addRow({
        scenario: `poll JSON, ${what}, ${database.label}`,
        fulfil: describeLoad(ours),
        ...againstJsonFloor(ours),
        target,
      });
      if (alsoOtherTraffic) {
        const different = await measurePoll(uncached.url + PATH, FORMATS.JSON, sizes, queryOf);
        addRow({
          scenario: `poll JSON, response cache off, ${QUERIES} different polls in turn, ${database.label}`,
          fulfil: describeLoad(different),
          ...againstJsonFloor(different),
          target: '—',
        });
        const polls = measurePoll(uncached.url + PATH, FORMATS.JSON, sizes);
        const seconds = sizes.warmupSeconds + sizes.seconds;
        const started = performance.now();
        const accepted = await acceptFromPageUntil(
          uncached.url,
          polls,
          acceptBudget(sizes),
          seconds,
        );
        const perSecond = accepted / ((performance.now() - started) / 1000);
        const underAccepts = await polls;
        addRow({
          scenario: `poll JSON, response cache off, while a partner accepts orders of the page, ${database.label}`,
          fulfil: `${describeLoad(underAccepts)}, ${Math.round(perSecond)} accepts/s`,
          ...againstJsonFloor(underAccepts),
          target: '—',
        });
      }
    } finally {
      await uncached.stop();
    }
  }
  const twoWorkers = await startFulfil(dir, database.url, 2);
  try {
    const logged = logSize(twoWorkers);
    const ours = await measurePoll(twoWorkers.url + PATH, FORMATS.JSON, sizes);
    addRow({
      scenario: `poll JSON, serve --workers 2 vs 1, ${database.label}`,
      fulfil: `${describeLoad(ours)}${hitShare(twoWorkers, logged)}`,
      floor: oneWorker ? describeLoad(oneWorker) : '—',
      ratio: oneWorker ? ratioOf(ours.requestsPerSecond, oneWorker.requestsPerSecond) : '—',
      target: '—',
    });
  } finally {
    await twoWorkers.stop();
  }
}
