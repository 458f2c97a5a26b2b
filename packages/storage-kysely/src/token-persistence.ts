import { DomainError, type NewToken, type Timestamp, type TokenRecord } from '@fulfil/core';
import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { PreparedQueries } from './prepared-queries.js';
import { decodeToken, encodeToken } from './row-codec.js';

/** The SQL of tokens (core's `RepositoryTx.insertToken` …). */

export async function insertToken(db: Kysely<Database>, token: NewToken): Promise<TokenRecord> {
  // `do nothing` instead of catching a driver-specific unique-violation error: a conflict
  // returns no row, whichever of the two unique keys (store+name, hash) it hit.
  const row = await db
    .insertInto('tokens')
    .values(encodeToken(token))
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (row) return decodeToken(row);
  const sameName = await db
    .selectFrom('tokens')
    .select('id')
    .where('store_id', '=', token.store_id)
    .where('name', '=', token.name)
    .executeTakeFirst();
  throw sameName
    ? new DomainError('already_exists', 'A token named %fieldValue already exists', [
        { fieldName: 'name', fieldValue: token.name },
      ])
    : new DomainError('already_exists', 'A token with this secret already exists', [
        { fieldName: 'token' },
      ]);
}

export async function findTokenByHash(
  db: Kysely<Database>,
  prepared: PreparedQueries,
  hash: string,
): Promise<TokenRecord | null> {
  const { rows } = await prepared.run(db, 'token by hash', [hash], (db, argument) =>
    db.selectFrom('tokens').selectAll().where('hash', '=', argument<string>(0)),
  );
  return rows[0] ? decodeToken(rows[0]) : null;
}

/** What authenticating a request reads: the token and its store's code, one statement. */
export async function findStoreToken(
  db: Kysely<Database>,
  prepared: PreparedQueries,
  hash: string,
  storeCode: string,
): Promise<TokenRecord | null> {
  const { rows } = await prepared.run(
    db,
    'token by hash and store',
    [hash, storeCode],
    (db, argument) =>
      db
        .selectFrom('tokens')
        .innerJoin('stores', 'stores.id', 'tokens.store_id')
        .selectAll('tokens')
        .where('tokens.hash', '=', argument<string>(0))
        .where('stores.code', '=', argument<string>(1)),
  );
  return rows[0] ? decodeToken(rows[0]) : null;
}

export async function listTokens(db: Kysely<Database>, storeId: number): Promise<TokenRecord[]> {
  const rows = await db
    .selectFrom('tokens')
    .selectAll()
    .where('store_id', '=', storeId)
    .orderBy('name')
    .execute();
  return rows.map(decodeToken);
}

export async function revokeToken(
  db: Kysely<Database>,
  storeId: number,
  name: string,
  at: Timestamp,
): Promise<boolean> {
  // Revoking again keeps the first revocation time.
  const { numUpdatedRows } = await db
    .updateTable('tokens')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
    .where('store_id', '=', storeId)
    .where('name', '=', name)
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}
