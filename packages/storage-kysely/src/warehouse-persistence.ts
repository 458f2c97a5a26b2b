import type { Warehouse } from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { PreparedQueries } from './prepared-queries.js';
import { decodeWarehouse, encodeWarehouse } from './row-codec.js';

/** Warehouses of the store ordered by code; only `codes` when given. */
export async function listWarehouses(
  db: Kysely<Database>,
  prepared: PreparedQueries,
  storeId: number,
  codes?: readonly string[] | null,
): Promise<Warehouse[]> {
  if (codes && codes.length === 0) return [];
  const some = codes != null;
  const { rows } = await prepared.runWithLists(
    db,
    some ? 'warehouses by code' : 'warehouses',
    [storeId],
    some ? [codes] : [],
    (db, argument, listed) =>
      db
        .selectFrom('warehouses')
        .selectAll()
        .where('store_id', '=', argument<number>(0))
        .$if(some, (qb) => qb.where('code', 'in', listed<string>(0)))
        .orderBy('code'),
  );
  return rows.map(decodeWarehouse);
}

/** Creates the warehouse or replaces every field of the one with the same (store, code). */
export async function upsertWarehouse(
  db: Kysely<Database>,
  warehouse: Warehouse,
): Promise<Warehouse> {
  const row = await db
    .insertInto('warehouses')
    .values(encodeWarehouse(warehouse))
    .onConflict((oc) =>
      oc.columns(['store_id', 'code']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        active: eb.ref('excluded.active'),
        fulfilled_by: eb.ref('excluded.fulfilled_by'),
        priority: eb.ref('excluded.priority'),
        latitude: eb.ref('excluded.latitude'),
        longitude: eb.ref('excluded.longitude'),
        countries: eb.ref('excluded.countries'),
        daily_capacity: eb.ref('excluded.daily_capacity'),
        safety_stock: eb.ref('excluded.safety_stock'),
        processing_days: eb.ref('excluded.processing_days'),
        working_days: eb.ref('excluded.working_days'),
        holidays: eb.ref('excluded.holidays'),
        cutoff: eb.ref('excluded.cutoff'),
        timezone: eb.ref('excluded.timezone'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return decodeWarehouse(row);
}

/** Fulfillment orders routed to each of `keys` (a warehouse and its local day); 0 when none. */
export async function routedOn(
  db: Kysely<Database>,
  storeId: number,
  keys: readonly { warehouse_code: string; day: string }[],
): Promise<number[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('warehouse_days')
    .select(['warehouse_code', 'day', 'routed'])
    .where('store_id', '=', storeId)
    .where('warehouse_code', 'in', [...new Set(keys.map((key) => key.warehouse_code))])
    .where('day', 'in', [...new Set(keys.map((key) => key.day))])
    .execute();
  const routed = new Map(
    rows.map((row) => [`${row.warehouse_code}\u0000${row.day}`, Number(row.routed)]),
  );
  return keys.map((key) => routed.get(`${key.warehouse_code}\u0000${key.day}`) ?? 0);
}

/**
 * Counts one more fulfillment order routed to the warehouse on its day, in one conditional
 * statement: refused (null) when `limit` is given and the day already reached it, so that no
 * two transactions both take a warehouse's last slot (the second waits for the first's row,
 * then sees its count). Returns the day's count after it.
 */
export async function countRouted(
  db: Kysely<Database>,
  storeId: number,
  key: { warehouse_code: string; day: string; limit: number | null; by: number },
): Promise<number | null> {
  const row = await db
    .insertInto('warehouse_days')
    .values({
      store_id: storeId,
      warehouse_code: key.warehouse_code,
      day: key.day,
      routed: key.by,
    })
    .onConflict((oc) => {
      const update = oc
        .columns(['store_id', 'warehouse_code', 'day'])
        .doUpdateSet((eb) => ({ routed: eb('warehouse_days.routed', '+', key.by) }));
      return key.limit === null
        ? update
        : update.where('warehouse_days.routed', '<=', key.limit - key.by);
    })
    .returning('routed')
    .executeTakeFirst();
  return row ? Number(row.routed) : null;
}
