import { createEngine, type Engine, ManualClock } from '@fulfil/core';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createRequestHandler, startSessionSweep } from '../../src/index.js';

/**
 * Operator sessions end at their expiry, and their rows go soon after (docs/admin-api.md):
 * within a minute in `serve`, whose sweep runs on a timer; the lifetime is the installation's.
 */

const START = '2026-01-01T00:00:00Z';
const HOUR = 3_600_000;

const engines: Engine[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  for (const engine of engines.splice(0)) await engine.close();
});

async function setUp(options: { sessionHours?: number } = {}) {
  const clock = new ManualClock(START);
  const repository = await openSqliteRepository(':memory:');
  const engine = createEngine({ repository, clock, ...options });
  engines.push(engine);
  const { secret } = await engine.admin.createOperator({ name: 'alice', role: 'admin' });
  const rows = async () =>
    Number(
      (
        await repository.db
          .selectFrom('operator_sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const login = () => engine.admin.login({ name: 'alice', secret });
  return { clock, engine, rows, login };
}

describe('expired sessions', () => {
  test('the sweep in serve deletes every session within its interval of expiry, and no live one', async () => {
    const { clock, engine, rows, login } = await setUp();
    for (let index = 0; index < 20; index++) await login();
    clock.advance(6 * HOUR);
    const live = await login();
    expect(await rows()).toBe(21);
    stops.push(startSessionSweep(engine, { intervalMs: 20, log: () => {} }));
    // Nothing has expired yet: the sweep deletes nothing.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await rows()).toBe(21);
    clock.advance(6 * HOUR);
    await vi.waitFor(async () => expect(await rows()).toBe(1), { timeout: 15_000, interval: 10 });
    expect((await engine.admin.sessionOperator(live.session)).name).toBe('alice');
    clock.advance(6 * HOUR);
    await vi.waitFor(async () => expect(await rows()).toBe(0), { timeout: 15_000, interval: 10 });
  });

  test('a login deletes the sessions that expired before it', async () => {
    const { clock, rows, login } = await setUp();
    for (let index = 0; index < 5; index++) await login();
    clock.advance(12 * HOUR + 1000);
    await login();
    expect(await rows()).toBe(1);
  });

  test('the installation sets the lifetime: the session and its cookie end after it', async () => {
    const { clock, engine, login } = await setUp({ sessionHours: 2 });
    const { session } = await login();
    clock.advance(2 * HOUR - 1000);
    expect((await engine.admin.sessionOperator(session)).name).toBe('alice');
    clock.advance(1000);
    await expect(engine.admin.sessionOperator(session)).rejects.toMatchObject({
      code: 'unauthenticated',
    });
    const handler = createRequestHandler(engine, { log: () => {}, admin: {} });
    const { secret } = await engine.admin.createOperator({ name: 'bob', role: 'viewer' });
    const answer = await handler({
      method: 'POST',
      path: '/admin/api/session',
      query: {},
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: Buffer.from(JSON.stringify({ name: 'bob', secret })),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['set-cookie']).toMatch(/Max-Age=7200(;|$)/);
  });

  test('a lifetime that is no positive number of hours is refused', () => {
    for (const sessionHours of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createEngine({ repository: {} as never, sessionHours })).toThrow(/sessionHours/);
    }
  });
});
