import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine, ManualClock, type Repository } from '@fulfil/core';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRequestHandler,
  DEFAULT_LONG_POLL_LIMITS,
  type HttpResponse,
  type LongPollLimits,
  type RequestHandler,
} from '../../src/index.js';
import { START, salesOrder, TOKENS, testSeed } from './support.js';

const QUEUE = '/rest/default/V1/fulfillmentOrders/pending_accept';
const postgresUrl = process.env.FULFIL_TEST_POSTGRES_URL;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function engineOn(repository: Repository): Engine {
  const engine = createEngine({ repository, clock: new ManualClock(START) });
  cleanups.push(() => engine.close());
  return engine;
}

function handlerOf(engine: Engine, longPoll: Partial<LongPollLimits> = {}): RequestHandler {
  return createRequestHandler(engine, {
    log: () => {},
    longPoll: { ...DEFAULT_LONG_POLL_LIMITS, ...longPoll },
  });
}

function get(
  handler: RequestHandler,
  query: Record<string, string>,
  token: string = TOKENS.all,
  path = QUEUE,
): Promise<HttpResponse> {
  return handler({
    method: 'GET',
    path,
    query: new URLSearchParams(query),
    headers: { authorization: `Bearer ${token}` },
    body: Buffer.alloc(0),
  });
}

const bodyOf = (response: HttpResponse) => JSON.parse(String(response.body));
const numbersOf = (response: HttpResponse): string[] =>
  bodyOf(response).map(
    (order: { fulfillment_order_number: string }) => order.fulfillment_order_number,
  );

/** Settles once `handler` holds `count` long polls: no clock involved, only turns of the loop. */
async function held(handler: RequestHandler, count: number): Promise<void> {
  while (handler.waiting < count) await new Promise((resolve) => setImmediate(resolve));
}

async function seeded(repository: Repository): Promise<Engine> {
  const engine = engineOn(repository);
  await engine.loadSeed(testSeed());
  return engine;
}

describe('queue GETs: after, since and the cursor', () => {
  it('page through a queue with after, never repeating an order', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const handler = handlerOf(engine);
    const whole = await get(handler, {});
    const ids: number[] = bodyOf(whole).map((order: { id: number }) => order.id);
    const first = ids[0] as number;
    const rest = await get(handler, { after: String(first) });
    expect(bodyOf(rest).map((order: { id: number }) => order.id)).toEqual(ids.slice(1));
    expect(whole.headers['fulfil-cursor']).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    [{ page: '2', after: '1' }, 'after'],
    [{ since: 'x', page: '1' }, 'since'],
    [{ since: 'x', after: '1' }, 'since'],
    [{ since: 'x', date: '2026-01-01 00:00:00' }, 'since'],
    [{ after: '-1' }, 'after'],
    [{ after: 'abc' }, 'after'],
    [{ since: 'not a cursor' }, 'since'],
    [{ since: 'bm90IGEgY3Vyc29y' }, 'since'],
    [{ wait: 'soon' }, 'wait'],
  ])('%o is 400 naming %s, and changes nothing', async (query, field) => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const response = await get(handlerOf(engine), query);
    expect(response.status).toBe(400);
    expect(JSON.stringify(bodyOf(response).parameters)).toContain(field);
  });

  it('since a cursor: the orders changed after it, then nothing, then the next change', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const handler = handlerOf(engine);
    const start = (await get(handler, {})).headers['fulfil-cursor'] as string;
    expect(numbersOf(await get(handler, { since: start }))).toEqual([]);
    await engine.intake('default', salesOrder(2001, '200002001', 'WH-A', [['SKU-1', 1]]));
    const changed = await get(handler, { since: start });
    expect(numbersOf(changed)).toEqual(['200002001-1']);
    const next = changed.headers['fulfil-cursor'] as string;
    expect(numbersOf(await get(handler, { since: next }))).toEqual([]);
  });

  it('a cursor of another database is 410 cursor_expired', async () => {
    const one = await seeded(await openSqliteRepository(':memory:'));
    const other = await seeded(await openSqliteRepository(':memory:'));
    const cursor = (await get(handlerOf(one), {})).headers['fulfil-cursor'] as string;
    const response = await get(handlerOf(other), { since: cursor });
    expect(response.status).toBe(410);
    expect(bodyOf(response).code).toBe(1410);
  });
});

describe('long polling (wait)', () => {
  it('answers at once when the queue has something for the caller', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const response = await get(handlerOf(engine), { wait: '20' });
    expect(numbersOf(response).length).toBeGreaterThan(0);
  });

  it('holds a caller with nothing new until a commit of this process brings it something', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const handler = handlerOf(engine);
    const cursor = (await get(handler, {})).headers['fulfil-cursor'] as string;
    const waiting = get(handler, { since: cursor, wait: '20' });
    await held(handler, 1);
    await engine.intake('default', salesOrder(2001, '200002001', 'WH-A', [['SKU-1', 1]]));
    const response = await waiting;
    expect(response.status).toBe(200);
    expect(numbersOf(response)).toEqual(['200002001-1']);
    expect(handler.waiting).toBe(0);
  });

  it('wakes every waiter of a commit, more of them than look at once', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const handler = handlerOf(engine, { perToken: 100 });
    const cursor = (await get(handler, {})).headers['fulfil-cursor'] as string;
    const waiting = Array.from({ length: 40 }, () => get(handler, { since: cursor, wait: '20' }));
    await held(handler, 40);
    await engine.intake('default', salesOrder(2001, '200002001', 'WH-A', [['SKU-1', 1]]));
    for (const response of await Promise.all(waiting)) {
      expect(numbersOf(response)).toEqual(['200002001-1']);
    }
    expect(handler.waiting).toBe(0);
  });

  it('is not woken for good by a change it cannot see: a token of another warehouse waits on', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const handler = handlerOf(engine);
    const cursor = (await get(handler, {}, TOKENS.partnerB)).headers['fulfil-cursor'] as string;
    const waiting = get(handler, { since: cursor, wait: '20' }, TOKENS.partnerB);
    await held(handler, 1);
    await engine.intake('default', salesOrder(2001, '200002001', 'WH-A', [['SKU-1', 1]]));
    await engine.intake('default', salesOrder(2002, '200002002', 'WH-B', [['SKU-1', 1]]));
    expect(numbersOf(await waiting)).toEqual(['200002002-1']);
  });

  it('answers 200 [] with a cursor when the wait ends with nothing new', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const handler = handlerOf(engine, { maxWaitMs: 30 });
    const cursor = (await get(handler, {})).headers['fulfil-cursor'] as string;
    const response = await get(handler, { since: cursor, wait: '25' });
    expect(response.status).toBe(200);
    expect(bodyOf(response)).toEqual([]);
    expect(response.headers['fulfil-cursor']).toBe(cursor);
  });

  it('caps the waiters per token and in all: 429 with Retry-After', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const handler = handlerOf(engine, { perToken: 1, total: 2 });
    const cursor = (await get(handler, {})).headers['fulfil-cursor'] as string;
    const first = get(handler, { since: cursor, wait: '20' });
    await held(handler, 1);
    const sameToken = await get(handler, { since: cursor, wait: '20' });
    expect(sameToken.status).toBe(429);
    expect(sameToken.headers['retry-after']).toBe('1');
    const allocation = '/rest/default/V1/fulfillmentOrders/pending_allocation';
    const erpCursor = (await get(handler, {}, TOKENS.erp, allocation)).headers['fulfil-cursor'];
    const second = get(handler, { since: erpCursor as string, wait: '20' }, TOKENS.erp, allocation);
    await held(handler, 2);
    const overall = await get(handler, { since: cursor, wait: '20' }, TOKENS.partnerA);
    expect(overall.status).toBe(429);
    // Without wait, never capped.
    expect((await get(handler, { since: cursor })).status).toBe(200);
    handler.endWaits();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
  });

  it('shutdown answers every waiter at once with 200 [] and its cursor', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const handler = handlerOf(engine);
    const cursor = (await get(handler, {})).headers['fulfil-cursor'] as string;
    const waiters = [
      get(handler, { since: cursor, wait: '20' }),
      get(handler, { since: cursor, wait: '20' }),
    ];
    await held(handler, 2);
    handler.endWaits();
    for (const response of await Promise.all(waiters)) {
      expect(response.status).toBe(200);
      expect(bodyOf(response)).toEqual([]);
      expect(response.headers['fulfil-cursor']).toBe(cursor);
    }
    // After the shutdown began, a wait is not held: answered at once.
    expect(bodyOf(await get(handler, { since: cursor, wait: '20' }))).toEqual([]);
  });
});

/** A commit by another repository (its own connection: another process, as the database sees it). */
describe.each([
  [
    'sqlite file',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'fulfil-long-poll-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const filename = join(dir, 'fulfil.db');
      return () => openSqliteRepository({ filename });
    },
  ],
  ...(postgresUrl
    ? [
        [
          'postgres',
          async () => {
            const schema = `fulfil_long_poll_${process.pid}_${Date.now()}`;
            cleanups.push(async () => {
              const admin = await openPostgresRepository({
                connectionString: postgresUrl,
                skipMigrations: true,
              });
              await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
              await admin.close();
            });
            return () => openPostgresRepository({ connectionString: postgresUrl, schema });
          },
        ] as const,
      ]
    : []),
] as const)('%s: a waiter is woken by a commit of another process', (_name, database) => {
  it('answers with the order the other one took in', async () => {
    const open = await database();
    const engine = await seeded(await open());
    const writer = engineOn(await open());
    const handler = handlerOf(engine);
    const cursor = (await get(handler, {})).headers['fulfil-cursor'] as string;
    const waiting = get(handler, { since: cursor, wait: '20' });
    await held(handler, 1);
    await writer.intake('default', salesOrder(2001, '200002001', 'WH-A', [['SKU-1', 1]]));
    expect(numbersOf(await waiting)).toEqual(['200002001-1']);
  });
});
