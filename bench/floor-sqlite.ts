/** The raw floor's store on a SQLite file: WAL, synchronous FULL, as the adapter opens files. */
import {
  type AcceptRequest,
  acceptAnswer,
  checkAccept,
  type FloorItem,
  type FloorOrder,
  floorTables,
  sqliteText,
} from './floor-schema.js';
import {
  FLOOR_ACTOR,
  FLOOR_BATCH,
  type FloorReservation,
  type FloorSalesOrder,
  type FloorStore,
  floorHeader,
  floorStockOf,
  floorTimestamp,
} from './floor-store.js';
import { Sqlite, type Statement } from './raw-sqlite.js';

export function openFloorSqlite(
  path: string,
  create: boolean,
  reservation: FloorReservation = 'reserving',
): FloorStore {
  const db = new Sqlite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (create) for (const ddl of floorTables('sqlite')) db.exec(ddl);
  const prepared = new Map<string, Statement<unknown[]>>();
  const statement = (name: Parameters<typeof sqliteText>[0]) => {
    let found = prepared.get(name);
    if (!found) {
      found = db.prepare<unknown[]>(sqliteText(name));
      prepared.set(name, found);
    }
    return found;
  };

  const intakeBatch = db.transaction((orders: readonly FloorSalesOrder[]) => {
    const at = floorTimestamp();
    const accepts: AcceptRequest[] = [];
    for (const [warehouse, sku] of floorStockOf(orders)) {
      statement('addStock').run(warehouse, sku, 1_000_000_000);
    }
    for (const order of orders) {
      const number = `${order.sales_order_number}-1`;
      const warehouse = order.warehouse_code ?? 'WH-A';
      const { id } = statement('insertOrder').get(number, warehouse, at, floorHeader(order)) as {
        id: number;
      };
      const items = order.items.map((line, position) => {
        const item = statement('insertItem').get(
          id,
          position,
          warehouse,
          line.sku,
          line.name,
          line.qty,
        ) as { id: number };
        // Stock is committed when routed: intake reserves, accept does not.
        if (reservation === 'reserving') statement('reserve').run(line.qty, warehouse, line.sku);
        return { item_id: item.id, qty: line.qty };
      });
      statement('insertQueue').run(id, 'pending_accept', warehouse, at);
      statement('insertAudit').run(id, at, 'bench', 'intake', '{}');
      accepts.push({ order: { order_id: number, items } });
    }
    return accepts;
  });

  const acceptOne = db.transaction((request: AcceptRequest) => {
    const order = statement('findOrder').get(request.order.order_id) as FloorOrder | undefined;
    if (!order) throw new Error(`floor accept: no order ${request.order.order_id}`);
    const items = statement('findItems').all(order.id) as FloorItem[];
    checkAccept(request, items);
    const at = floorTimestamp();
    for (const item of items) {
      statement('setItem').run('pending_allocation', item.id);
    }
    statement('setOrder').run('pending_allocation', at, order.id);
    statement('insertAudit').run(
      order.id,
      at,
      FLOOR_ACTOR,
      'accept',
      JSON.stringify(request.order),
    );
    statement('dropQueue').run(order.id);
    statement('insertQueue').run(order.id, 'pending_allocation', order.warehouse_code, at);
    return acceptAnswer(order, items, at);
  });

  return {
    async intake(orders) {
      const accepts: AcceptRequest[] = [];
      for (let start = 0; start < orders.length; start += FLOOR_BATCH) {
        accepts.push(...intakeBatch.immediate(orders.slice(start, start + FLOOR_BATCH)));
      }
      return accepts;
    },
    async accept(request) {
      return acceptOne.immediate(request);
    },
    async count(queue) {
      return (statement('countQueue').get(queue) as { n: number }).n;
    },
    async close() {
      db.close();
    },
  };
}
