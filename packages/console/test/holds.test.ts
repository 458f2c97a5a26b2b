import { ManualClock } from '@fulfil/core';
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
import { accept } from './scenarios.js';
import { HOSTILE_NAME, HOSTILE_NOTE } from './server.js';

/**
 * The page of holds and cancellation requests (docs/console.md): a hold and a request placed
 * through the API show there oldest first, the request its partner left unanswered past the
 * store's time marked, what a customer or a channel typed shown as text; the dashboard links
 * each count to it.
 */

const HOUR = 3_600_000;
// The hold and the request are made five hours ago: past the 4 h a request may wait.
const clock = new ManualClock(new Date(Date.now() - 5 * HOUR));

describe('holds and cancellation requests', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole(
    async (server) => {
      await server.adminApi('POST', 'stores/default/sales-orders/550000001/hold', {
        handle: HOSTILE_NAME,
        reason: 'high_risk_of_fraud',
        note: HOSTILE_NOTE,
      });
      await accept(server, '570000001-1');
      await server.adminApi('POST', 'stores/default/sales-orders/570000001/cancel', {
        reason: 'customer',
      });
      clock.set(new Date());
    },
    { clock },
  );
  let tab: ConsolePage;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  for (const [device, width] of Object.entries(WIDTHS)) {
    test(`lists the open request and the open hold, in words, at ${width} px`, async () => {
      tab = await openAt(running, '#/default/holds', { width });
      const { page } = tab;
      await page
        .getByRole('heading', { level: 1, name: 'Holds and cancellation requests' })
        .waitFor();
      const requests = page.getByRole('region', { name: 'Cancellation requests', exact: true });
      await requests.getByRole('link', { name: '570000001-1' }).waitFor();
      await requests.getByText('1 × SKU-2').waitFor();
      await requests.getByText('Asked by the customer').waitFor();
      await requests.getByText('Over 4 h').waitFor();
      const holds = page.getByRole('region', { name: 'Open holds', exact: true });
      await holds.getByRole('link', { name: '550000001-1' }).waitFor();
      await holds.getByText('High risk of fraud').waitFor();
      // The note is text: its markup shows as typed, and no script ran (assertClean).
      await holds.getByText(HOSTILE_NOTE, { exact: true }).waitFor();
      expect(await page.locator('.card script').count()).toBe(0);
      expect(await page.getByText('high_risk_of_fraud').count()).toBe(0);
      await expect.poll(() => page.getByText('Loading…').count()).toBe(0);
      await assertAccessible(page, `holds at ${width} px (${device})`);
      const overflow = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(overflow, `holds at ${width} px`).toBeLessThanOrEqual(0);
    });
  }

  test('the dashboard links each count to the page, filtered where it applies', async () => {
    tab = await openAt(running, '#/');
    const { page } = tab;
    const attention = page.getByRole('region', { name: /needs attention/i });
    const unanswered = attention.getByRole('link', {
      name: '1 cancellation request unanswered for over 4 h',
    });
    await unanswered.waitFor();
    const held = attention.getByRole('link', { name: /^1 order on hold \(oldest 5 h\)$/ });
    await held.waitFor();
    await unanswered.click();
    await page
      .getByRole('heading', { level: 1, name: 'Holds and cancellation requests' })
      .waitFor();
    expect(page.url()).toContain('overdue=true');
    await page.getByRole('link', { name: '570000001-1' }).waitFor();
    await page.getByRole('link', { name: 'Every open request' }).waitFor();

    await page.goto(`${running.server.url}/admin/#/`);
    await held.click();
    await page.getByRole('link', { name: '550000001-1' }).waitFor();
    await page.getByRole('link', { name: 'Only those over 4 h' }).waitFor();
  });

  test('the menu leads to the page; an empty list says what would appear there', async () => {
    await running.server.adminApi('POST', 'stores/default/sales-orders/550000001/release', {
      handle: HOSTILE_NAME,
    });
    tab = await openAt(running, '#/default/orders');
    const { page } = tab;
    await page.getByRole('navigation').getByRole('link', { name: 'Holds & cancellations' }).click();
    await page.getByText('No order is on hold').waitFor();
    await page.getByText(/A hold appears when a sales channel or an operator holds/).waitFor();
    await page.getByRole('link', { name: '570000001-1' }).waitFor();
  });
});
