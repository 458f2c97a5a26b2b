import { afterEach, describe, expect, test } from 'vitest';
import {
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  openAt,
  withConsole,
} from './browser.js';
import { orderOf } from './scenarios.js';

/**
 * Nothing destructive happens on one click: canceling, failing and abandoning an order, the
 * failed queue's abandon (its requeue, which undoes nothing, acts at once) and revoking a token
 * each ask first, in a dialog that names what it does, offers "Keep …" (never a "Cancel" that
 * would read as the action), closes on Escape, keeps the focus inside, and sends its action once
 * however fast it is clicked.
 */

describe('confirmations', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole();
  let tab: ConsolePage;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  const status = async (number: string) => (await orderOf(running.server, number)).order.status;

  test('canceling an order asks first, naming the order and its lines; Escape keeps it', async () => {
    const number = '570000001-1';
    tab = await openAt(running, `#/default/orders/${number}`);
    const { page } = tab;
    await page.getByRole('button', { name: /^Cancel( order)?$/ }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel order ${number}?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('1 unshipped line');
    expect(await status(number)).toBe('pending_accept');
    // The way out never reads as the action itself.
    expect(await dialog.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Keep order' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await status(number)).toBe('pending_accept');

    await page.getByRole('button', { name: 'Cancel order' }).click();
    await dialog.getByLabel('Reason').fill('customer withdrew');
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await expect.poll(() => status(number)).toBe('canceled');
    const last = (await orderOf(running.server, number)).timeline.at(-1);
    expect(last).toMatchObject({ action: 'cancel', reason: 'customer withdrew' });
    // A toast says it was done.
    await page
      .getByRole('status')
      .filter({ hasText: `Order ${number} canceled` })
      .waitFor();
  });

  test('failing asks for the reason; abandoning asks first; the focus stays in the dialog', async () => {
    const number = '550000001-1';
    tab = await openAt(running, `#/default/orders/${number}`);
    const { page } = tab;
    await page.getByRole('button', { name: /^Fail( order)?$/ }).click();
    const fail = page.getByRole('dialog', { name: `Fail order ${number}?` });
    await fail.waitFor();
    expect(await status(number)).toBe('pending_accept');
    // Tab from the last control comes back to the first: the page behind cannot be reached.
    const controls = fail.locator('input, textarea, button');
    const count = await controls.count();
    await controls.nth(count - 1).focus();
    await page.keyboard.press('Tab');
    const focused =
      'document.activeElement === document.querySelector("dialog[open]").querySelector("input, textarea, button")';
    expect(await page.evaluate(focused)).toBe(true);
    await fail.getByLabel('Reason').fill('address unknown to the courier');
    await fail.getByRole('button', { name: 'Fail order' }).click();
    await expect
      .poll(async () => (await orderOf(running.server, number)).failure?.reason)
      .toBe('address unknown to the courier');

    await page.getByRole('button', { name: /^Abandon( order)?$/ }).click();
    const abandon = page.getByRole('dialog', { name: `Abandon order ${number}?` });
    await abandon.waitFor();
    expect((await orderOf(running.server, number)).failure?.abandoned).toBe(false);
    await abandon.getByRole('button', { name: 'Abandon order' }).click();
    await expect
      .poll(async () => (await orderOf(running.server, number)).failure?.abandoned)
      .toBe(true);
  });

  /** The failed queue, with these orders failed first. */
  async function failedQueue(numbers: string[]) {
    for (const number of numbers) {
      await running.server.adminApi('POST', `stores/default/orders/${number}/fail`, {
        reason: 'no such street',
      });
    }
    tab = await openAt(running, '#/default/failed');
    return tab.page;
  }

  /** The POSTs of `action` the page sends from now on. */
  function posts(page: ConsolePage['page'], action: string): string[] {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/${action}`))
        sent.push(request.url());
    });
    return sent;
  }

  test('a confirmation clicked twice acts once', async () => {
    const page = await failedQueue(['600000001-1']);
    const abandons = posts(page, 'abandon');
    await page.getByRole('button', { name: /^abandon 600000001-1$/i }).click();
    const dialog = page.getByRole('dialog', { name: 'Abandon order 600000001-1?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Abandon order' }).dblclick();
    await expect
      .poll(async () => (await orderOf(running.server, '600000001-1')).failure?.abandoned)
      .toBe(true);
    await dialog.waitFor({ state: 'hidden' });
    expect(abandons).toHaveLength(1);
  });

  test("the failed queue's Requeue acts on one click; its Abandon still asks first", async () => {
    const page = await failedQueue(['800000001-1', '710000001-1']);
    const requeues = posts(page, 'requeue');
    await page.getByRole('button', { name: 'Requeue 800000001-1' }).click();
    await expect
      .poll(async () => (await orderOf(running.server, '800000001-1')).failure)
      .toBeNull();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(requeues).toHaveLength(1);
    await page.getByRole('status').filter({ hasText: 'Order 800000001-1 requeued' }).waitFor();

    await page.getByRole('button', { name: 'Abandon 710000001-1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Abandon order 710000001-1?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Keep order' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await orderOf(running.server, '710000001-1')).failure?.abandoned).toBe(false);
  });

  test('revoking a token asks first and names the token', async () => {
    tab = await openAt(running, '#/default/tokens');
    const { page } = tab;
    const tokens = () =>
      running.server.adminApi<{ tokens: { name: string; revoked_at: string | null }[] }>(
        'GET',
        'stores/default/tokens',
      );
    const revokedAt = async () => (await tokens()).tokens.find((t) => t.name === 'erp')?.revoked_at;
    await page.getByRole('button', { name: 'Revoke erp' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke token erp?' });
    await dialog.waitFor();
    expect(await revokedAt()).toBeNull();
    await dialog.getByRole('button', { name: 'Keep token' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await revokedAt()).toBeNull();
    await page.getByRole('button', { name: 'Revoke erp' }).click();
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await expect.poll(revokedAt).not.toBeNull();
  });
});
