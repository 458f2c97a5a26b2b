import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CommitSync,
  commitSyncProbe,
  ImmediateSqliteDialect,
  isSqliteUnavailable,
  openSqliteRepository,
  type SyncedFile,
  syncedFile,
} from '../src/index.js';

interface Table {
  t: { n: number };
}

/** A WAL file whose syncs wait until the test lets them end, each told to `events`. */
class HeldFile implements SyncedFile {
  syncs = 0;
  closed = false;
  failNext = false;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly events: string[]) {}

  sync(): Promise<void> {
    this.syncs += 1;
    this.events.push('sync started');
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push(() => {
        this.events.push('sync done');
        if (this.failNext) {
          this.failNext = false;
          reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
        } else resolve();
      });
    });
  }

  /** Ends the syncs under way. */
  release(): void {
    for (const end of this.#waiting.splice(0)) end();
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

let dir: string;
let sqlite: BetterSqlite3.Database;
let events: string[];
let file: HeldFile;
let db: Kysely<Table>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fulfil-commit-sync-'));
  sqlite = new BetterSqlite3(join(dir, 'db.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.exec('create table t (n integer)');
  events = [];
  file = new HeldFile(events);
  const commitSync = new CommitSync(file);
  db = new Kysely<Table>({
    dialect: new ImmediateSqliteDialect({ database: sqlite, commitSync }),
  });
});

afterEach(async () => {
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

/** Whether `promise` has settled after the turns that are due have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await sleep(5);
  return done;
}

describe('the sync of a SQLite WAL file after each write', () => {
  it('answers a write transaction only once its sync is done, and holds the next transaction until then', async () => {
    const write = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ n: 1 }).execute();
      events.push('committing');
    });
    expect(await settled(write)).toBe(false);
    expect(file.syncs).toBe(1);
    const read = db
      .transaction()
      .execute((trx) => trx.selectFrom('t').selectAll().execute())
      .then((rows) => {
        events.push('next transaction read');
        return rows;
      });
    expect(await settled(read)).toBe(false);
    file.release();
    await write;
    expect(await read).toEqual([{ n: 1 }]);
    expect(events).toEqual(['committing', 'sync started', 'sync done', 'next transaction read']);
  });

  it('syncs a write outside a transaction', async () => {
    const insert = db.insertInto('t').values({ n: 2 }).execute();
    expect(await settled(insert)).toBe(false);
    file.release();
    await insert;
    expect(file.syncs).toBe(1);
  });

  it('watches a database given as a function as well', async () => {
    const other = new HeldFile(events);
    const byFunction = new Kysely<Table>({
      dialect: new ImmediateSqliteDialect({
        database: async () => new BetterSqlite3(join(dir, 'db.sqlite')),
        commitSync: new CommitSync(other),
      }),
    });
    try {
      const insert = byFunction.insertInto('t').values({ n: 6 }).execute();
      expect(await settled(insert)).toBe(false);
      other.release();
      await insert;
      expect(other.syncs).toBe(1);
    } finally {
      await byFunction.destroy();
    }
  });

  it('syncs nothing after reads and transactions that only read', async () => {
    await db.selectFrom('t').selectAll().execute();
    await db
      .transaction()
      .setAccessMode('read only')
      .execute((trx) => trx.selectFrom('t').selectAll().execute());
    await db.transaction().execute((trx) => trx.selectFrom('t').selectAll().execute());
    expect(file.syncs).toBe(0);
  });

  it('fails a write whose sync failed as the database being unavailable, and syncs again at the next use', async () => {
    file.failNext = true;
    const write = db.transaction().execute((trx) => trx.insertInto('t').values({ n: 3 }).execute());
    expect(await settled(write)).toBe(false);
    file.release();
    const error = await write.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isSqliteUnavailable(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ code: 'EIO' });
    // The connection was handed back: the next statement runs, and syncs what was not synced.
    const read = db.selectFrom('t').selectAll().execute();
    expect(await settled(read)).toBe(false);
    expect(file.syncs).toBe(2);
    file.release();
    expect(await read).toEqual([{ n: 3 }]);
  });

  it('tells each sync on the fulfil:commit-sync channel', async () => {
    const heard: unknown[] = [];
    const hear = (message: unknown) => heard.push({ ...(message as object) });
    commitSyncProbe.channel.asyncEnd.subscribe(hear);
    try {
      const write = db.insertInto('t').values({ n: 5 }).execute();
      await settled(write);
      file.release();
      await write;
    } finally {
      commitSyncProbe.channel.asyncEnd.unsubscribe(hear);
    }
    expect(heard).toEqual([{ system: 'sqlite', result: undefined }]);
  });

  it('closes the file with the database', async () => {
    await db.selectFrom('t').selectAll().execute();
    await db.destroy();
    expect(file.closed).toBe(true);
  });
});

describe('syncedFile', () => {
  it('syncs a file through one handle, closed by close', async () => {
    const path = join(dir, 'db.sqlite-wal');
    sqlite.exec('insert into t values (4)');
    const open = async () => (await readdir('/proc/self/fd')).length;
    const before = await open();
    const wal = syncedFile(path);
    await wal.sync();
    await wal.sync();
    expect(await open()).toBe(before + 1);
    await wal.close();
    expect(await open()).toBe(before);
  });

  it('fails a sync of a file that is not there, and tries afresh at the next one', async () => {
    const wal = syncedFile(join(dir, 'missing'));
    await expect(wal.sync()).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(wal.sync()).rejects.toMatchObject({ code: 'ENOENT' });
    await wal.close();
  });
});

describe('openSqliteRepository on a file', () => {
  it('leaves the sync of its commits to itself (synchronous NORMAL), and to SQLite in memory', async () => {
    const onFile = await openSqliteRepository(join(dir, 'repository.db'));
    const inMemory = await openSqliteRepository(':memory:');
    try {
      const level = async (repository: typeof onFile) =>
        (await sql<{ synchronous: number }>`pragma synchronous`.execute(repository.db)).rows[0]
          ?.synchronous;
      expect(await level(onFile)).toBe(1);
      expect(await level(inMemory)).toBe(2);
    } finally {
      await onFile.close();
      await inMemory.close();
    }
  });
});
