import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { negotiateCoding } from '../../src/http/content-coding.js';
import { createRequestHandler, type HttpEngine, type HttpResponse } from '../../src/index.js';
import { startTestServer } from './support.js';

/**
 * Issue 16 items 4 and 8: /docs is built once, served compressed (brotli or gzip, as the client
 * weighs them) with a strong ETag and 304, with the headers of every other answer, and its
 * images come from the server itself.
 */

// The docs routes never reach the engine.
const handler = createRequestHandler({} as HttpEngine, { log: () => {} });

function get(path: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return handler({ method: 'GET', path, query: {}, headers, body: Buffer.alloc(0) });
}

function bytes(response: HttpResponse): Buffer {
  return Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body);
}

describe('the page', () => {
  test('has the headers every answer has, and asks caches to revalidate', async () => {
    const response = await get('/docs');
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
      vary: 'Accept-Encoding',
    });
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(bytes(response).toString('utf8')).toContain('<div id="redoc">');
  });

  test('is built and compressed once: each request gets the same bytes, not a new copy', async () => {
    for (const coding of ['identity', 'gzip', 'br']) {
      const first = await get('/rest/default/docs', { 'accept-encoding': coding });
      const second = await get('/rest/default/docs', { 'accept-encoding': coding });
      expect(second.body).toBe(first.body);
    }
  });

  test('brotli and gzip decode to the page itself, each with its own ETag', async () => {
    const plain = await get('/docs');
    const br = await get('/docs', { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await get('/docs', { 'accept-encoding': 'gzip;q=1, br;q=0.5' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(bytes(br)).equals(bytes(plain))).toBe(true);
    expect(gunzipSync(bytes(gzip)).equals(bytes(plain))).toBe(true);
    // The compressed page is a small part of the 2 MiB one.
    expect(bytes(br).length).toBeLessThan(bytes(plain).length / 3);
    expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
  });

  test('If-None-Match with its ETag is 304 without a body; another ETag gets the page', async () => {
    const first = await get('/docs', { 'accept-encoding': 'br' });
    const etag = first.headers.etag as string;
    const again = await get('/docs', { 'accept-encoding': 'br', 'if-none-match': `"x", ${etag}` });
    expect(again.status).toBe(304);
    expect(bytes(again).length).toBe(0);
    expect(again.headers).toMatchObject({ etag, vary: 'Accept-Encoding' });
    expect(again.headers['x-content-type-options']).toBe('nosniff');
    const weak = await get('/docs', { 'accept-encoding': 'br', 'if-none-match': `W/${etag}` });
    expect(weak.status).toBe(304);
    // The gzip representation is another one: the client does not have it.
    const other = await get('/docs', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(other.status).toBe(200);
  });
});

describe('its images', () => {
  test.each(['/favicon.ico', '/docs/icon.svg', '/rest/default/docs/redoc.svg'])(
    '%s is served by the server',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('image/svg+xml');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(bytes(response).toString('utf8')).toMatch(/^<svg /);
    },
  );

  test.each(['/docs/nothing.svg', '/docs/constructor', '/docs/__proto__'])(
    '%s is 404',
    async (path) => {
      expect((await get(path)).status).toBe(404);
    },
  );
});

describe('Accept-Encoding', () => {
  test.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, br', 'br'],
    ['GZIP;q=0.9, br;q=0.8', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity;q=0, *;q=0', 'identity'],
    ['deflate, compress', 'identity'],
    ['gzip;q=2', 'identity'],
  ] as const)('%j → %s', (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });
});

test('over a socket, a 304 carries no body and no Content-Length', async () => {
  const server = await startTestServer();
  try {
    const first = await fetch(`${server.url}/docs`, { headers: { 'accept-encoding': 'gzip' } });
    await first.arrayBuffer();
    const etag = first.headers.get('etag') as string;
    const reply = await new Promise<{ status: number; headers: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = httpRequest(`${server.url}/docs`, {
          headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
          agent: false,
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        });
        req.on('error', reject);
        req.end();
      },
    );
    expect(reply.status).toBe(304);
    expect(reply.headers['content-length']).toBeUndefined();
    expect(reply.headers.etag).toBe(etag);
  } finally {
    await server.close();
  }
});
