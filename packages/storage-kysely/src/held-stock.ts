import type { HeldStock } from '@fulfil/core';
import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';

/** An order a partner gave up on for good (its failure says so), in a query naming it `o`. */
export const ABANDONED = sql<boolean>`o.failure like '%"abandoned":true%'`;

/**
 * What the live unshipped lines of a store's orders hold reserved (docs/behaviour.md, Stock):
 * the qty of lines waiting, accepted or allocated, in orders not abandoned, per warehouse and sku.
 */
const heldLines = (storeId: number) => sql<HeldStock>`
  select i.warehouse_code, i.sku, sum(i.qty) as qty
  from order_items i join fulfillment_orders o on o.id = i.order_id
  where o.store_id = ${storeId}
    and i.status in ('pending_accept', 'pending_allocation', 'pending_shipment')
    and (o.failure is null or not (${ABANDONED}))
  group by i.warehouse_code, i.sku`;

export async function heldStock(db: Kysely<Database>, storeId: number): Promise<HeldStock[]> {
  const { rows } =
    await sql<HeldStock>`${heldLines(storeId)} order by i.warehouse_code, i.sku`.execute(db);
  return rows.map((row) => ({ ...row, qty: Number(row.qty) }));
}

/**
 * Sets every stock row's `reserved` of the store to what its lines hold, creating the rows lines
 * hold stock of with nothing on hand: two statements, whatever the store's size. (`where true`:
 * SQLite would read the `on conflict` after a bare `from` as a join's.)
 */
export async function reserveHeldLines(db: Kysely<Database>, storeId: number): Promise<void> {
  await sql`
    insert into stock (store_id, warehouse_code, sku, on_hand, reserved)
    select ${storeId}, held.warehouse_code, held.sku, 0, 0 from (${heldLines(storeId)}) held
    where true
    on conflict (store_id, warehouse_code, sku) do nothing`.execute(db);
  await sql`
    update stock set reserved = coalesce((
      select held.qty from (${heldLines(storeId)}) held
      where held.warehouse_code = stock.warehouse_code and held.sku = stock.sku
    ), 0)
    where store_id = ${storeId}`.execute(db);
}
