import { type Database, migrateToLatest, PreparedQueries } from '@fulfil/storage-kysely';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  declareWriterGeneration,
  ImmediateSqliteDialect,
  SQLITE_SCHEMA_FLAGS,
} from '../src/index.js';

describe('prepared queries', () => {
  let db: Kysely<Database>;
  let compiled: number;

  beforeEach(async () => {
    compiled = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        compiled += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({
        database: declareWriterGeneration(new BetterSqlite3(':memory:')),
      }),
    });
    await migrateToLatest(db, SQLITE_SCHEMA_FLAGS);
    await db
      .insertInto('stores')
      .values([
        { code: 'a', settings: '{}' },
        { code: 'b', settings: '{}' },
      ])
      .execute();
    db = db.withPlugin(counting);
  });

  afterEach(() => db.destroy());

  it('compiles a query once, then runs it with each call’s arguments and its own constants', async () => {
    const prepared = new PreparedQueries();
    const storeByCode = (code: string) =>
      prepared.run(db, 'store by code', [code], (trx, argument) =>
        trx
          .selectFrom('stores')
          .select('code')
          .where('code', '=', argument<string>(0))
          .where('settings', '=', '{}'),
      );
    expect((await storeByCode('a')).rows).toEqual([{ code: 'a' }]);
    expect((await storeByCode('b')).rows).toEqual([{ code: 'b' }]);
    expect((await storeByCode('c')).rows).toEqual([]);
    expect(compiled).toBe(1);
  });

  it('binds arguments by index, wherever the query places them', async () => {
    const prepared = new PreparedQueries();
    const rename = (to: string, from: string) =>
      prepared.run(db, 'rename a store', [to, from], (trx, argument) =>
        trx
          .updateTable('stores')
          .set({ code: argument<string>(0) })
          .where('code', '=', argument<string>(1)),
      );
    expect((await rename('z', 'a')).numAffectedRows).toBe(1n);
    expect((await rename('y', 'nope')).numAffectedRows).toBe(0n);
    const codes = await db.selectFrom('stores').select('code').orderBy('code').execute();
    expect(codes.map((row) => row.code)).toEqual(['b', 'z']);
  });

  it('compiles an in (…) list once per power of two of its length, matching exactly its values', async () => {
    await db
      .insertInto('stores')
      .values(['c', 'd', 'e'].map((code) => ({ code, settings: '{}' })))
      .execute();
    compiled = 0;
    const prepared = new PreparedQueries();
    const storesIn = async (codes: string[]) =>
      (
        await prepared.runWithLists(db, 'stores by code', [], [codes], (trx, _, listed) =>
          trx
            .selectFrom('stores')
            .select('code')
            .where('code', 'in', listed<string>(0))
            .orderBy('code'),
        )
      ).rows.map((row) => row.code);
    expect(await storesIn(['e', 'a', 'c'])).toEqual(['a', 'c', 'e']);
    expect(await storesIn(['b', 'z', 'd', 'y'])).toEqual(['b', 'd']);
    expect(compiled).toBe(1);
    expect(await storesIn(['a', 'b', 'c', 'd', 'e'])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await storesIn(['b'])).toEqual(['b']);
    expect(compiled).toBe(3);
  });
});
