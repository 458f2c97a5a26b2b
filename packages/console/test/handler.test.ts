import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { CONTENT_SECURITY_POLICY, createConsoleHandler } from '../src/index.js';

/** Needs the built assets (`pnpm build`; `pnpm test` builds first). */
const handler = createConsoleHandler();
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  handler.respond({ method, path, headers });

function scriptPath(): string {
  const page = get('/admin/')?.body.toString('utf8') ?? '';
  const name = /src="(assets\/app-[0-9a-f]+\.js)"/.exec(page)?.[1];
  if (!name) throw new Error(`no script in index.html: ${page}`);
  return `/admin/${name}`;
}

describe('the console handler', () => {
  test('serves the page at /admin/ with a strict CSP, no-cache and an ETag', () => {
    const response = get('/admin/');
    expect(response?.status).toBe(200);
    expect(response?.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response?.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(response?.headers['cache-control']).toBe('no-cache');
    expect(response?.headers['x-frame-options']).toBe('DENY');
    expect(response?.headers.etag).toMatch(/^"[\w-]+"$/);
    const page = response?.body.toString('utf8') ?? '';
    // No inline script or style: the CSP would block it.
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/<style|\sstyle=/);
  });

  test('keeps hashed assets for a year and answers 304 to their ETag', () => {
    const path = scriptPath();
    const response = get(path);
    expect(response?.status).toBe(200);
    expect(response?.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const etag = response?.headers.etag as string;
    expect(get(path, { 'if-none-match': etag })?.status).toBe(304);
    expect(get(path, { 'if-none-match': `W/${etag}` })?.status).toBe(304);
    expect(get(path, { 'if-none-match': '"other"' })?.status).toBe(200);
  });

  test('sends the precompressed copy the client accepts, brotli first', () => {
    const path = scriptPath();
    const plain = get(path)?.body as Buffer;
    const br = get(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br?.headers['content-encoding']).toBe('br');
    expect(br?.headers.vary).toBe('accept-encoding');
    const gzip = get(path, { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip?.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip?.body as Buffer).equals(plain)).toBe(true);
    expect(get(path, { 'accept-encoding': 'identity' })?.headers['content-encoding']).toBe(
      undefined,
    );
  });

  test('leaves the admin API and every other path to the server', () => {
    expect(get('/admin/api/session')).toBeNull();
    expect(get('/admin/api')).toBeNull();
    expect(get('/rest/default/V1/warehouses')).toBeNull();
    expect(get('/administrator')).toBeNull();
  });

  test('redirects /admin to /admin/ relatively, refuses writes, 404s unknown files', () => {
    const bare = get('/admin');
    expect(bare?.status).toBe(308);
    expect(bare?.headers.location).toBe('admin/');
    expect(get('/admin/', {}, 'POST')?.status).toBe(405);
    expect(get('/admin/assets/app-000000000000.js')?.status).toBe(404);
    expect(get('/admin/../package.json')?.status).toBe(404);
  });

  test('mounts at another path when told to', () => {
    const mounted = createConsoleHandler({ basePath: '/ops/console/' });
    expect(mounted.respond({ method: 'GET', path: '/ops/console/', headers: {} })?.status).toBe(
      200,
    );
    expect(mounted.respond({ method: 'GET', path: '/admin/', headers: {} })).toBeNull();
    expect(mounted.respond({ method: 'GET', path: '/ops/console/api/x', headers: {} })).toBeNull();
  });

  test('works as a node:http listener that passes on what is not its own', async () => {
    const server = createServer((req, res) => {
      if (handler(req, res)) return;
      res.writeHead(418).end('app');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fetchStatus = (path: string) =>
      new Promise<number>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    try {
      expect(await fetchStatus('/admin/?x=1')).toBe(200);
      expect(await fetchStatus('/admin/api/session')).toBe(418);
      expect(await fetchStatus('/elsewhere')).toBe(418);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("the page's JavaScript stays under 60 KB gzipped", () => {
    const gzip = get(scriptPath(), { 'accept-encoding': 'gzip' })?.body as Buffer;
    expect(gzip.length).toBeGreaterThan(1000);
    expect(gzip.length).toBeLessThanOrEqual(60 * 1024);
  });
});
