import { existsSync } from 'node:fs';
import { skipUnless } from '@fulfil/core/testing';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OPERATIONS } from '../../src/index.js';
import { startTestServer, type TestServer } from './support.js';

/**
 * The API reference at /docs, rendered by a real browser: headless Chromium from the system's
 * packages. Without it the test cannot run; in CI that is a failure, elsewhere a visible skip.
 */

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The little of the browser's DOM the page functions use (this package compiles without DOM types). */
interface BrowserGlobals {
  document: { querySelectorAll(selector: string): Iterable<{ innerText: string }> };
}

const installed = existsSync(CHROMIUM);
if (!installed && process.env.CI) {
  throw new Error(`${CHROMIUM} is missing: CI must install chromium (.ci/run does)`);
}

describe('the API reference page', skipUnless(installed, `${CHROMIUM} is not installed`), () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 60_000 });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * Opens a page of the server. Every request it makes is recorded with its answer; one for
   * another origin is refused.
   */
  async function open(path: string) {
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    const requests: string[] = [];
    const failures: string[] = [];
    const origin = new URL(server.url).origin;
    page.on('request', (request) => requests.push(request.url()));
    page.on('response', (response) => {
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) {
        return route.continue();
      }
      elsewhere.push(`${route.request().resourceType()} ${url}`);
      return route.abort();
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${server.url}${path}`, { waitUntil: 'domcontentloaded' });
    return { page, response, elsewhere, errors, requests, failures, origin };
  }

  const titles = OPERATIONS.map((operation) => operation.summary);
  const tags = [...new Set(OPERATIONS.map((operation) => operation.tag))];
  const anchor = (tag: string) => `#/${tag.toLowerCase().replace(/ /g, '-')}`;

  for (const path of ['/docs', '/rest/default/docs']) {
    test(`${path} renders all ${titles.length} operations from the served document`, async () => {
      const { page, response, elsewhere, errors, requests, failures, origin } = await open(path);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
      await page.getByText('Fulfil fulfillment order service').first().waitFor({ timeout: 60_000 });
      // The menu lists a tag's operations, by title, once the tag is opened.
      const rendered = new Set<string>();
      for (const tag of tags) {
        await page
          .locator(`[data-component-name="Menu/MenuItem"] > a[href="${anchor(tag)}"]`)
          .click();
        const expected = OPERATIONS.filter((operation) => operation.tag === tag).map(
          (operation) => operation.summary,
        );
        const menu = await page.waitForFunction(
          (wanted) => {
            const { document } = globalThis as unknown as BrowserGlobals;
            const text = [...document.querySelectorAll('[data-component-name="Menu/MenuItem"]')]
              // biome-ignore lint/performance/useDomNodeTextContent: what a reader sees is the point
              .map((item) => item.innerText)
              .join('\n');
            return wanted.every((title) => text.includes(title)) && text;
          },
          expected,
          { timeout: 30_000 },
        );
        const text = (await menu.jsonValue()) as string;
        for (const title of titles) if (text.includes(title)) rendered.add(title);
      }
      expect([...rendered].sort()).toEqual([...titles].sort());
      expect(errors).toEqual([]);
      // Nothing from a CDN, images included: the page works without the internet.
      expect(elsewhere).toEqual([]);
      expect(requests.length).toBeGreaterThan(1);
      expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
      expect(failures).toEqual([]);
      await page.close();
    }, 120_000);
  }

  test('the page needs no token', async () => {
    const response = await fetch(`${server.url}/docs`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(
      '<meta name="fulfil-openapi" content="rest/default/schema">',
    );
  });
});
