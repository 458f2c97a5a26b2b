import { describe, expect, test } from 'vitest';
import { call, errorBody, serverPerTest, TOKENS } from './support.js';

/** What operators point their probes at: /health, /ready, and the headers every answer carries. */

const serve = serverPerTest();

describe('X-Content-Type-Options: nosniff', () => {
  test('on every kind of answer', async () => {
    const server = await serve({ server: { bodyLimit: 64 } });
    const replies = {
      ok: await call(server, 'GET', '/V1/warehouses', { token: TOKENS.all }),
      xml: await call(server, 'GET', '/V1/warehouses', { token: TOKENS.all, accept: 'text/xml' }),
      unauthenticated: await call(server, 'GET', '/V1/warehouses'),
      forbidden: await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
        token: TOKENS.erp,
      }),
      notFound: await call(server, 'GET', '/V1/nothing'),
      methodNotAllowed: await call(server, 'DELETE', '/V1/warehouses', { token: TOKENS.all }),
      tooLarge: await call(server, 'POST', '/V1/stockItems', {
        token: TOKENS.all,
        json: { pad: 'x'.repeat(100) },
      }),
      badXml: await call(server, 'POST', '/V1/stockItems', { token: TOKENS.all, xml: '<a' }),
      schema: await call(server, 'GET', '/schema'),
    };
    const statuses = Object.fromEntries(
      Object.entries(replies).map(([kind, reply]) => [kind, reply.status]),
    );
    expect(statuses).toEqual({
      ok: 200,
      xml: 200,
      unauthenticated: 401,
      forbidden: 403,
      notFound: 404,
      methodNotAllowed: 405,
      tooLarge: 413,
      badXml: 400,
      schema: 200,
    });
    for (const [kind, reply] of Object.entries(replies)) {
      expect(reply.headers.get('x-content-type-options'), kind).toBe('nosniff');
    }
    for (const path of ['/health', '/ready', '/nowhere']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });

  test('on a 500', async () => {
    const server = await serve();
    await server.engine.close();
    const reply = await call(server, 'GET', '/V1/warehouses', { token: TOKENS.all });
    expect(reply.status).toBeGreaterThanOrEqual(500);
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('on an answer to a request node could not parse', async () => {
    const server = await serve();
    const { connect } = await import('node:net');
    const url = new URL(server.url);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write('NOT HTTP AT ALL\r\n\r\n');
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('utf8');
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expect(text.toLowerCase()).toContain('x-content-type-options: nosniff');
  });
});

describe('GET /health', () => {
  test('answers without a token and without the database', async () => {
    const server = await serve();
    await server.engine.close();
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('other methods are 405 with Allow', async () => {
    const server = await serve();
    const response = await fetch(`${server.url}/health`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('GET /ready', () => {
  test('200 while the database answers, without a token', async () => {
    const server = await serve();
    const response = await fetch(`${server.url}/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready' });
  });

  test('503 with Retry-After and the error body once the repository is closed', async () => {
    const server = await serve();
    await server.engine.close();
    const response = await fetch(`${server.url}/ready`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    const message = 'The database is not reachable.';
    expect(await response.json()).toEqual(errorBody(message, 503));
    const line = server.logs.map((entry) => JSON.parse(entry)).find((e) => e.path === '/ready');
    expect(line).toMatchObject({ status: 503 });
    expect(line.error).toBeTruthy();
  });
});
