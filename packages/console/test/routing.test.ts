import { afterEach, describe, expect, test } from 'vitest';
import {
  assertAccessible,
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  openAt,
  WIDTHS,
  withConsole,
} from './browser.js';

/**
 * The routing preview page (docs/console.md): an operator tries a sales order against the
 * store's rules and stock as they are, and reads where each line would go and why, in words;
 * nothing is written, and a refusal is said as intake would say it.
 */

describe('the routing preview page', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole();
  let tab: ConsolePage;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  test('the store page sets what intake does with a short line', async () => {
    tab = await openAt(running, '#/default/settings');
    await tab.page.getByLabel('When a line is short').selectOption('hold');
    await tab.page.getByRole('button', { name: 'Save settings' }).click();
    const settings = async () =>
      (await running.server.adminApi<{ settings: { when_short: string } }>('GET', 'stores/default'))
        .settings.when_short;
    await expect.poll(settings).toBe('hold');
    await running.server.adminApi('PUT', 'stores/default', {
      settings: { when_short: 'route_anyway' },
    });
  });

  for (const [device, width] of Object.entries(WIDTHS)) {
    test(`says where an order would go and why, at ${width} px (${device})`, async () => {
      const stockBefore = await running.server.adminApi('GET', 'stores/default/stock');
      tab = await openAt(running, '#/default/routing', { width });
      const { page } = tab;
      await page.getByLabel('Lines').fill('SKU-3 2\nSKU-1 × 1');
      await page.getByLabel('Country').fill('it');
      await page.getByRole('button', { name: 'Preview' }).click();
      const orders = page.getByRole('list', { name: 'Fulfillment orders' });
      await expect.poll(() => orders.textContent()).toBe('WH-A: 2 × SKU-3, 1 × SKU-1');
      const why = page.getByRole('list', { name: 'Why' }).getByRole('listitem');
      expect(await why.count()).toBe(2);
      const first = await why.first().textContent();
      expect(first).toMatch(/^Routed to WH-A: /);
      expect(first).toContain('WH-OLD excluded: inactive');
      await assertAccessible(page, `routing preview at ${width} px`);

      // Pinned to the closed warehouse: refused, as intake refuses it.
      await page.getByLabel('Pinned warehouse (optional)').fill('WH-OLD');
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect
        .poll(() => page.getByRole('alert').first().textContent())
        .toContain('Warehouse WH-OLD is not an active warehouse of this store.');
      expect(await running.server.adminApi('GET', 'stores/default/stock')).toEqual(stockBefore);
    });
  }
});
