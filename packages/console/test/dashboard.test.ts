import { ManualClock } from '@fulfil/core';
import { afterEach, describe, expect, test } from 'vitest';
import {
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  openAt,
  withConsole,
} from './browser.js';

/**
 * The dashboard shows what needs a person now: failed orders, orders waiting in a queue longer
 * than the store allows, courier failures; each a link to exactly the orders it counts.
 */

const HOUR = 3_600_000;
const clock = new ManualClock(new Date());

describe('the dashboard', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole(
    async (server) => {
      await server.adminApi('POST', 'stores/default/orders/600000001-1/fail', {
        reason: 'no such street',
      });
      // The seeded orders are now 30 hours old: past the default 24 h of pending acceptance.
      clock.advance(30 * HOUR);
    },
    { clock },
  );
  let tab: ConsolePage;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  test('links each thing needing a person to the list of exactly those orders', async () => {
    tab = await openAt(running, '#/');
    const { page } = tab;
    const attention = page.getByRole('region', { name: /needs attention/i });
    const failed = attention.getByRole('link', { name: /1 failed order/ });
    await failed.waitFor();
    const waiting = attention.getByRole('link', { name: /awaiting acceptance for over 24 h/i });
    const text = ((await waiting.textContent()) ?? '').replace(/\s+/g, ' ');
    const counted = Number(/(\d+)/.exec(text)?.[1]);
    expect(counted).toBeGreaterThan(5);
    await waiting.click();
    await page.getByRole('heading', { level: 1, name: /^Orders/ }).waitFor();
    await expect
      .poll(() =>
        page
          .getByText(/^\d+ orders?\b/)
          .first()
          .textContent(),
      )
      .toMatch(new RegExp(`^${counted} orders?`));
    // The list says which filters it applies, each removable.
    await page.getByRole('button', { name: /Remove filter.*Awaiting acceptance/ }).waitFor();

    await page.goto(`${running.server.url}/admin/#/`);
    await failed.click();
    await page.getByRole('link', { name: '600000001-1' }).waitFor();
  });

  test('the age past which a queue needs a person is the store’s to set', async () => {
    await running.server.adminApi('PUT', 'stores/default', {
      settings: { attention_after_hours: { pending_accept: 48 } },
    });
    tab = await openAt(running, '#/');
    const { page } = tab;
    const attention = page.getByRole('region', { name: /needs attention/i });
    await attention.getByRole('link', { name: /1 failed order/ }).waitFor();
    expect(await attention.getByText(/awaiting acceptance for over/i).count()).toBe(0);
    await page.goto(`${running.server.url}/admin/#/default/settings`);
    expect(await page.getByLabel(/Awaiting acceptance/).inputValue()).toBe('48');
    // A cancellation request's own threshold, counted from the request: 4 h unless set.
    expect(await page.getByLabel('Cancellation unanswered').inputValue()).toBe('4');
  });
});
