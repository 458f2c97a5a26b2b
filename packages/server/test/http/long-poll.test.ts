import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine, ManualClock, type Repository } from '@fulfil/core';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createRequestHandler,
  DEFAULT_LONG_POLL_LIMITS,
  type HttpRequest,
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

function engineOn(repository: Repository, clock = new ManualClock(START)): Engine {
  const engine = createEngine({ repository, clock });
  cleanups.push(() => engine.close());
  return engine;
}

function handlerOf(engine: Engine, longPoll: Partial<LongPollLimits> = {}): RequestHandler {
  return createRequestHandler(engine, {
    log: () => {},
    longPoll: { ...DEFAULT_LONG_POLL_LIMITS, ...longPoll },
  });
}

function request(
  query: Record<string, string>,
  token: string = TOKENS.all,
  path = QUEUE,
): HttpRequest {
  return {
    method: 'GET',
    path,
    query: new URLSearchParams(query),
    headers: { authorization: `Bearer ${token}` },
    body: Buffer.alloc(0),
  };
}

function get(
  handler: RequestHandler,
  query: Record<string, string>,
  token: string = TOKENS.all,
  path = QUEUE,
): Promise<HttpResponse> {
  return handler(request(query, token, path));
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

async function seeded(repository: Repository, clock?: ManualClock): Promise<Engine> {
  const engine = engineOn(repository, clock);
  await engine.loadSeed(testSeed());
  return engine;
}

/** What a plain call with a refused token answers: a held request refused later must match it. */
async function refusedLike(handler: RequestHandler, token: string) {
  const plain = await get(handler, {}, token);
  expect(plain.status).toBe(401);
  return { body: bodyOf(plain), challenge: plain.headers['www-authenticate'] };
}

/** Asserts that `response` is the 401 of a refused token, and carries no order. */
function expectRefused(response: HttpResponse, like: Awaited<ReturnType<typeof refusedLike>>) {
  expect(response.status).toBe(401);
  expect(bodyOf(response)).toEqual(like.body);
  expect(response.headers['www-authenticate']).toBe(like.challenge);
  expect(response.headers['fulfil-cursor']).toBeUndefined();
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

  it('a wait whose client went away frees its slot at once, and is looked for no more', async () => {
    const engine = await seeded(await openSqliteRepository(':memory:'));
    const handler = handlerOf(engine);
    const cursor = (await get(handler, {})).headers['fulfil-cursor'] as string;
    const clients = Array.from({ length: 10 }, () => new AbortController());
    const dropped = clients.map((client) =>
      handler({ ...request({ since: cursor, wait: '20' }), signal: client.signal }),
    );
    await held(handler, 10);
    const looks = vi.spyOn(engine, 'pollPage');
    for (const client of clients) client.abort();
    expect(handler.waiting).toBe(0);
    for (const response of await Promise.all(dropped)) expect(response.status).toBe(499);
    await engine.intake('default', salesOrder(2001, '200002001', 'WH-A', [['SKU-1', 1]]));
    expect(looks).not.toHaveBeenCalled();
    // The token's ten slots are free: ten new waits are held, the eleventh is refused.
    const next = (await get(handler, { since: cursor })).headers['fulfil-cursor'] as string;
    const again = Array.from({ length: 10 }, () => get(handler, { since: next, wait: '20' }));
    await held(handler, 10);
    expect((await get(handler, { since: next, wait: '20' })).status).toBe(429);
    handler.endWaits();
    await Promise.all(again);
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

/**
 * Databases a second repository can open (its own connection: another process, as the database
 * sees it): what opens one repository on it each time it is called.
 */
const sharedDatabases = [
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
] as const;

/** A token that expires while its request is held, on every database. */
describe.each([
  ['sqlite :memory:', async () => () => openSqliteRepository(':memory:')] as const,
  ...sharedDatabases,
] as const)('%s: a held request never outlives its token', (_name, database) => {
  /** An engine on the database whose clock the test moves, with a token that expires at `at`. */
  async function expiring(at: string) {
    const clock = new ManualClock(START);
    const engine = await seeded(await (await database())(), clock);
    const secret = 'short-lived-secret-0123456789abcdef';
    await engine.createToken('default', {
      name: 'short',
      token: secret,
      acl: 'all',
      expires_at: at,
    });
    return { clock, engine, secret };
  }

  it('a token whose expiry passes during the wait: the next order is answered 401, not sent', async () => {
    const { clock, engine, secret } = await expiring('2026-01-01 01:00:00');
    const handler = handlerOf(engine);
    const cursor = (await get(handler, {}, secret)).headers['fulfil-cursor'] as string;
    const waiting = get(handler, { since: cursor, wait: '20' }, secret);
    await held(handler, 1);
    clock.advance(2 * 3_600_000);
    await engine.intake('default', salesOrder(2001, '200002001', 'WH-A', [['SKU-1', 1]]));
    expectRefused(await waiting, await refusedLike(handler, secret));
  });

  it('a token that expires before the wait would end: the wait ends at the expiry with 401', async () => {
    const { clock, engine, secret } = await expiring('2026-01-01 00:00:01');
    // The wait would end after 5 s with 200 []; the token ends after 1 s of the engine's clock.
    const handler = handlerOf(engine, { maxWaitMs: 5_000, jitter: 0 });
    const cursor = (await get(handler, {}, secret)).headers['fulfil-cursor'] as string;
    const waiting = get(handler, { since: cursor, wait: '20' }, secret);
    await held(handler, 1);
    clock.advance(1_000);
    expectRefused(await waiting, await refusedLike(handler, secret));
  });
});

/** A commit by another repository. */
describe.each(sharedDatabases)(
  '%s: a waiter is woken by a commit of another process',
  (_name, database) => {
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
  },
);

/** Who revokes the token of a held request: this process, or another one on the same database. */
describe.each([
  [
    'this process',
    async () => {
      const engine = await seeded(await openSqliteRepository(':memory:'));
      return { engine, writer: engine };
    },
  ],
  ...sharedDatabases.map(
    ([name, database]) =>
      [
        `another process (${name})`,
        async () => {
          const open = await database();
          return { engine: await seeded(await open()), writer: engineOn(await open()) };
        },
      ] as const,
  ),
] as const)('a token revoked by %s', (_name, setUp) => {
  it('ends the held request with 401 at once, not 200 at the end of the wait', async () => {
    const { engine, writer } = await setUp();
    const handler = handlerOf(engine, { maxWaitMs: 5_000, jitter: 0 });
    const cursor = (await get(handler, {})).headers['fulfil-cursor'] as string;
    const waiting = get(handler, { since: cursor, wait: '20' });
    await held(handler, 1);
    await writer.revokeToken('default', 'all');
    expectRefused(await waiting, await refusedLike(handler, TOKENS.all));
    expect(handler.waiting).toBe(0);
  });

  it('never lets the order taken in after the revocation reach the held request', async () => {
    const { engine, writer } = await setUp();
    const handler = handlerOf(engine);
    const cursor = (await get(handler, {})).headers['fulfil-cursor'] as string;
    const waiting = get(handler, { since: cursor, wait: '20' });
    await held(handler, 1);
    await writer.revokeToken('default', 'all');
    await writer.intake('default', salesOrder(2001, '200002001', 'WH-A', [['SKU-1', 1]]));
    expectRefused(await waiting, await refusedLike(handler, TOKENS.all));
  });
});
