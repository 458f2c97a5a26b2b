import { randomBytes } from 'node:crypto';
import { skipUnless } from '@fulfil/core/testing';
import { deferrable, deferWrites, mergeWrites } from '@fulfil/storage-kysely';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema } from './one-connection.js';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

interface Tables {
  a: { id: number; n: number };
  b: { id: number };
}

describe('merging writes', () => {
  it('renumbers each statement’s placeholders after those of the statements before it', () => {
    const merged = mergeWrites([
      CompiledQuery.raw('update "a" set "n" = $1 where "id" = $2', [5, 1]),
      CompiledQuery.raw('insert into "b" ("id") values ($1)', [7]),
      CompiledQuery.raw('update "a" set "n" = $2 where "id" = $1', [2, 9]),
    ]);
    expect(merged.sql).toBe(
      'with w1 as (update "a" set "n" = $1 where "id" = $2), ' +
        'w2 as (insert into "b" ("id") values ($3)), ' +
        'w3 as (update "a" set "n" = $5 where "id" = $4) select 1',
    );
    expect(merged.parameters).toEqual([5, 1, 7, 2, 9]);
  });

  it('renumbers the placeholders of the statement that carries the writes after theirs', () => {
    const merged = mergeWrites(
      [CompiledQuery.raw('update "a" set "n" = $1 where "id" = $2', [5, 1])],
      CompiledQuery.raw('select "id" from "b" where "id" = $1', [7]),
    );
    expect(merged.sql).toBe(
      'with w1 as (update "a" set "n" = $1 where "id" = $2) select "id" from "b" where "id" = $3',
    );
    expect(merged.parameters).toEqual([5, 1, 7]);
  });
});

/**
 * Writes marked deferrable wait in a transaction for the next statement that needs them, then go
 * together (deferred-writes.ts): the transaction does exactly what it did, in fewer round trips.
 */
describe('deferred writes on Postgres', () => {
  if (!url) {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
    return;
  }
  const schema = `fulfil_deferred_${process.pid}_${randomBytes(4).toString('hex')}`;
  const texts: string[] = [];
  let db: Kysely<Tables>;

  beforeAll(async () => {
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query(`create schema "${schema}"`);
    await setup.query(
      `create table "${schema}".a (id bigint primary key, n bigint not null check (n >= 0))`,
    );
    await setup.query(`create table "${schema}".b (id bigint primary key)`);
    await setup.end();
    /** A client that notes the text of every statement it sends. */
    class NotingClient extends pg.Client {
      // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads
      override query(...args: any[]): any {
        const [text] = args;
        texts.push(typeof text === 'string' ? text : String(text?.text));
        return (super.query as (...a: unknown[]) => unknown).apply(this, args);
      }
    }
    const pool = new pg.Pool({
      connectionString: url,
      max: 1,
      options: `-c search_path=${schema}`,
      Client: NotingClient,
    });
    db = new Kysely<Tables>({ dialect: deferWrites(new PostgresDialect({ pool })) });
  });

  afterAll(async () => {
    await db?.destroy();
    await dropSchema(url as string, schema);
  });

  const later = (query: { compile(): CompiledQuery }) => deferrable(query.compile());
  const count = async (table: 'a' | 'b') =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]
        ?.n,
    );
  const reset = async () => {
    await sql`truncate a, b`.execute(db);
    texts.length = 0;
  };

  it('sends writes to two tables as one statement, before the read that follows them', async () => {
    await reset();
    const seen = await db.transaction().execute(async (trx) => {
      await trx.executeQuery(later(trx.insertInto('a').values({ id: 1, n: 1 })));
      await trx.executeQuery(later(trx.insertInto('b').values({ id: 1 })));
      return trx.selectFrom('a').select('n').where('id', '=', 1).execute();
    });
    expect(seen).toEqual([{ n: '1' }]);
    const statements = texts.filter((text) => !/^(begin|commit)/i.test(text));
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/^with w1 as \(insert into "a".*w2 as \(insert into "b"/);
    expect(await count('b')).toBe(1);
  });

  it('sends writes with the read that follows them when it reads none of their tables', async () => {
    await reset();
    await sql`insert into b (id) values (3)`.execute(db);
    texts.length = 0;
    const seen = await db.transaction().execute(async (trx) => {
      await trx.executeQuery(later(trx.insertInto('a').values({ id: 3, n: 1 })));
      return trx.selectFrom('b').select('id').where('id', '=', 3).forUpdate().execute();
    });
    expect(seen).toEqual([{ id: '3' }]);
    const statements = texts.filter((text) => !/^(begin|commit)/i.test(text));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^with w1 as \(insert into "a".*\) select "id" from "b"/);
    expect(await count('a')).toBe(1);
  });

  it('sends writes with the insert that follows them, which answers as it would alone', async () => {
    await reset();
    const inserted = await db.transaction().execute(async (trx) => {
      await trx.executeQuery(later(trx.insertInto('a').values({ id: 4, n: 1 })));
      return trx.insertInto('b').values({ id: 4 }).returning('id').execute();
    });
    expect(inserted).toEqual([{ id: '4' }]);
    const statements = texts.filter((text) => !/^(begin|commit)/i.test(text));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^with w1 as \(insert into "a".*\) insert into "b"/);
    expect([await count('a'), await count('b')]).toEqual([1, 1]);
  });

  it('fails the read that carries a waiting write that fails, and nothing of the transaction stays', async () => {
    await reset();
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('b').values({ id: 5 }).execute();
        await trx.executeQuery(later(trx.insertInto('a').values({ id: 5, n: -1 })));
        return trx.selectFrom('b').select('id').execute();
      }),
    ).rejects.toThrow(/check constraint/);
    expect(texts.filter((text) => text.startsWith('with w1'))).toHaveLength(1);
    expect([await count('a'), await count('b')]).toEqual([0, 0]);
  });

  it('runs two writes of one table in their order', async () => {
    await reset();
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(later(trx.insertInto('a').values({ id: 2, n: 1 })));
      await trx.executeQuery(later(trx.updateTable('a').set({ n: 5 }).where('id', '=', 2)));
    });
    const rows = await db.selectFrom('a').select('n').where('id', '=', 2).execute();
    expect(rows).toEqual([{ n: '5' }]);
  });

  it('sends two writes of one table as one statement when they are marked to go alongside', async () => {
    await reset();
    await sql`insert into a (id, n) values (6, 1)`.execute(db);
    texts.length = 0;
    const token = {};
    await db.transaction().execute(async (trx) => {
      await trx.executeQuery(
        deferrable(trx.insertInto('a').values({ id: 7, n: 1 }).compile(), token),
      );
      await trx.executeQuery(
        deferrable(trx.updateTable('a').set({ n: 2 }).where('id', '=', 6).compile(), token),
      );
      // Another write of the table without the token waits behind them.
      await trx.executeQuery(later(trx.updateTable('a').set({ n: 3 }).where('id', '=', 7)));
    });
    const statements = texts.filter((text) => !/^(begin|commit)/i.test(text));
    expect(statements).toHaveLength(2);
    expect(statements[0]).toMatch(/^with w1 as \(insert into "a".*w2 as \(update "a"/);
    const rows = await db.selectFrom('a').select(['id', 'n']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: '6', n: '2' },
      { id: '7', n: '3' },
    ]);
  });

  it('drops what waits when the transaction rolls back: the database never sees it', async () => {
    await reset();
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.executeQuery(later(trx.insertInto('b').values({ id: 3 })));
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(texts.some((text) => text.includes('insert into "b"'))).toBe(false);
    expect(await count('b')).toBe(0);
  });

  it('fails the commit when a waiting write fails, and nothing of the transaction stays', async () => {
    await reset();
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.executeQuery(later(trx.insertInto('b').values({ id: 4 })));
        await trx.executeQuery(later(trx.insertInto('a').values({ id: 4, n: -1 })));
      }),
    ).rejects.toThrow(/check constraint/);
    expect(await count('a')).toBe(0);
    expect(await count('b')).toBe(0);
  });

  it('drops what waits when a savepoint is rolled back, and keeps what came before it', async () => {
    await reset();
    const trx = await db.startTransaction().execute();
    await trx.executeQuery(later(trx.insertInto('a').values({ id: 5, n: 1 })));
    const member = await trx.savepoint('member').execute();
    await member.executeQuery(later(member.insertInto('b').values({ id: 5 })));
    await member.rollbackToSavepoint('member').execute();
    await trx.commit().execute();
    expect(texts.some((text) => text.includes('insert into "b"'))).toBe(false);
    expect(await count('a')).toBe(1);
    expect(await count('b')).toBe(0);
  });

  it('runs a deferrable write outside a transaction at once', async () => {
    await reset();
    await db.executeQuery(later(db.insertInto('b').values({ id: 6 })));
    expect(await count('b')).toBe(1);
  });

  it('keeps the merged texts prepared, with a carrier holding a list only when it is kept itself', async () => {
    await reset();
    const kept = new Set<string>();
    const pool = new pg.Pool({
      connectionString: url,
      max: 1,
      options: `-c search_path=${schema}`,
    });
    const keeping = new Kysely<Tables>({
      dialect: deferWrites(new PostgresDialect({ pool }), {
        add: (text) => kept.add(text),
        has: (text) => kept.has(text),
      }),
    });
    try {
      const merged = async (id: number, carrier: CompiledQuery) => {
        const before = new Set(kept);
        await keeping.transaction().execute(async (trx) => {
          await trx.executeQuery(later(trx.insertInto('a').values({ id, n: 1 })));
          await trx.executeQuery(carrier);
        });
        return [...kept].filter((text) => !before.has(text));
      };
      const plain = keeping.selectFrom('b').select('id').where('id', '=', 1).compile();
      const write = 'with w1 as (insert into "a" ("id", "n") values ($1, $2))';
      expect(await merged(7, plain)).toEqual([`${write} select "id" from "b" where "id" = $3`]);
      const listed = keeping.selectFrom('b').select('id').where('id', 'in', [1, 2]).compile();
      // A list of any length would make a text per length: not kept, unless its carrier is.
      expect(await merged(8, listed)).toEqual([]);
      kept.add(listed.sql);
      expect(await merged(9, listed)).toEqual([
        `${write} select "id" from "b" where "id" in ($3, $4)`,
      ]);
      expect(await count('a')).toBe(3);
    } finally {
      await keeping.destroy();
    }
  });
});
