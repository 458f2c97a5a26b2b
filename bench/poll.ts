/**
 * Polling pending_accept: `engine.poll` (validation, store lookup, read transaction, the page of
 * ids from queue_entries, the orders with items, shipments and invoices, presentation) against
 * the least SQL that reads the same page: two prepared statements in one read transaction.
 * Run with 1k and 20k finished orders in the database: the cost must not grow with them.
 */
import type { QueueName } from '@fulfil/core';
import { compare, type Plan, quickPlan, report } from './measure.js';
import { type RawDb, rawCopy, runSql } from './raw-sqlite.js';
import { finishedOrder, insertOrders, openBenchStore, pendingOrder, WAREHOUSE } from './store.js';

const QUEUE: QueueName = 'pending_accept';
const PENDING = 300;
const PAGE_SIZE = 100;
const FULL_PLAN: Plan = { warmupOps: 300, opsPerRound: 30, rounds: 15 };

interface OrderRow {
  id: number;
  payment: unknown;
  shipping: unknown;
  billing_address: unknown;
  shipping_address: unknown;
  items: ItemRow[];
}

interface ItemRow {
  order_id: number;
}

/**
 * The columns a pending_accept response shows (prices are hidden there, docs/behaviour.md): the floor
 * reads only what it returns.
 */
const ORDER_COLUMNS = [
  'id',
  'fulfillment_order_number',
  'sales_order_id',
  'sales_order_number',
  'warehouse_code',
  'customer_firstname',
  'customer_lastname',
  'customer_email',
  'customer_is_guest',
  'status',
  'created_at',
  'updated_at',
  'payment',
  'shipping',
  'billing_address',
  'shipping_address',
  'allocated_at',
  'shipped_at',
  'invoiced_at',
].map((column) => `o.${column}`);
const ITEM_COLUMNS = ['id', 'order_id', 'status', 'warehouse_code', 'name', 'sku', 'qty'].map(
  (column) => `i.${column}`,
);

/** The page by hand: the orders of the page and their items in the queue, JSON decoded. */
function rawPoller(db: RawDb, storeId: number) {
  const page = `select q.order_id from queue_entries q
     where q.store_id = ? and q.queue = ? and q.warehouse_code in (?)
     order by q.order_id limit ? offset ?`;
  const orders = db.prepare<unknown[], OrderRow>(
    `select ${ORDER_COLUMNS.join()} from (${page}) p
     join fulfillment_orders o on o.id = p.order_id order by o.id`,
  );
  const items = db.prepare<unknown[], ItemRow>(
    `select ${ITEM_COLUMNS.join()} from order_items i where i.order_id in (${page})
     and i.status = ? order by i.order_id, i.position`,
  );
  return db.transaction((pageNumber: number): OrderRow[] => {
    const args = [storeId, QUEUE, WAREHOUSE, PAGE_SIZE, (pageNumber - 1) * PAGE_SIZE];
    const rows = orders.all(...args);
    const byId = new Map<number, OrderRow>();
    for (const row of rows) {
      row.payment = JSON.parse(row.payment as string);
      row.shipping = JSON.parse(row.shipping as string);
      row.billing_address = JSON.parse(row.billing_address as string);
      row.shipping_address = JSON.parse(row.shipping_address as string);
      row.items = [];
      byId.set(row.id, row);
    }
    for (const item of items.all(...args, QUEUE)) byId.get(item.order_id)?.items.push(item);
    return rows;
  });
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
      // Both sides must read the very same pages.
      for (const page of [1, 2, 3]) {
        const ours = await engine.poll(partner, QUEUE, { page });
        const floor = poll(page);
        const key = (orders: { id: number; items: unknown[] }[]) =>
          orders.map((order) => `${order.id}:${order.items.length}`).join();
        if (ours.length !== PAGE_SIZE || key(ours) !== key(floor)) {
          throw new Error(`bench poll: page ${page} differs between fulfil and the floor`);
        }
      }
      const result = await compare(
        (i) => engine.poll(partner, QUEUE, { page: (i % 3) + 1 }),
        (i) => poll((i % 3) + 1),
        plan,
      );
      report(
        `poll ${QUEUE} (${PAGE_SIZE} orders x 3 items, ${finished / 1000}k finished orders in the db, :memory:)`,
        result,
        {
          fulfil: `engine.poll(partner scoped to ${WAREHOUSE}, '${QUEUE}', { page: 1..3 }), presentation included`,
          floor:
            'read tx: 2 prepared selects (the page of orders via queue_entries, their items in the queue) of the columns the response shows; JSON.parse of the 4 json columns',
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
