import { describe, expect, test, vi } from 'vitest';
import { createMetrics, DEFAULT_LONG_POLL_LIMITS } from '../../src/index.js';
import { adminCall } from '../admin/support.js';
import {
  call,
  metricsOf,
  PATIENCE,
  sample,
  serverPerTest,
  type TestServer,
  TOKENS,
} from './support.js';

/**
 * Held waits and the waiter caps have series of their own (docs/monitoring.md), and the series
 * of failed authentications counts failed authentications only: a waiter cap's 429 is not one.
 */

const start = serverPerTest();

const QUEUE = '/rest/default/V1/fulfillmentOrders/pending_accept';
/** The wait each held poll asks for; the test's own timeout is longer. */
const WAIT_S = 20;

/** A queue GET held by the server until `controller` aborts it (or the wait ends). */
function wait(
  server: TestServer,
  cursor: string,
  controller: AbortController,
  token: string = TOKENS.all,
) {
  return fetch(`${server.url}${QUEUE}?since=${cursor}&wait=${WAIT_S}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  }).catch(() => undefined);
}

async function cursorOf(server: TestServer, token: string = TOKENS.all): Promise<string> {
  const reply = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', { token });
  return reply.headers.get('fulfil-cursor') as string;
}

const waiting = 'fulfil_long_polls_waiting';

describe('long-poll and authentication series', () => {
  test('held waits are a gauge, cap refusals a counter by cap, and neither is a failed authentication', async () => {
    const server = await start({
      server: {
        metrics: createMetrics(),
        admin: {},
        longPoll: { ...DEFAULT_LONG_POLL_LIMITS, perToken: 1, total: 2 },
      },
    });
    await server.engine.admin.createOperator({ name: 'alice', role: 'admin' });
    expect(sample(await metricsOf(server), waiting)).toBe(0);
    const cursor = await cursorOf(server);
    const partnerCursor = await cursorOf(server, TOKENS.partnerA);
    const controllers = [new AbortController(), new AbortController()];
    const held = [wait(server, cursor, controllers[0] as AbortController)];
    await vi.waitFor(
      async () => expect(sample(await metricsOf(server), waiting)).toBe(1),
      PATIENCE,
    );
    const sameToken = await fetch(`${server.url}${QUEUE}?since=${cursor}&wait=${WAIT_S}`, {
      headers: { authorization: `Bearer ${TOKENS.all}` },
    });
    expect(sameToken.status).toBe(429);
    held.push(wait(server, partnerCursor, controllers[1] as AbortController, TOKENS.partnerA));
    await vi.waitFor(
      async () => expect(sample(await metricsOf(server), waiting)).toBe(2),
      PATIENCE,
    );
    const overall = await fetch(`${server.url}${QUEUE}?since=${cursor}&wait=${WAIT_S}`, {
      headers: { authorization: `Bearer ${TOKENS.partnerB}` },
    });
    expect(overall.status).toBe(429);
    // A bad token, a wrong operator secret and a failed login: three failed authentications.
    expect((await call(server, 'GET', '/V1/warehouses', { token: 'wrong' })).status).toBe(401);
    expect((await adminCall(server, 'GET', '/dashboard', { secret: 'wrong' })).status).toBe(401);
    const failedLogin = await adminCall(server, 'POST', '/session', {
      json: { name: 'alice', secret: 'wrong' },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(failedLogin.status).toBe(401);
    // A page opened before logging in is none.
    expect((await adminCall(server, 'GET', '/session')).status).toBe(401);

    const text = await metricsOf(server);
    expect(text).toContain(`# TYPE ${waiting} gauge`);
    expect(sample(text, waiting)).toBe(2);
    expect(text).toContain('# TYPE fulfil_long_poll_refusals_total counter');
    expect(sample(text, 'fulfil_long_poll_refusals_total{cap="token"}')).toBe(1);
    expect(sample(text, 'fulfil_long_poll_refusals_total{cap="server"}')).toBe(1);
    expect(text).toContain('# TYPE fulfil_auth_failures_total counter');
    const failures = (surface: string, status: number) =>
      sample(text, `fulfil_auth_failures_total{surface="${surface}",status="${status}"}`);
    expect(failures('api', 401)).toBe(1);
    expect(failures('admin', 401)).toBe(1);
    expect(failures('login', 401)).toBe(1);
    // The caps' 429s are no failed authentication.
    expect(text).not.toMatch(/fulfil_auth_failures_total\{[^}]*status="429"/);

    for (const controller of controllers) controller.abort();
    await Promise.all(held);
    await vi.waitFor(
      async () => expect(sample(await metricsOf(server), waiting)).toBe(0),
      PATIENCE,
    );
  });

  test('a throttled bad token counts as a failed authentication answered 429', async () => {
    const server = await start({ server: { metrics: createMetrics() } });
    for (let attempt = 0; attempt < 21; attempt++) {
      await call(server, 'GET', '/V1/warehouses', { token: 'wrong' });
    }
    const text = await metricsOf(server);
    expect(sample(text, 'fulfil_auth_failures_total{surface="api",status="401"}')).toBe(20);
    expect(sample(text, 'fulfil_auth_failures_total{surface="api",status="429"}')).toBe(1);
  });
});

describe('an abandoned wait', () => {
  test('a client that drops 10 waits can open new ones at once', async () => {
    const server = await start({ server: { metrics: createMetrics() } });
    const cursor = await cursorOf(server);
    const dropped = Array.from({ length: 10 }, () => new AbortController());
    const first = dropped.map((controller) => wait(server, cursor, controller));
    await vi.waitFor(
      async () => expect(sample(await metricsOf(server), waiting)).toBe(10),
      PATIENCE,
    );
    for (const controller of dropped) controller.abort();
    await Promise.all(first);
    // Each slot is freed as its connection closes, not when its 20 s wait would have ended.
    await vi.waitFor(async () => expect(sample(await metricsOf(server), waiting)).toBe(0), {
      timeout: WAIT_S * 1000 - 5_000,
    });
    const again = Array.from({ length: 10 }, () => new AbortController());
    const second = again.map((controller) => wait(server, cursor, controller));
    await vi.waitFor(
      async () => expect(sample(await metricsOf(server), waiting)).toBe(10),
      PATIENCE,
    );
    // All ten are held, not refused: the cap is reached again only now.
    const eleventh = await fetch(`${server.url}${QUEUE}?since=${cursor}&wait=${WAIT_S}`, {
      headers: { authorization: `Bearer ${TOKENS.all}` },
    });
    expect(eleventh.status).toBe(429);
    for (const controller of again) controller.abort();
    await Promise.all(second);
    // The log says what became of the dropped ones.
    await vi.waitFor(
      () => expect(server.logs.filter((line) => line.includes('"status":499'))).toHaveLength(20),
      PATIENCE,
    );
  });
});
