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
