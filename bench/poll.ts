/**
 * Polling pending_accept in process: `engine.pollDocuments` (validation, store lookup, read
 * transaction, the page's stored documents from queue_entries), joined into the response body
 * as the server sends it, against what a raw better-sqlite3 program would do for the same bytes:
 * one prepared select of the page's documents in a read transaction, joined. Run with 1k and 20k
 * finished orders in the database: the cost must not grow with them.
 */
import type { QueueName } from '@fulfil/core';
import { compare, type Plan, quickPlan, report } from './measure.js';
import { type RawDb, rawCopy, runSql } from './raw-sqlite.js';
import { finishedOrder, insertOrders, openBenchStore, pendingOrder, WAREHOUSE } from './store.js';

const QUEUE: QueueName = 'pending_accept';
const PENDING = 300;
const PAGE_SIZE = 100;
const FULL_PLAN: Plan = { warmupOps: 300, opsPerRound: 30, rounds: 15 };

/** The page by hand: the stored documents of the page, in id order, joined into one array. */
function rawPoller(db: RawDb, storeId: number) {
  const documents = db
    .prepare<unknown[], string>(
      `select document from queue_entries
        where store_id = ? and queue = ? and warehouse_code in (?)
        order by order_id limit ? offset ?`,
    )
    .pluck();
  return db.transaction(
    (pageNumber: number): string =>
      `[${documents.all(storeId, QUEUE, WAREHOUSE, PAGE_SIZE, (pageNumber - 1) * PAGE_SIZE).join(',')}]`,
  );
}

async function pollWith(finished: number, dir: string, plan: Plan): Promise<void> {
  const { engine, repository, storeId, partner } = await openBenchStore(':memory:');
  try {
    await insertOrders(repository, finished, (n) => finishedOrder(storeId, n));
    await insertOrders(repository, PENDING, () => pendingOrder(storeId));
    await runSql(repository, 'vacuum');
    const raw = await rawCopy(repository, dir, `poll-${finished}`, 'memory');
    try {
      const poll = rawPoller(raw, storeId);
      // Both sides must send the very same bytes.
      const ours = async (page: number) =>
        `[${(await engine.pollDocuments(partner, QUEUE, { page })).join(',')}]`;
      for (const page of [1, 2, 3]) {
        const body = await ours(page);
        if (body !== poll(page) || body === '[]') {
          throw new Error(`bench poll: page ${page} differs between fulfil and the floor`);
        }
      }
      const result = await compare(
        (i) => ours((i % 3) + 1),
        (i) => poll((i % 3) + 1),
        plan,
      );
      report(
        `poll ${QUEUE} (${PAGE_SIZE} orders x 3 items, ${finished / 1000}k finished orders in the db, :memory:)`,
        result,
        {
          fulfil: `engine.pollDocuments(partner scoped to ${WAREHOUSE}, '${QUEUE}', { page: 1..3 }), joined into the body`,
          floor:
            'read tx: 1 prepared select of the page of queue_entries.document, joined into the body',
        },
      );
    } finally {
      raw.close();
    }
  } finally {
    await engine.close();
  }
}

export async function benchPoll(dir: string, quick: boolean): Promise<void> {
  const plan = quickPlan(FULL_PLAN, quick);
  for (const finished of quick ? [100, 500] : [1_000, 20_000]) await pollWith(finished, dir, plan);
}
