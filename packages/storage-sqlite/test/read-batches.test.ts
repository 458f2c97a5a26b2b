import {
  type Database,
  migrateToLatest,
  PreparedQueries,
  ReadBatches,
} from '@fulfil/storage-kysely';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type QueryResult, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImmediateSqliteDialect, SQLITE_SCHEMA_FLAGS } from '../src/index.js';

/** Prepared queries that record each statement they run, and can hold the next ones back. */
class WatchedQueries extends PreparedQueries {
  readonly runs: { name: string; args: unknown[] }[] = [];
  #gate: Promise<void> | undefined;

  /** Statements run from now on wait until the returned function is called. */
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
    await this.#gate;
    return (await super.run(...call)) as QueryResult<R>;
  }
}

describe('batched reads', () => {
  let db: Kysely<Database>;
  let prepared: WatchedQueries;
  let reads: ReadBatches;

  beforeEach(async () => {
    db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({ database: new BetterSqlite3(':memory:') }),
    });
    await migrateToLatest(db, SQLITE_SCHEMA_FLAGS);
    await db
      .insertInto('stores')
      .values(['a', 'b', 'c'].map((code) => ({ code, settings: '{}' })))
      .execute();
    prepared = new WatchedQueries();
    reads = new ReadBatches(db, prepared);
  });

  afterEach(() => db.destroy());

  const storeByCode = (code: string) =>
    reads.read<{ code: string }>('store by code', [code], (_db, argument) => {
      return sql<{ code: string }>`select code from stores where code = ${argument(0)}`;
    });
  const storesAfter = (code: string) =>
    reads.read<{ code: string }>('stores after', [code], (_db, argument) => {
      return sql<{
        code: string;
      }>`select code from stores where code > ${argument(0)} order by code`;
    });

  it('runs the reads of one query asked together in one statement, each with its own rows', async () => {
    const answers = await Promise.all([storeByCode('a'), storeByCode('c'), storeByCode('zz')]);
    expect(answers).toEqual([[{ code: 'a' }], [{ code: 'c' }], []]);
    expect(prepared.runs).toEqual([{ name: 'store by code ×3', args: ['a', 'c', 'zz'] }]);
  });

  it('runs a read asked twice once, and gives both the rows', async () => {
    const answers = await Promise.all([storeByCode('b'), storeByCode('a'), storeByCode('b')]);
    expect(answers).toEqual([[{ code: 'b' }], [{ code: 'a' }], [{ code: 'b' }]]);
    expect(prepared.runs).toEqual([{ name: 'store by code ×2', args: ['b', 'a'] }]);
  });

  it('runs a read alone as its own prepared query', async () => {
    expect(await storeByCode('a')).toEqual([{ code: 'a' }]);
    expect(prepared.runs).toEqual([{ name: 'store by code', args: ['a'] }]);
  });

  it('runs the reads of different queries side by side, each in a statement of its own', async () => {
    const open = prepared.hold();
    const answers = Promise.all([storeByCode('a'), storesAfter('a'), storeByCode('b')]);
    await new Promise((resolve) => setImmediate(resolve));
    // Both statements started before either returned.
    expect(prepared.runs).toEqual([
      { name: 'store by code ×2', args: ['a', 'b'] },
      { name: 'stores after', args: ['a'] },
    ]);
    open();
    expect(await answers).toEqual([
      [{ code: 'a' }],
      [{ code: 'b' }, { code: 'c' }],
      [{ code: 'b' }],
    ]);
  });

  it('never adds a read to a statement already sent: it waits for the next, which sees what committed before it was asked', async () => {
    const open = prepared.hold();
    const first = storeByCode('d');
    await new Promise((resolve) => setImmediate(resolve));
    expect(prepared.runs).toEqual([{ name: 'store by code', args: ['d'] }]);
    await db.insertInto('stores').values({ code: 'd', settings: '{}' }).execute();
    // The same read as the one on its way: it still may not share that statement.
    const second = storeByCode('d');
    const third = storeByCode('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(prepared.runs).toHaveLength(1);
    open();
    await first;
    expect(await second).toEqual([{ code: 'd' }]);
    expect(await third).toEqual([{ code: 'a' }]);
    expect(prepared.runs[1]).toEqual({ name: 'store by code ×2', args: ['d', 'a'] });
  });

  it('puts at most 16 reads in a statement', async () => {
    const codes = Array.from({ length: 20 }, (_, index) => `code-${index}`);
    await Promise.all(codes.map(storeByCode));
    expect(prepared.runs.map((run) => run.name)).toEqual(['store by code ×16', 'store by code ×4']);
    expect(prepared.runs.flatMap((run) => run.args)).toEqual(codes);
  });

  it('fails every read of a failed statement, and runs the next batch', async () => {
    const broken = (code: string) =>
      reads.read(
        'broken',
        [code],
        (_db, argument) => sql`select code from no_such_table where code = ${argument(0)}`,
      );
    const failed = await Promise.allSettled([broken('a'), broken('b'), broken('a')]);
    expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((failed[0] as PromiseRejectedResult).reason)).toContain('no_such_table');
    expect(await storeByCode('c')).toEqual([{ code: 'c' }]);
  });

  it('is idle once every read is answered', async () => {
    const answer = storeByCode('a');
    await reads.idle();
    expect(prepared.runs).toHaveLength(1);
    expect(await answer).toEqual([{ code: 'a' }]);
  });
});
