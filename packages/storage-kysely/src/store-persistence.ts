import type { Store, StoreSettings } from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { PreparedQueries } from './prepared-queries.js';
import { decodeStore, encodeJson } from './row-codec.js';

/** Reading and writing stores, on the caller's transaction. */

type Db = Kysely<Database>;

export async function findStore(
  db: Db,
  prepared: PreparedQueries,
  code: string,
): Promise<Store | null> {
  const { rows } = await prepared.run(db, 'store by code', [code], (trx, argument) =>
    trx.selectFrom('stores').selectAll().where('code', '=', argument<string>(0)),
  );
  return rows[0] ? decodeStore(rows[0]) : null;
}

export async function findStoreById(db: Db, id: number): Promise<Store | null> {
  const row = await db.selectFrom('stores').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? decodeStore(row) : null;
}

export async function upsertStore(db: Db, code: string, settings: StoreSettings): Promise<Store> {
  const row = await db
    .insertInto('stores')
    .values({ code, settings: encodeJson(settings) })
    .onConflict((oc) =>
      oc.column('code').doUpdateSet((eb) => ({ settings: eb.ref('excluded.settings') })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  return decodeStore(row);
}

export async function listStores(db: Db): Promise<Store[]> {
  const rows = await db.selectFrom('stores').selectAll().orderBy('code').execute();
  return rows.map(decodeStore);
}
