import {
  type Database,
  migrateToLatest,
  PreparedQueries,
  SharedReads,
} from '@fulfil/storage-kysely';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type QueryResult } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  declareWriterGeneration,
  ImmediateSqliteDialect,
  SQLITE_SCHEMA_FLAGS,
} from '../src/index.js';

/**
 * Prepared queries that record each statement they run and can hold its outcome back: the
 * statement has run, its answer is on its way.
 */
class WatchedQueries extends PreparedQueries {
  readonly runs: { name: string; args: unknown[] }[] = [];
  #gate: Promise<void> | undefined;

  /** Outcomes of the statements run from now on wait until the returned function is called. */
  hold(): () => void {
    let open!: () => void;
    this.#gate = new Promise((resolve) => {
      open = resolve;
    });
    return () => {
      this.#gate = undefined;
      open();
    };
  }

  override async run<R>(...call: Parameters<PreparedQueries['run']>): Promise<QueryResult<R>> {
    const [, name, args] = call;
    this.runs.push({ name, args: [...args] });
    const gate = this.#gate;
    try {
      return (await super.run(...call)) as QueryResult<R>;
    } finally {
      await gate;
    }
  }
}

describe('shared reads', () => {
  let db: Kysely<Database>;
  let prepared: WatchedQueries;
  let reads: SharedReads;

  beforeEach(async () => {
    db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({
        database: declareWriterGeneration(new BetterSqlite3(':memory:')),
      }),
    });
    await migrateToLatest(db, SQLITE_SCHEMA_FLAGS);
    await db
      .insertInto('stores')
      .values(['a', 'b', 'c'].map((code) => ({ code, settings: '{}' })))
      .execute();
    prepared = new WatchedQueries();
    reads = new SharedReads(db, prepared);
  });

  afterEach(() => db.destroy());

  const storeByCode = (code: string) =>
    reads.read('store by code', [code], (trx, argument) =>
      trx.selectFrom('stores').select('code').where('code', '=', argument<string>(0)),
    );
  const storesAfter = (code: string) =>
    reads.read('stores after', [code], (trx, argument) =>
      trx
        .selectFrom('stores')
        .select('code')
        .where('code', '>', argument<string>(0))
        .orderBy('code'),
    );
  /** Lets the statements asked for so far start. */
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('sends a read at once, alone, when the same read is not on its way', async () => {
    expect(await storeByCode('a')).toEqual([{ code: 'a' }]);
    expect(await storeByCode('a')).toEqual([{ code: 'a' }]);
    expect(prepared.runs).toEqual([
      { name: 'store by code', args: ['a'] },
      { name: 'store by code', args: ['a'] },
    ]);
  });

  it('sends different reads side by side: none waits for another', async () => {
    const open = prepared.hold();
    const answers = Promise.all([storeByCode('a'), storeByCode('b'), storesAfter('a')]);
    await turn();
    expect(prepared.runs).toEqual([
      { name: 'store by code', args: ['a'] },
      { name: 'store by code', args: ['b'] },
      { name: 'stores after', args: ['a'] },
    ]);
    open();
    expect(await answers).toEqual([
      [{ code: 'a' }],
      [{ code: 'b' }],
      [{ code: 'b' }, { code: 'c' }],
    ]);
  });

  it('answers those who asked for a read on its way with one read sent after it returns', async () => {
    const open = prepared.hold();
    const first = storeByCode('a');
    await turn();
    const meanwhile = [storeByCode('a'), storeByCode('a'), storeByCode('a')];
    await turn();
    expect(prepared.runs).toHaveLength(1);
    open();
    expect(await first).toEqual([{ code: 'a' }]);
    expect(await Promise.all(meanwhile)).toEqual([
      [{ code: 'a' }],
      [{ code: 'a' }],
      [{ code: 'a' }],
    ]);
    expect(prepared.runs).toEqual([
      { name: 'store by code', args: ['a'] },
      { name: 'store by code', args: ['a'] },
    ]);
  });

  it('never answers a read with one sent before it was asked: it sees what committed before', async () => {
    const open = prepared.hold();
    // Read before the commit, its answer still on its way...
    const before = storeByCode('d');
    await turn();
    await db.insertInto('stores').values({ code: 'd', settings: '{}' }).execute();
    // ...and the same read, asked after the commit was acknowledged.
    const after = storeByCode('d');
    open();
    expect(await before).toEqual([]);
    expect(await after).toEqual([{ code: 'd' }]);
  });

  it('fails everyone who shared a failed read, and sends the next one afresh', async () => {
    const broken = (code: string) =>
      reads.read('broken', [code], (trx, argument) =>
        trx
          .selectFrom('no_such_table' as 'stores')
          .select('code')
          .where('code', '=', argument<string>(0)),
      );
    const open = prepared.hold();
    const first = broken('a');
    await turn();
    const shared = [broken('a'), broken('a')];
    open();
    const failed = await Promise.allSettled([first, ...shared]);
    expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toContain('no_such_table');
    expect(prepared.runs.map((run) => run.name)).toEqual(['broken', 'broken']);
    expect(await storeByCode('c')).toEqual([{ code: 'c' }]);
  });

  it('is idle once no read is on its way', async () => {
    const open = prepared.hold();
    const first = storeByCode('a');
    await turn();
    const second = storeByCode('a');
    let idle = false;
    const settled = reads.idle().then(() => {
      idle = true;
    });
    await turn();
    expect(idle).toBe(false);
    open();
    await settled;
    expect(prepared.runs).toHaveLength(2);
    expect(await first).toEqual([{ code: 'a' }]);
    expect(await second).toEqual([{ code: 'a' }]);
  });
});
