import { createHash } from 'node:crypto';
import { createConsoleHandler } from '@fulfil/console';
import { describe, expect, test } from 'vitest';
import { escapeHtml } from '../../src/http/html.js';
import { createMetrics } from '../../src/index.js';
import { serverPerTest } from './support.js';

/** `GET /`: the page a browser meets at the URL `serve` prints, and its links as JSON. */

const start = serverPerTest();

/** What Chromium and Firefox send when they open a page. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** A server with everything on: the console and admin API, and the metrics. */
const everything = () =>
  start({
    server: { admin: {}, console: createConsoleHandler(), metrics: createMetrics() },
  });

function hrefs(page: string): string[] {
  return [...page.matchAll(/<a href="([^"]*)">/g)].map((match) => match[1] as string);
}

describe('GET / in a browser', () => {
  test('is a page under a strict policy that links the docs, console, probes and metrics', async () => {
    const server = await everything();
    const response = await fetch(`${server.url}/`, { headers: { accept: BROWSER_ACCEPT } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('vary')).toBe('Accept');
    const page = await response.text();
    expect(hrefs(page)).toEqual([
      'docs',
      'rest/default/schema',
      'admin/',
      'admin/api/openapi.json',
      'health',
      'ready',
      'metrics',
    ]);
    // No script may run; the one inline style is allowed by its hash, nothing else by name.
    const style = /<style>([^<]*)<\/style>/.exec(page)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(response.headers.get('content-security-policy')).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(page).not.toMatch(/<script|\son\w+=/i);
  });

  test('every link works, relative to the page', async () => {
    const server = await everything();
    const page = await (await fetch(`${server.url}/`, { headers: { accept: 'text/html' } })).text();
    expect(hrefs(page)).toHaveLength(7);
    for (const href of hrefs(page)) {
      const linked = await fetch(new URL(href, `${server.url}/`));
      expect(linked.status, href).toBe(200);
    }
  });

  test('links only what this server serves: no console, admin API or metrics when they are off', async () => {
    const server = await start();
    const page = await (await fetch(`${server.url}/`, { headers: { accept: 'text/html' } })).text();
    expect(hrefs(page)).toEqual(['docs', 'rest/default/schema', 'health', 'ready']);
  });

  test('writes its text escaped: what it interpolates can never be markup', () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')">&amp;`)).toBe(
      '&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;amp;',
    );
  });
});

describe('GET / from an API client', () => {
  test('answers the same links as JSON, absolute: by default, for */* and for JSON', async () => {
    const server = await everything();
    for (const accept of [undefined, '*/*', 'application/json', 'text/html;q=0.5, */*']) {
      const response = await fetch(`${server.url}/`, accept ? { headers: { accept } } : {});
      expect(response.status, accept).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = (await response.json()) as { links: Record<string, string> };
      expect(body).toEqual({
        name: 'Fulfil',
        api: `${server.url}/rest/{store_code}/V1`,
        links: {
          docs: `${server.url}/docs`,
          openapi: `${server.url}/rest/default/schema`,
          console: `${server.url}/admin/`,
          admin_api: `${server.url}/admin/api/openapi.json`,
          health: `${server.url}/health`,
          ready: `${server.url}/ready`,
          metrics: `${server.url}/metrics`,
        },
      });
      for (const [name, url] of Object.entries(body.links)) {
        expect((await fetch(url)).status, name).toBe(200);
      }
    }
  });

  test('a client that takes neither JSON nor HTML gets 406 with the error body', async () => {
    const server = await start();
    const response = await fetch(`${server.url}/`, { headers: { accept: 'image/png' } });
    expect(response.status).toBe(406);
    expect(await response.json()).toMatchObject({ code: 406 });
  });
});
