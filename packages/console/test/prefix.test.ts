import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BROWSER_TEST_MS, browserOrSkip, logIn, openConsole, withConsole } from './browser.js';
import { orderOf, shipByCourier } from './scenarios.js';

/**
 * The console mounted under a path prefix, as docs/console.md shows it behind nginx
 * (`location /ops/ { proxy_pass http://127.0.0.1:8080/; }`): a proxy that strips `/ops` before
 * passing each request on, Host and all, the way nginx does. The console needs no setting of
 * its own there: its pages, its API calls, its links, its session cookie and a label's document
 * all resolve under the prefix.
 */

const PREFIX = '/ops';

/** Serves `${PREFIX}/…` from `upstream` at `/…`; anything else is 404. */
async function prefixProxy(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream);
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (!path.startsWith(`${PREFIX}/`)) {
      res.writeHead(404).end();
      return;
    }
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: path.slice(PREFIX.length),
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the console under a path prefix', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole();
  let proxy: Awaited<ReturnType<typeof prefixProxy>>;

  beforeAll(async () => {
    proxy = await prefixProxy(running.server.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  test('logged in under /ops/admin/, the next calls carry the session, a reload too, and logout ends it', async () => {
    const tab = await openConsole(running.browser, proxy.url);
    const { page } = tab;
    await logIn(tab, `${proxy.url}${PREFIX}`, running.server.admin);
    // The dashboard's own calls went through with the session: its store is listed.
    await page.getByRole('navigation').getByRole('link', { name: 'Orders' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('15 orders');
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'fulfil_session', path: `${PREFIX}/admin/api` });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.context().cookies()).toEqual([]);
    await tab.assertClean();
    await page.context().close();
  });
});

describe("the console's pages, calls and labels under a path prefix", {
  timeout: BROWSER_TEST_MS,
  ...browserOrSkip,
}, () => {
  const running = withConsole(async (server) => {
    await shipByCourier(server);
  });
  let proxy: Awaited<ReturnType<typeof prefixProxy>>;

  beforeAll(async () => {
    proxy = await prefixProxy(running.server.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  test('logs in, reads and acts, and serves a label, all under /ops/admin/', async () => {
    const tab = await openConsole(running.browser, proxy.url);
    const { page } = tab;
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.goto(`${proxy.url}/ops/admin/`);
    await page.getByLabel('Operator name').fill(running.server.admin.name);
    await page.getByLabel('Secret').fill(running.server.admin.secret);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    await page.goto(`${proxy.url}/ops/admin/#/default/orders/530000001-1`);
    const label = page.getByRole('link', { name: /Download ZPL/ });
    await label.waitFor();
    const document = await page.request.get(
      new URL((await label.getAttribute('href')) as string, page.url()).href,
    );
    expect(document.status()).toBe(200);
    expect((await document.text()).startsWith('^XA')).toBe(true);

    await page.goto(`${proxy.url}/ops/admin/#/default/orders/570000001-1`);
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel order 570000001-1?' })
      .getByRole('button', { name: 'Cancel order' })
      .click();
    await expect
      .poll(async () => (await orderOf(running.server, '570000001-1')).order.status)
      .toBe('canceled');
    // Every request the page made stayed under the prefix.
    expect(requests.filter((path) => !path.startsWith('/ops/admin/'))).toEqual([]);
    await tab.assertClean();
    await page.context().close();
  });
});
