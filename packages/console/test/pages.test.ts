import { statSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  assertAccessible,
  browserOrSkip,
  logIn,
  openConsole,
  screenshot,
  screenshotPath,
  WIDTHS,
  withConsole,
} from './browser.js';

/**
 * Every page, at a laptop's width and at a phone's: axe-core finds no serious or critical
 * violation, nothing overflows the screen sideways, nothing is loaded from elsewhere, no CSP
 * violation; the screenshots in docs/console/ are taken here.
 */

const PAGES = [
  { name: 'dashboard', hash: '#/', heading: 'Dashboard' },
  { name: 'orders', hash: '#/default/orders', heading: 'Orders of default' },
  { name: 'order', hash: '#/default/orders/500000001-1', heading: 'Order 500000001-1' },
  { name: 'failed', hash: '#/default/failed', heading: 'Failed orders of default' },
  { name: 'stock', hash: '#/default/stock', heading: 'Stock of default' },
  { name: 'tokens', hash: '#/default/tokens', heading: 'Tokens of default' },
  { name: 'store', hash: '#/default/settings', heading: 'Store default' },
  { name: 'operators', hash: '#/operators', heading: 'Operators' },
] as const;

describe('every page of the console', { timeout: 60_000, ...browserOrSkip }, () => {
  const running = withConsole(async (server) => {
    await server.adminApi('POST', 'stores/default/orders/600000001-1/fail', {
      reason: 'no such street',
    });
  });

  for (const [device, width] of Object.entries(WIDTHS)) {
    test(`the login page at ${width} px`, async () => {
      const tab = await openConsole(running.browser, running.server.url, width);
      await tab.page.goto(`${running.server.url}/admin/`);
      await tab.page.getByRole('button', { name: 'Log in' }).waitFor();
      await assertAccessible(tab.page, `login at ${width} px`);
      if (device === 'desktop') await screenshot(tab.page, 'login');
      await tab.assertClean();
      await tab.page.context().close();
    });

    test(`every page at ${width} px`, async () => {
      const tab = await openConsole(running.browser, running.server.url, width);
      const { page } = tab;
      await logIn(tab, running.server.url, running.server.admin);
      for (const { name, hash, heading } of PAGES) {
        await page.goto(`${running.server.url}/admin/${hash}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        // Loaded: no "Loading…" left on the page.
        await expect.poll(() => page.getByText('Loading…').count()).toBe(0);
        await assertAccessible(page, `${name} at ${width} px`);
        // Tables may scroll inside their region; the page itself never scrolls sideways.
        const overflow = await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
        if (device === 'desktop' || name === 'orders' || name === 'order') {
          const file = `${name}${device === 'desktop' ? '' : '-phone'}`;
          await screenshot(page, file);
          expect(statSync(screenshotPath(file)).size).toBeLessThan(400_000);
        }
      }
      await tab.assertClean();
      await page.context().close();
    }, 120_000);
  }
});
