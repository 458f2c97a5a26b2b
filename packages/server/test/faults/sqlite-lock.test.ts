import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type Engine, ManualClock, type Repository, unverified } from '@fulfil/core';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpServer } from '../../src/index.js';
import { call, START, TOKENS, testSeed } from '../http/support.js';
import {
  killAll,
  PARTNER,
  call as processCall,
  startServer,
  storeSeed,
  writeSeed,
} from '../scale-out/support.js';

/**
 * Another process holds the SQLite file's write lock (`BEGIN IMMEDIATE`) while the server, in
 * this very process, gets a stock sync, `/health` and a queue poll. better-sqlite3 is
 * synchronous: a server that let SQLite wait for the lock froze its whole event loop, probes
 * included. It must instead answer `/health` and the poll while the write waits, apply the
 * write once the lock is free, and answer it 503 with Retry-After when the lock outlasts the
 * write's limit, with nothing of it applied.
 */

const holderScript = fileURLToPath(new URL('./hold-sqlite-lock.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The holder lets go by itself after this long if not asked to before: longer than the short
 * limit below, shorter than the 5 s for which the server used to block its thread waiting. Such a
 * server took the lock inside that blocking wait and answered the write before it could even
 * read `/health` or tell the holder to let go, which the assertions below catch.
 */
const HOLD_MS = 4000;

interface LockHolder {
  /** Asks it to let go; resolves with how it did: `released on request` or `released by itself`. */
  release(): Promise<string>;
}

const holders = new Set<ChildProcessWithoutNullStreams>();

/** Starts a process that holds the file's write lock; resolves once it does. */
async function holdLock(filename: string): Promise<LockHolder> {
  const child = spawn(process.execPath, ['--import', 'tsx', holderScript, filename, `${HOLD_MS}`], {
    cwd: repoRoot,
  });
  holders.add(child);
  let out = '';
  let err = '';
  const lines: ((text: string) => boolean)[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const waiter of [...lines]) if (waiter(out)) lines.splice(lines.indexOf(waiter), 1);
  });
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      child.once('exit', () => {
        const match = out.match(pattern);
        if (match) resolve(match[0]);
        else reject(new Error(`the lock holder exited:\n${out}${err}`));
      });
      lines.push((text) => {
        const match = text.match(pattern);
        if (match) resolve(match[0]);
        return match !== null;
      });
    });
  await line(/locked/);
  const released = line(/released (on request|by itself)/);
  return {
    release() {
      if (child.exitCode === null) child.stdin.write('release\n');
      return released;
    },
  };
}

/** What the test sees of the server: its URL, and the moment a write reaches the repository. */
interface Served {
  url: string;
  engine: Engine;
  /** Resolves when the next write transaction is asked of the repository. */
  nextWrite(): Promise<void>;
  close(): Promise<void>;
}

/** The real HTTP server over an engine on the SQLite file, with the test seed. */
async function serveFile(filename: string, lockTimeoutMs: number): Promise<Served> {
  const repository = await openSqliteRepository({ filename, lockTimeoutMs });
  let wrote = () => {};
  // The repository as it is, except that a write transaction asked of it is told.
  const watched = new Proxy(repository, {
    get(target, key) {
      if (key === 'transaction') {
        return (...args: Parameters<Repository['transaction']>) => {
          if (args[1] !== 'read') wrote();
          return target.transaction(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const engine = createEngine({ repository: watched, clock: new ManualClock(START) });
  await engine.loadSeed(unverified(testSeed()));
  const server = await startHttpServer({ engine, log: () => {} });
  return {
    url: server.url,
    engine,
    nextWrite: () =>
      new Promise<void>((resolve) => {
        wrote = resolve;
      }),
    async close() {
      await server.close();
      await engine.close();
    },
  };
}

const STOCK = (qty: number) => ({
  stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty }],
});

/** What the database holds of WH-A's SKU-1, on hand. */
async function onHand(engine: Engine): Promise<number | undefined> {
  const rows = await engine.listStock('default', { sku: 'SKU-1' });
  return rows.find((row) => row.warehouse_code === 'WH-A')?.on_hand;
}

describe('sqlite: another process holds the write lock', () => {
  let dir: string;
  let served: Served | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fulfil-lock-'));
  });

  afterEach(async () => {
    for (const child of holders) child.kill();
    holders.clear();
    await killAll();
    await served?.close();
    served = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * Sends the stock sync while the lock is held, then, once it has reached the repository,
   * `/health`, a queue poll and a timer; returns the order in which they were answered (the write
   * last of all when nothing waits on the thread) and the write's reply.
   */
  async function writeWhileLocked(server: Served, whileWaiting: () => Promise<void>) {
    const order: string[] = [];
    const reachedRepository = server.nextWrite();
    const write = call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.partnerA,
      json: STOCK(7),
    }).then((reply) => {
      order.push('write');
      return reply;
    });
    await reachedRepository;
    const timer = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() =>
      order.push('timer'),
    );
    const health = fetch(`${server.url}/health`).then(async (response) => {
      order.push('health');
      return { status: response.status, body: await response.json() };
    });
    const poll = call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: TOKENS.partnerA,
    }).then((reply) => {
      order.push('poll');
      return reply;
    });
    await Promise.all([timer, health, poll]);
    await whileWaiting();
    expect(await health).toEqual({ status: 200, body: { status: 'ok' } });
    const polled = await poll;
    expect(polled.status).toBe(200);
    expect(polled.body.length).toBeGreaterThan(0);
    const reply = await write;
    return { order, reply };
  }

  it('serves /health and reads while a write waits, and applies the write once the lock is free', {
    timeout: 20_000,
  }, async () => {
    const filename = join(dir, 'fulfil.db');
    served = await serveFile(filename, 60_000);
    const holder = await holdLock(filename);
    let released = '';
    const { order, reply } = await writeWhileLocked(served, async () => {
      // Everything above was answered while the lock was held: now let it go.
      released = await holder.release();
    });
    expect(released).toBe('released on request');
    expect(order.slice(0, 3).sort()).toEqual(['health', 'poll', 'timer']);
    expect(order[3]).toBe('write');
    expect(reply.status).toBe(200);
    expect(await onHand(served.engine)).toBe(7);
  });

  it('answers a write 503 with Retry-After once it has waited its limit, and applies nothing', {
    timeout: 20_000,
  }, async () => {
    const filename = join(dir, 'fulfil.db');
    served = await serveFile(filename, 1000);
    const holder = await holdLock(filename);
    const { order, reply } = await writeWhileLocked(served, async () => {});
    // The write gave up while the lock was still held: the holder lets go only now.
    expect(await holder.release()).toBe('released on request');
    expect(order).toEqual(expect.arrayContaining(['health', 'poll', 'timer']));
    expect(order.at(-1)).toBe('write');
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('1');
    expect(reply.body).toMatchObject({ code: 1503 });
    expect(await onHand(served.engine)).toBe(100);

    // The lock is free: the same write goes through.
    const again = await call(served, 'POST', '/V1/stockItems', {
      token: TOKENS.partnerA,
      json: STOCK(7),
    });
    expect(again.status).toBe(200);
    expect(await onHand(served.engine)).toBe(7);
  });

  it('fulfil serve --lock-timeout sets how long a write waits for the lock', {
    timeout: 60_000,
  }, async () => {
    const filename = join(dir, 'fulfil.db');
    const seed = await writeSeed(
      dir,
      storeSeed([{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 }], []),
    );
    const server = await startServer([
      '--db',
      `sqlite:${filename}`,
      '--seed',
      seed,
      '--courier-interval',
      '0',
      '--lock-timeout',
      '200',
    ]);
    const holder = await holdLock(filename);
    const reply = await processCall(server.url, PARTNER, 'POST', 'stockItems', STOCK(7));
    expect(await holder.release()).toBe('released on request');
    expect(reply).toMatchObject({ status: 503, body: { code: 1503 } });
    expect(await server.stop()).toBe(0);
  });
});
