import { statSync } from 'node:fs';
import { ManualClock } from '@fulfil/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  assertAccessible,
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  logIn,
  openConsole,
  screenshot,
  WIDTHS,
  withConsole,
} from './browser.js';
import { accept, orderOf, shipByCourier, walkThrough } from './scenarios.js';

/**
 * Every page, at a laptop's width and at a phone's: axe-core finds no serious or critical
 * violation, nothing overflows the screen sideways, nothing is loaded from elsewhere, no CSP
 * violation; the screenshots in docs/console/ are taken here, of a store with a day of work in
 * it: orders that moved, shipped in part, shipped by courier, failed, and waited too long.
 */

/** The pages docs/console.md shows, at both widths. */
const DOCUMENTED = new Set([
  'login',
  'dashboard',
  'orders',
  'order',
  'failed',
  'holds',
  'returns',
  'return',
  'tokens',
  'bulk',
]);

const PAGES = [
  { name: 'dashboard', hash: '#/', heading: 'Dashboard' },
  { name: 'orders', hash: '#/default/orders', heading: 'Orders' },
  { name: 'order', hash: '#/default/orders/520000001-1', heading: 'Order 520000001-1' },
  { name: 'order-courier', hash: '#/default/orders/530000001-1', heading: 'Order 530000001-1' },
  { name: 'order-failed', hash: '#/default/orders/600000001-1', heading: 'Order 600000001-1' },
  { name: 'failed', hash: '#/default/failed', heading: 'Failed orders' },
  { name: 'holds', hash: '#/default/holds', heading: 'Holds and cancellation requests' },
  { name: 'returns', hash: '#/default/returns', heading: 'Returns' },
  { name: 'return', hash: '#/default/returns/RMA-1', heading: 'Return RMA-1' },
  { name: 'stock', hash: '#/default/stock', heading: 'Stock' },
  { name: 'tokens', hash: '#/default/tokens', heading: 'Tokens' },
  { name: 'store', hash: '#/default/settings', heading: 'Store default' },
  { name: 'operators', hash: '#/operators', heading: 'Operators' },
] as const;

/** Each dialog the order page opens before it acts: a failed order's, and one no partner accepted. */
const ORDER_DIALOGS = [
  {
    order: '570000001-1',
    button: 'Fail order',
    dialog: 'Fail order 570000001-1?',
    keep: 'Keep order',
  },
  {
    order: '600000001-1',
    button: 'Abandon order',
    dialog: 'Abandon order 600000001-1?',
    keep: 'Keep order',
  },
  {
    order: '600000001-1',
    button: 'Cancel order',
    dialog: 'Cancel order 600000001-1?',
    keep: 'Keep order',
  },
  {
    order: '570000001-1',
    button: 'Hold',
    dialog: 'Hold sales order 570000001?',
    keep: "Don't hold",
  },
] as const;

const HOUR = 3_600_000;
// The day's work happens a day and a half ago, step by step; the operator looks at it now.
const clock = new ManualClock(new Date(Date.now() - 36 * HOUR));
const later = () => clock.advance(20 * 60_000);

describe('every page of the console', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole(
    async (server) => {
      await server.adminApi('PUT', 'stores/default', { settings: { currency: 'EUR' } });
      await walkThrough(server, later);
      later();
      await shipByCourier(server);
      later();
      // A return of the courier's parcel, awaiting receipt: the returns pages have one to show.
      const shipped = (await orderOf(server, '530000001-1')).order.items[0];
      await server.adminApi('POST', 'stores/default/returns', {
        rma_number: 'RMA-1',
        sales_order_number: '530000001',
        items: [
          {
            fulfillment_order_number: '530000001-1',
            item_id: shipped?.id,
            qty: shipped?.qty,
            reason: 'damaged',
          },
        ],
      });
      later();
      // A hold awaiting payment, and a customer's cancel its partner has not answered yet.
      await server.adminApi('POST', 'stores/default/sales-orders/550000001/hold', {
        handle: 'payment-check',
        reason: 'awaiting_payment',
        note: 'Card declined; the customer pays by bank transfer',
      });
      await accept(server, '710000001-1');
      later();
      await server.adminApi('POST', 'stores/default/sales-orders/710000001/cancel', {
        reason: 'customer',
      });
      later();
      await server.adminApi('POST', 'stores/default/orders/600000001-1/fail', {
        reason: 'no such street',
      });
      await server.adminApi('POST', 'stores/default/orders/560000001-1/fail', {
        reason: 'the customer asked to wait',
      });
      await server.adminApi('POST', 'stores/default/orders/560000001-1/abandon', {});
      clock.set(new Date());
    },
    { clock },
  );

  for (const [device, width] of Object.entries(WIDTHS)) {
    const suffix = device === 'desktop' ? '' : '-phone';
    // One logged-in tab of this width for the pages, the dialogs and the bulk confirmation: they
    // only read, and close every dialog they open; a login per test cost more than the tests.
    let tab: ConsolePage;
    beforeAll(async () => {
      tab = await openConsole(running.browser, running.server.url, width);
      await logIn(tab, running.server.url, running.server.admin);
    });
    afterAll(async () => {
      await tab?.page.context().close();
    });

    test(`the login page at ${width} px`, async () => {
      // A tab of its own: this one has not logged in.
      const out = await openConsole(running.browser, running.server.url, width);
      await out.page.goto(`${running.server.url}/admin/`);
      await out.page.getByRole('button', { name: 'Log in' }).waitFor();
      await assertAccessible(out.page, `login at ${width} px`);
      await screenshot(out.page, `login${suffix}`, { documented: DOCUMENTED.has('login') });
      await out.assertClean();
      await out.page.context().close();
    });

    test(`every page at ${width} px`, async () => {
      const { page } = tab;
      for (const { name, hash, heading } of PAGES) {
        await page.goto(`${running.server.url}/admin/${hash}`);
        await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
        // Loaded: no "Loading…" left on the page.
        await expect.poll(() => page.getByText('Loading…').count()).toBe(0);
        await assertAccessible(page, `${name} at ${width} px`);
        // Tables become cards on a phone: the page itself never scrolls sideways.
        const overflow = await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
        const path = await screenshot(page, `${name}${suffix}`, {
          documented: DOCUMENTED.has(name),
        });
        expect(statSync(path).size).toBeLessThan(600_000);
      }
      await tab.assertClean();
    }, 120_000);

    test(`the order page's confirmations, open, at ${width} px`, async () => {
      const { page } = tab;
      for (const { order, button, dialog: title, keep } of ORDER_DIALOGS) {
        await page.goto(`${running.server.url}/admin/#/default/orders/${order}`);
        await page.getByRole('button', { name: button, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: title });
        await dialog.waitFor();
        await assertAccessible(page, `${title} at ${width} px`);
        const overflow = await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(overflow, `${title} at ${width} px`).toBeLessThanOrEqual(0);
        await dialog.getByRole('button', { name: keep }).click();
        await dialog.waitFor({ state: 'hidden' });
      }
      await tab.assertClean();
    });

    test(`a bulk confirmation at ${width} px`, async () => {
      const { page } = tab;
      await page.goto(`${running.server.url}/admin/#/default/orders?sku=BULK-1`);
      await page.getByRole('link', { name: '700000001-1' }).waitFor();
      await page.getByLabel('Bulk action', { exact: true }).selectOption('cancel');
      await page.getByRole('button', { name: /Count the orders/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel 3 orders?' });
      await dialog.waitFor();
      await assertAccessible(page, `bulk confirmation at ${width} px`);
      await screenshot(page, `bulk${suffix}`, { fullPage: false, documented: true });
      await dialog.getByRole('button', { name: 'Keep orders' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await tab.assertClean();
    });
  }
});
