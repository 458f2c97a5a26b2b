/**
 * Accepting a whole order of 3 lines: `engine.accept` (validation, store, lock and load the
 * order, decide, save, audit, present; one transaction; its stock was reserved when intake routed
 * it) against one better-sqlite3
 * transaction doing the same reads and writes by hand. Each operation accepts a fresh order.
 */
import { join } from 'node:path';
import { compare, opsPerSide, type Plan, quickPlan, report } from './measure.js';
import { type RawDb, rawCopy, runSql, timestamp } from './raw-sqlite.js';
import { insertOrders, openBenchStore, pendingOrder } from './store.js';

const FULL_PLAN: Plan = { warmupOps: 200, opsPerRound: 100, rounds: 15 };

interface AcceptBody {
  order: { order_id: string; items: { item_id: number; qty: number }[] };
}

interface OrderRow {
  id: number;
  warehouse_code: string;
}

interface ItemRow {
  id: number;
  status: string;
  warehouse_code: string;
  sku: string;
  qty: number;
}

/**
 * The floor: read the order and its items (to check the request against them), set the 3 lines
 * and the order to pending_allocation, append the audit event and
 * rewrite the order's queue entries; in one `BEGIN IMMEDIATE` transaction, as the adapter does.
 */
function rawAccepter(db: RawDb, storeId: number, actor: string) {
  const findOrder = db.prepare<[number, string], OrderRow>(
    'select id, warehouse_code from fulfillment_orders where store_id = ? and fulfillment_order_number = ?',
  );
  const findItems = db.prepare<[number], ItemRow>(
    'select id, status, warehouse_code, sku, qty from order_items where order_id = ? order by position',
  );
  const setItem = db.prepare('update order_items set status = ? where id = ?');
  const setOrder = db.prepare(
    'update fulfillment_orders set status = ?, updated_at = ? where id = ?',
  );
  const audit = db.prepare(
    'insert into audit_events (order_id, at, actor, action, details) values (?, ?, ?, ?, ?)',
  );
  const dropQueues = db.prepare('delete from queue_entries where order_id = ?');
  const addQueue = db.prepare(
    'insert into queue_entries (order_id, store_id, queue, warehouse_code, updated_at) values (?, ?, ?, ?, ?)',
  );
  const accept = db.transaction((input: AcceptBody['order']) => {
    const order = findOrder.get(storeId, input.order_id);
    if (!order) throw new Error(`bench accept: no order ${input.order_id}`);
    const items = new Map(findItems.all(order.id).map((item) => [item.id, item]));
    const now = timestamp();
    for (const entry of input.items) {
      const item = items.get(entry.item_id);
      if (item?.status !== 'pending_accept' || item.qty !== entry.qty) {
        throw new Error(`bench accept: item ${entry.item_id} cannot be accepted`);
      }
      setItem.run('pending_allocation', item.id);
    }
    setOrder.run('pending_allocation', now, order.id);
    audit.run(
      order.id,
      now,
      actor,
      'accept',
      JSON.stringify({ accepted: input.items, rejected: [] }),
    );
    dropQueues.run(order.id);
    addQueue.run(order.id, storeId, 'pending_allocation', order.warehouse_code, now);
  });
  return (body: AcceptBody) => accept.immediate(body.order);
}

const OUTCOME = `select (select group_concat(queue || '=' || n) from
    (select queue, count(*) n from queue_entries group by queue order by queue)) queues,
  (select sum(reserved) from stock) reserved, (select count(*) from audit_events) audits`;

async function acceptOn(where: 'file' | 'memory', dir: string, plan: Plan): Promise<void> {
  const filename = where === 'file' ? join(dir, 'accept.db') : ':memory:';
  const { engine, repository, storeId, partner } = await openBenchStore(filename);
  try {
    const orders = await insertOrders(repository, opsPerSide(plan), () => pendingOrder(storeId));
    const raw = await rawCopy(repository, dir, `accept-floor-${where}`, where);
    try {
      const bodies: AcceptBody[] = orders.map((order) => ({
        order: {
          order_id: order.fulfillment_order_number,
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
        },
      }));
      const floor = rawAccepter(raw, storeId, partner.name);
      const result = await compare(
        (i) => engine.accept(partner, bodies[i] as AcceptBody),
        (i) => floor(bodies[i] as AcceptBody),
        plan,
      );
      // Both sides must have done the same: every order accepted, as much stock reserved.
      const [ours] = await runSql(repository, OUTCOME);
      const theirs = raw.prepare(OUTCOME).get();
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
        throw new Error(
          `bench accept: outcomes differ: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`,
        );
      }
      const db =
        where === 'file'
          ? 'file db in a tmp dir, WAL, synchronous=FULL (the adapter default)'
          : ':memory:';
      report(`accept (1 order x 3 lines, ${db})`, result, {
        fulfil: 'engine.accept(partner, { order: { order_id, items: 3 x { item_id, qty } } })',
        floor:
          'BEGIN IMMEDIATE; select order, select items; 3 item updates, order update, audit insert, queue delete+insert; COMMIT',
      });
    } finally {
      raw.close();
    }
  } finally {
    await engine.close();
  }
}

export async function benchAccept(dir: string, quick: boolean): Promise<void> {
  await acceptOn('file', dir, quickPlan(FULL_PLAN, quick));
  await acceptOn('memory', dir, quickPlan(FULL_PLAN, quick));
}
