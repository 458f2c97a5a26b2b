import { describe, expect, test } from 'vitest';
import { BROWSER_TEST_MS, browserOrSkip, logIn, openConsole, withConsole } from './browser.js';
import { HOSTILE_NAME, HOSTILE_NOTE } from './server.js';

/**
 * A customer whose name and shipping note are markup: the console shows them as text, on the
 * orders list and on the order's page, and no script of theirs runs.
 */

describe('customer data containing markup', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole();

  /** Elements the markup would have made, had it been parsed: none may exist. */
  const injected = `[
    document.querySelectorAll('img').length,
    [...document.querySelectorAll('script')].filter((s) => !s.src).length,
    document.querySelectorAll('[onerror]').length,
  ]`;

  test('shows as text on the orders list and the order page, and runs nothing', async () => {
    const tab = await openConsole(running.browser, running.server.url);
    const { page } = tab;
    await logIn(tab, running.server.url, running.server.admin);

    await page.goto(`${running.server.url}/admin/#/default/orders?q=900000001`);
    const name = page.locator('.customer').filter({ hasText: 'Mallory' });
    await expect.poll(() => name.textContent()).toBe(`${HOSTILE_NAME} Mallory`);
    expect(await page.evaluate(injected)).toEqual([0, 0, 0]);

    await page.getByRole('link', { name: '900000001-1' }).click();
    await page.getByRole('heading', { level: 1, name: 'Order 900000001-1' }).waitFor();
    await expect.poll(() => page.locator('.note').textContent()).toBe(HOSTILE_NOTE);
    expect(await page.locator('.customer').textContent()).toBe(`${HOSTILE_NAME} Mallory`);
    expect(await page.evaluate(injected)).toEqual([0, 0, 0]);

    // No dialog opened, no CSP violation, no request for `x` or anywhere else.
    await tab.assertClean();
    await page.context().close();
  });
});
