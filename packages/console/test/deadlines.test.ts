import { ManualClock } from '@fulfil/core';
import { afterEach, describe, expect, test } from 'vitest';
import {
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  openAt,
  withConsole,
} from './browser.js';
import { HOSTILE_NOTE } from './server.js';

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
    await page.getByLabel('Deadline', { exact: true }).selectOption('on_track');
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

  test('an operator ticks orders in the Past due list and gives them a new deadline, each on its timeline', async () => {
    tab = await openAt(running, '#/default/past-due');
    const { page } = tab;
    await page.getByRole('heading', { level: 1, name: 'Past due' }).waitFor();
    const form = page.getByRole('form', { name: 'Change the deadline of the selected orders' });
    // Nothing ticked, nothing to change.
    expect(await form.getByRole('button', { name: /Change 0 deadlines/ }).isDisabled()).toBe(true);
    const boxes = page.getByRole('checkbox', { name: /^Select / });
    await expect.poll(() => boxes.count()).toBeGreaterThan(2);
    const picked: string[] = [];
    for (const index of [0, 1]) {
      const box = boxes.nth(index);
      picked.push(((await box.getAttribute('aria-label')) as string).replace('Select ', ''));
      await box.check();
    }
    await form.getByLabel('Must leave by').fill('2026-03-10T15:30');
    // A reason of blanks only: the server refuses it naming the field, and nothing changes.
    await form.getByLabel('Reason', { exact: true }).fill('   ');
    await form.getByRole('button', { name: 'Change 2 deadlines' }).click();
    await page
      .getByRole('alert')
      .getByText(/reason/)
      .waitFor();
    type Detail = {
      deadline: { fulfill_by: string };
      timeline: { action: string; reason: string | null }[];
    };
    const detailOf = (number: string) =>
      running.server.adminApi<Detail>('GET', `stores/default/orders/${number}`);
    const before = await detailOf(picked[0] as string);
    expect(before.timeline.at(-1)?.action).not.toBe('change_fulfill_by');

    // A hostile reason is kept and shown as text.
    await form.getByLabel('Reason', { exact: true }).fill(HOSTILE_NOTE);
    await form.getByRole('button', { name: 'Change 2 deadlines' }).click();
    await page.getByRole('status').getByText('Done 2, skipped 0, failed 0.').waitFor();
    const expected = new Date('2026-03-10T15:30').toISOString().slice(0, 19).replace('T', ' ');
    for (const number of picked) {
      const detail = await detailOf(number);
      expect(detail.deadline.fulfill_by).toBe(expected);
      expect(detail.timeline.at(-1)).toMatchObject({
        action: 'change_fulfill_by',
        reason: HOSTILE_NOTE,
      });
    }
    // No longer overdue: the list has them no more, and nothing stays ticked.
    await expect
      .poll(() => page.getByRole('checkbox', { name: `Select ${picked[0]}` }).count())
      .toBe(0);
    await form.getByRole('button', { name: /Change 0 deadlines/ }).waitFor();
    await page.getByRole('link', { name: picked[0] as string }).click();
    await page.getByText(HOSTILE_NOTE).first().waitFor();
  });

  test("the store's calendar is set in its settings, and one that cannot work is refused naming the field", async () => {
    tab = await openAt(running, '#/default/settings');
    const { page } = tab;
    const form = page.getByRole('form', { name: 'Store calendar' });
    await form.getByLabel('Time zone').fill('Mars/Olympus');
    await form.getByRole('button', { name: 'Save store calendar' }).click();
    await page
      .getByRole('alert')
      .getByText(/settings\.calendar\.timezone/)
      .waitFor();
    await form.getByLabel('Time zone').fill(HOSTILE_NOTE);
    await form.getByRole('button', { name: 'Save store calendar' }).click();
    await page
      .getByRole('alert')
      .getByText(/settings\.calendar\.timezone/)
      .waitFor();
    const read = () =>
      running.server.adminApi<{ settings: { calendar?: Record<string, unknown> } }>(
        'GET',
        'stores/default',
      );
    expect((await read()).settings.calendar ?? {}).not.toMatchObject({ timezone: HOSTILE_NOTE });
    await form.getByLabel('Time zone').fill('Europe/Rome');
    await form.getByLabel('Cutoff').fill('15:00');
    await form.getByLabel('Processing days').fill('2');
    await form.getByRole('button', { name: 'Save store calendar' }).click();
    await expect
      .poll(async () => (await read()).settings.calendar)
      .toMatchObject({ timezone: 'Europe/Rome', cutoff: '15:00', processing_days: 2 });
    // Shown again as saved when the page opens anew.
    await page.reload();
    const again = page.getByRole('form', { name: 'Store calendar' });
    await expect.poll(() => again.getByLabel('Cutoff').inputValue()).toBe('15:00');
  });
});
