/**
 * Polling a 100-order page of pending_accept over HTTP, JSON and XML: `fulfil serve` against a
 * bare node:http server sending the very bytes Fulfil sent for that page. Then the same JSON
 * poll with `serve --workers 2` against one worker.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningChild, startFloor, startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { PARTNER_SECRET, STORE } from './fill-store.js';
import { describeLoad, type LoadResult, load } from './load.js';
import type { Sizes } from './options.js';
import { addRow, ratioOf } from './summary.js';

const PATH = `/rest/${STORE}/V1/fulfillmentOrders/pending_accept?page=1`;
const FORMATS = { JSON: 'application/json', XML: 'application/xml' } as const;
const TARGETS: Record<string, string> = {
  'SQLite file JSON': '≥ 0.5',
  'Postgres JSON': '≥ 0.3',
};

/** Warm-up, then the measured load: GET `url` with the partner's token. */
export async function measurePoll(url: string, accept: string, sizes: Sizes): Promise<LoadResult> {
  const headers = { authorization: `Bearer ${PARTNER_SECRET}`, accept };
  await load({ url, headers, seconds: sizes.warmupSeconds });
  return load({ url, headers, seconds: sizes.seconds });
}

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
  const fulfil = await startFulfil(dir, database.url);
  try {
    for (const [format, contentType] of Object.entries(FORMATS)) {
      const bytes = await pageBytes(fulfil, contentType);
      const file = join(dir, `page-${database.kind}.${format.toLowerCase()}`);
      writeFileSync(file, bytes);
      const ours = await measurePoll(fulfil.url + PATH, contentType, sizes);
      const floorServer = await startFloor(dir, 'bytes', [file, contentType]);
      let floor: LoadResult;
      try {
        floor = await measurePoll(floorServer.url + PATH, contentType, sizes);
      } finally {
        await floorServer.stop();
      }
      if (format === 'JSON') oneWorker = ours;
      addRow({
        scenario: `poll ${format}, 100-order page (${Math.round(bytes.length / 1024)} KB), ${database.label}`,
        fulfil: describeLoad(ours),
        floor: describeLoad(floor),
        ratio: ratioOf(ours.requestsPerSecond, floor.requestsPerSecond),
        target: TARGETS[`${database.label} ${format}`] ?? '—',
      });
    }
  } finally {
    await fulfil.stop();
  }
  const twoWorkers = await startFulfil(dir, database.url, 2);
  try {
    const ours = await measurePoll(twoWorkers.url + PATH, FORMATS.JSON, sizes);
    addRow({
      scenario: `poll JSON, serve --workers 2 vs 1, ${database.label}`,
      fulfil: describeLoad(ours),
      floor: oneWorker ? describeLoad(oneWorker) : '—',
      ratio: oneWorker ? ratioOf(ours.requestsPerSecond, oneWorker.requestsPerSecond) : '—',
      target: '—',
    });
  } finally {
    await twoWorkers.stop();
  }
}
