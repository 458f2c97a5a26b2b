import { createHook } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Database, onItsConnection } from '@fulfil/storage-kysely';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  type KyselyPlugin,
  type Transaction,
} from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ImmediateSqliteDialect } from '../src/index.js';

const select = (n: number) => CompiledQuery.raw('select ? as n', [n]);

/** The connections of `dialect`, each statement of them told to `seen` as it starts and ends. */
function watched(dialect: Dialect, seen: string[], throwsAt?: string): Dialect {
  const watch = (connection: DatabaseConnection): DatabaseConnection => ({
    executeQuery<R>(query: CompiledQuery) {
      if (query.sql === throwsAt) throw new Error('the driver threw before its first await');
      seen.push(`start ${query.parameters[0] ?? query.sql}`);
      return sleep(2)
        .then(() => connection.executeQuery<R>(query))
        .finally(() => seen.push(`end ${query.parameters[0] ?? query.sql}`));
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  });
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver(): Driver {
      const inner = dialect.createDriver();
      return {
        init: () => inner.init(),
        acquireConnection: async () => watch(await inner.acquireConnection()),
        beginTransaction: (connection, settings) => inner.beginTransaction(connection, settings),
        commitTransaction: (connection) => inner.commitTransaction(connection),
        rollbackTransaction: (connection) => inner.rollbackTransaction(connection),
        releaseConnection: (connection) => inner.releaseConnection(connection),
        destroy: () => inner.destroy(),
      };
    },
  };
}

/** How many promises `work` makes. */
async function promisesOf(work: () => Promise<unknown>): Promise<number> {
  let made = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') made += 1;
    },
  }).enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return made;
}

describe('a transaction on its connection', () => {
  const opened: Kysely<Database>[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
  });

  function open(seen: string[] = [], options: { throwsAt?: string; plugin?: KyselyPlugin } = {}) {
    const dialect = watched(
      new ImmediateSqliteDialect({ database: new BetterSqlite3(':memory:') }),
      seen,
      options.throwsAt,
    );
    const db = new Kysely<Database>({
      dialect,
      ...(options.plugin ? { plugins: [options.plugin] } : {}),
    });
    opened.push(db);
    return { db, dialect };
  }

  it('runs each statement past kysely’s executor: a fraction of its promises', async () => {
    const { db, dialect } = open();
    const twenty = async (trx: Transaction<Database>) => {
      for (let n = 0; n < 20; n++) await trx.executeQuery(select(n));
    };
    // Once each way first, so that neither counts what a first run sets up.
    await db.transaction().execute(twenty);
    await db.transaction().execute((trx) => onItsConnection(trx, dialect, twenty));
    const throughKysely = await promisesOf(() => db.transaction().execute(twenty));
    const onConnection = await promisesOf(() =>
      db.transaction().execute((trx) => onItsConnection(trx, dialect, twenty)),
    );
    expect(onConnection).toBeLessThan(throughKysely / 2);
  });

  it('answers each statement as kysely does, query builders included', async () => {
    const { db, dialect } = open();
    const answers = await db
      .transaction()
      .execute((trx) =>
        onItsConnection(trx, dialect, async (direct) => [
          (await direct.executeQuery(select(7))).rows,
          await direct.selectNoFrom((eb) => eb.val(8).as('n')).execute(),
        ]),
      );
    expect(answers).toEqual([[{ n: 7 }], [{ n: 8 }]]);
  });

  it('runs statements asked for at once one after another, in the order asked', async () => {
    const seen: string[] = [];
    const { db, dialect } = open(seen);
    await db.transaction().execute((trx) =>
      onItsConnection(trx, dialect, async (direct) => {
        seen.length = 0;
        const rows = await Promise.all([1, 2, 3].map((n) => direct.executeQuery(select(n))));
        expect(rows.map((result) => result.rows)).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }]]);
      }),
    );
    expect(seen.slice(0, 6)).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('fails a statement whose driver throws before its first await, and goes on', async () => {
    const { db, dialect } = open([], { throwsAt: 'select 0' });
    const after = await db.transaction().execute((trx) =>
      onItsConnection(trx, dialect, async (direct) => {
        const failing = direct.executeQuery(CompiledQuery.raw('select 0'));
        await expect(failing).rejects.toThrow('the driver threw before its first await');
        return (await direct.executeQuery(select(9))).rows;
      }),
    );
    expect(after).toEqual([{ n: 9 }]);
  });

  it('refuses a statement once the transaction has ended', async () => {
    const { db, dialect } = open();
    let kept: Transaction<Database> | undefined;
    await db.transaction().execute((trx) =>
      onItsConnection(trx, dialect, async (direct) => {
        kept = direct;
      }),
    );
    // As kysely refuses it: at once, the transaction's own statement.
    expect(() => (kept as Transaction<Database>).executeQuery(select(1))).toThrow(
      'Transaction is already committed',
    );
    await expect(
      (kept as Transaction<Database>).selectNoFrom((eb) => eb.val(1).as('n')).execute(),
    ).rejects.toThrow('Transaction is already committed');
  });

  it('leaves a transaction whose kysely has plugins to kysely’s executor', async () => {
    let results = 0;
    const plugin: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        results += 1;
        return args.result;
      },
    };
    const { db, dialect } = open([], { plugin });
    await db.transaction().execute((trx) =>
      onItsConnection(trx, dialect, async (direct) => {
        await direct.selectNoFrom((eb) => eb.val(1).as('n')).execute();
      }),
    );
    expect(results).toBe(1);
  });
});
