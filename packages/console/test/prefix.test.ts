import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installed, openConsole, warnIfSkipped, withConsole } from './browser.js';
import { orderOf, shipByCourier } from './scenarios.js';

/**
 * The console behind a proxy that mounts the server under `/ops` (docs/console.md): its pages,
 * its API calls, its links and a label's document all resolve under the prefix, with no
 * setting of the console's. The proxy moves the session cookie's path with the prefix, as
 * nginx's `proxy_cookie_path` does.
 */

warnIfSkipped('prefix.test');

describe.skipIf(!installed)('under a path prefix', { timeout: 60_000 }, () => {
  const running = withConsole(async (server) => {
    await shipByCourier(server);
  });
  let proxy: Server;
  let origin: string;

  beforeAll(async () => {
    const target = new URL(running.server.url);
    proxy = createServer((req, res) => {
      const path = req.url ?? '/';
      if (!path.startsWith('/ops/')) {
        res.writeHead(404).end();
        return;
      }
      const upstream = forward(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: path.slice('/ops'.length),
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          const headers = { ...answer.headers };
          const cookies = headers['set-cookie'];
          if (cookies) {
            headers['set-cookie'] = cookies.map((cookie) =>
              cookie.replace('Path=/admin', 'Path=/ops/admin'),
            );
          }
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
  });

  test('logs in, reads and acts, and serves a label, all under /ops/admin/', async () => {
    const tab = await openConsole(running.browser, origin);
    const { page } = tab;
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.goto(`${origin}/ops/admin/`);
    await page.getByLabel('Operator name').fill(running.server.admin.name);
    await page.getByLabel('Secret').fill(running.server.admin.secret);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    await page.goto(`${origin}/ops/admin/#/default/orders/530000001-1`);
    const label = page.getByRole('link', { name: /Download ZPL/ });
    await label.waitFor();
    const document = await page.request.get(
      new URL((await label.getAttribute('href')) as string, page.url()).href,
    );
    expect(document.status()).toBe(200);
    expect((await document.text()).startsWith('^XA')).toBe(true);

    await page.goto(`${origin}/ops/admin/#/default/orders/570000001-1`);
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
