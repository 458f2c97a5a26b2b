/**
 * Does a poll's cost grow with the orders a store has kept? The first page of pending_accept
 * (JSON) over HTTP on a database of 10k orders against one of 1M (`--orders`), most of them
 * invoiced and the same number pending in both; then the server's resident memory after that
 * load on the large one. The response cache is off, so every poll reads its page from the
 * database: that read is what could grow with the orders stored.
 */
import { startFulfil } from './child.js';
import type { BenchDatabase } from './databases.js';
import { fillStore, PARTNER_SECRET, STORE } from './fill-store.js';
import { describeLoad, type LoadResult, load } from './load.js';
import type { Sizes } from './options.js';
import { addRow, ratioOf } from './summary.js';

const PATH = `/rest/${STORE}/V1/fulfillmentOrders/pending_accept?page=1`;

const count = (n: number) =>
  n >= 1_000_000 && n % 1_000_000 === 0
    ? `${n / 1_000_000}M`
    : n >= 1_000 && n % 1_000 === 0
      ? `${n / 1_000}k`
      : String(n);

async function pollOn(
  database: BenchDatabase,
  orders: number,
  dir: string,
  sizes: Sizes,
): Promise<{ result: LoadResult; rssMb: number }> {
  const started = performance.now();
  await fillStore(database, {
    invoiced: orders - sizes.pendingOrders,
    pending: sizes.pendingOrders,
  });
  process.stderr.write(
    `  ${database.label}: ${count(orders)} orders stored in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
  const server = await startFulfil(dir, database.url, 1, ['--response-cache', '0']);
  try {
    const headers = { authorization: `Bearer ${PARTNER_SECRET}`, accept: 'application/json' };
    await load({ url: server.url + PATH, headers, seconds: sizes.warmupSeconds });
    const result = await load({ url: server.url + PATH, headers, seconds: sizes.seconds });
    return { result, rssMb: server.rssMb() };
  } finally {
    await server.stop();
  }
}

export async function benchPollScale(
  small: BenchDatabase,
  large: BenchDatabase,
  dir: string,
  sizes: Sizes,
): Promise<void> {
  const few = await pollOn(small, sizes.smallOrders, dir, sizes);
  const many = await pollOn(large, sizes.largeOrders, dir, sizes);
  addRow({
    scenario: `first-page poll p50, cache off, ${count(sizes.largeOrders)} vs ${count(sizes.smallOrders)} orders stored, ${large.label}`,
    fulfil: describeLoad(many.result),
    floor: describeLoad(few.result),
    ratio: ratioOf(many.result.p50, few.result.p50),
    target: '≤ 1.5',
  });
  addRow({
    scenario: `server RSS after polling, ${count(sizes.largeOrders)} orders stored, ${large.label}`,
    fulfil: `${Math.round(many.rssMb)} MB`,
    floor: `${Math.round(few.rssMb)} MB with ${count(sizes.smallOrders)}`,
    ratio: ratioOf(many.rssMb, few.rssMb),
    target: '< 250 MB',
  });
}
