/**
 * The raw floor's store on Postgres: a pool of 10 (the adapter's default), named prepared
 * statements, the order row locked `for update` as the adapter locks it.
 */
import {
  type AcceptRequest,
  acceptAnswer,
  checkAccept,
  FLOOR_SQL,
  type FloorItem,
  type FloorOrder,
  type FloorStatement,
  floorTables,
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
import { inTransaction, type PgClient, pg } from './raw-postgres.js';

export async function openFloorPostgres(
  url: string,
  schema: string,
  create: boolean,
  reservation: FloorReservation = 'reserving',
): Promise<FloorStore> {
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
  const run = async <R>(client: PgClient, name: FloorStatement, values: unknown[], suffix = '') =>
    (
      await client.query({
        name: `${name}${suffix ? '_locked' : ''}`,
        text: FLOOR_SQL[name] + suffix,
        values,
      })
    ).rows as R[];
  const transaction = <T>(work: (client: PgClient) => Promise<T>) => inTransaction(pool, work);
  if (create) {
    await transaction(async (client) => {
      await client.query(`create schema ${schema}`);
      for (const ddl of floorTables('postgres')) await client.query(ddl);
    });
  }
  return {
    async intake(orders: readonly FloorSalesOrder[]) {
      const accepts: AcceptRequest[] = [];
      for (let start = 0; start < orders.length; start += FLOOR_BATCH) {
        const batch = orders.slice(start, start + FLOOR_BATCH);
        await transaction(async (client) => {
          const at = floorTimestamp();
          for (const [warehouse, sku] of floorStockOf(batch)) {
            await run(client, 'addStock', [warehouse, sku, 1_000_000_000]);
          }
          for (const order of batch) {
            const number = `${order.sales_order_number}-1`;
            const warehouse = order.warehouse_code ?? 'WH-A';
            const [row] = await run<{ id: string }>(client, 'insertOrder', [
              number,
              warehouse,
              at,
              floorHeader(order),
            ]);
            const id = Number(row?.id);
            const items: AcceptRequest['order']['items'] = [];
            for (const [position, line] of order.items.entries()) {
              const [item] = await run<{ id: string }>(client, 'insertItem', [
                id,
                position,
                warehouse,
                line.sku,
                line.name,
                line.qty,
              ]);
              items.push({ item_id: Number(item?.id), qty: line.qty });
              // Stock is committed when routed: intake reserves, accept does not.
              if (reservation === 'reserving')
                await run(client, 'reserve', [line.qty, warehouse, line.sku]);
            }
            await run(client, 'insertQueue', [id, 'pending_accept', warehouse, at]);
            await run(client, 'insertAudit', [id, at, 'bench', 'intake', '{}']);
            accepts.push({ order: { order_id: number, items } });
          }
        });
      }
      return accepts;
    },
    accept: (request) =>
      transaction(async (client) => {
        const [order] = await run<FloorOrder>(
          client,
          'findOrder',
          [request.order.order_id],
          ' for update',
        );
        if (!order) throw new Error(`floor accept: no order ${request.order.order_id}`);
        const items = (await run<FloorItem>(client, 'findItems', [order.id])).map((item) => ({
          ...item,
          id: Number(item.id),
        }));
        checkAccept(request, items);
        const at = floorTimestamp();
        for (const item of items) {
          await run(client, 'setItem', ['pending_allocation', item.id]);
        }
        await run(client, 'setOrder', ['pending_allocation', at, order.id]);
        await run(client, 'insertAudit', [
          order.id,
          at,
          FLOOR_ACTOR,
          'accept',
          JSON.stringify(request.order),
        ]);
        await run(client, 'dropQueue', [order.id]);
        await run(client, 'insertQueue', [
          order.id,
          'pending_allocation',
          order.warehouse_code,
          at,
        ]);
        return acceptAnswer(order, items, at);
      }),
    async count(queue) {
      const client = await pool.connect();
      try {
        const [row] = await run<{ n: string }>(client, 'countQueue', [queue]);
        return Number(row?.n);
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
