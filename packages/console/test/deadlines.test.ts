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
 * Deadlines in the console (docs/deadlines.md): the dashboard counts the overdue orders of each
 * warehouse and links to the "Past due" list of exactly them, each list row and order page
 * wears the server's deadline status, and the filter finds them.
 */

// A Monday morning: the seeded orders are due at 17:00 UTC that day (the default calendar).
const clock = new ManualClock('2026-03-02T09:00:00Z');

describe('deadlines in the console', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole(
    async () => {
      // Tuesday morning: every order still to ship is past its deadline.
      clock.set('2026-03-03T09:00:00Z');
    },
    { clock },
  );
  let tab: ConsolePage;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  test('the dashboard links the overdue orders of a warehouse to the Past due list', async () => {
    const { server } = running;
    const counted = await server.adminApi(
      'GET',
      'stores/default/orders?deadline=overdue&warehouse=WH-A',
    );
    const overdue = (counted as { total: { count: number } }).total.count;
    expect(overdue).toBeGreaterThan(1);

    tab = await openAt(running, '#/');
    const { page } = tab;
    const attention = page.getByRole('region', { name: /needs attention/i });
    const link = attention.getByRole('link', { name: `${overdue} orders overdue at WH-A` });
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Past due' }).waitFor();
    await expect
      .poll(() =>
        page
          .getByText(/^\d+ orders?\b/)
          .first()
          .textContent(),
      )
      .toMatch(new RegExp(`^${overdue} orders`));
    const rows = page.getByRole('row').filter({ hasText: 'Overdue' });
    await expect.poll(() => rows.count()).toBe(overdue);
    expect(await page.getByRole('row').filter({ hasText: 'On track' }).count()).toBe(0);

    // The order page wears the same badge, and says when it was due in the operator's time.
    const first = page.getByRole('row').filter({ hasText: 'Overdue' }).first().getByRole('link');
    await first.click();
    const deadline = page.locator('p.deadline');
    await deadline.getByText('Overdue').waitFor();
    expect(await deadline.locator('time').getAttribute('datetime')).toBe('2026-03-02T17:00:00Z');
  });

  test('the order search filters by deadline status', async () => {
    tab = await openAt(running, '#/default/orders');
    const { page } = tab;
    await page.getByLabel('Deadline').selectOption('on_track');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: /Remove filter.*Deadline: On track/ }).waitFor();
    await page
      .getByRole('status')
      .getByText(/^0 orders/)
      .waitFor();
  });

  test('a warehouse calendar is set on the store page, and one that cannot work is refused', async () => {
    tab = await openAt(running, '#/default/settings');
    const { page } = tab;
    const form = page.getByRole('form', { name: 'Warehouse calendar' });
    await form.getByLabel('Warehouse').selectOption('WH-B');
    await form.getByLabel('Cutoff').fill('25:00');
    await form.getByLabel('Time zone').fill('Europe/Rome');
    await form.getByRole('button', { name: 'Save calendar' }).click();
    await page
      .getByRole('alert')
      .getByText(/cutoff/)
      .waitFor();
    await form.getByLabel('Cutoff').fill('14:30');
    await form.getByRole('button', { name: 'Save calendar' }).click();
    await page.getByRole('row', { name: /WH-B.*cutoff 14:30, Europe\/Rome/ }).waitFor();
    const warehouses = await running.server.adminApi<{ warehouses: { code: string }[] }>(
      'GET',
      'stores/default/warehouses',
    );
    expect(warehouses.warehouses.find((warehouse) => warehouse.code === 'WH-B')).toMatchObject({
      cutoff: '14:30',
      timezone: 'Europe/Rome',
      working_days: null,
    });
  });

  test('an operator changes an order deadline with a reason, on its timeline', async () => {
    tab = await openAt(running, '#/default/orders/570000001-1');
    const { page } = tab;
    const form = page.getByRole('form', { name: 'Change the deadline' });
    await form.getByLabel('Must leave by').fill('2026-03-09T10:00');
    await form.getByLabel('Reason').fill('customer asked for next week');
    await form.getByRole('button', { name: 'Change deadline' }).click();
    await page.locator('p.deadline').getByText('On track').waitFor();
    const detail = await running.server.adminApi<{
      deadline: { fulfill_by: string };
      timeline: { action: string; reason: string }[];
    }>('GET', 'stores/default/orders/570000001-1');
    // Typed in the browser's time zone, stored in UTC.
    const expected = new Date('2026-03-09T10:00').toISOString().slice(0, 19).replace('T', ' ');
    expect(detail.deadline.fulfill_by).toBe(expected);
    expect(detail.timeline.at(-1)).toMatchObject({
      action: 'change_fulfill_by',
      reason: 'customer asked for next week',
    });
  });
});
