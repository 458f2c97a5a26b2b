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
 * Lists, bulk and the small traps an operator fell into: a full name finds its customer; a bulk
 * confirmation names its count, has no "Cancel" beside it, and never outlives the filter it
 * counted; the failed queue's dry run counts what the action will act on; "To warehouse" lists
 * the store's active warehouses; setting stock says so, and asks again when it moved meanwhile;
 * a stock row's history lists its sets;
 * failing an order never accepted says what is true; a token's resources read as words; an
 * empty list says what would be there;
 * setting reserved stock right asks first; fields are as wide as their content and checkboxes
 * sit by their labels.
 */

describe('lists and forms', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole();
  let tab: ConsolePage;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  test('a full name finds the customer', async () => {
    tab = await openAt(running, '#/default/orders');
    const { page } = tab;
    await page.getByLabel('Order number, customer name or e-mail').fill('Giulia Rossi');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^1 order\b/);
    await page.getByRole('link', { name: '510000001-1' }).waitFor();
  });

  test('a search made while another loads is kept; the late answer of the other never shows', async () => {
    tab = await openAt(running, '#/default/orders');
    const { page } = tab;
    await page.getByRole('status').first().waitFor();
    // The SKU-2 search answers late: the operator has searched BULK-1 meanwhile.
    let late!: () => void;
    const held = new Promise<void>((resolve) => {
      late = resolve;
    });
    await page.route(/\/admin\/api\/stores\/default\/orders\?.*sku=SKU-2/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('SKU', { exact: true }).fill('SKU-2');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByLabel('SKU', { exact: true }).fill('BULK-1');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^3 orders/);
    late();
    await page.waitForResponse(/sku=SKU-2/);
    // The answer to SKU-2 came after BULK-1's: the list stays BULK-1's, as its chip says.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(resolve))');
    expect(await page.getByRole('status').first().textContent()).toMatch(/^3 orders/);
    expect(await page.getByRole('link', { name: '700000001-1' }).count()).toBe(1);
  });

  test('a bulk confirmation names its count, has no "Cancel", and never outlives its filter', async () => {
    tab = await openAt(running, '#/default/orders?sku=BULK-1');
    const { page } = tab;
    await page.getByRole('link', { name: '700000001-1' }).waitFor();
    await page.getByLabel('Bulk action', { exact: true }).selectOption('cancel');
    await page.getByRole('button', { name: /Count the orders/ }).click();
    await page.getByRole('button', { name: 'Cancel 3 orders' }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Keep orders' }).click();
    // The form now shows a filter that was not counted: no confirmation of the old count, and
    // no new count until it is searched.
    await page.getByLabel('SKU', { exact: true }).fill('SKU-2');
    expect(await page.getByRole('button', { name: /^(Confirm|Cancel \d)/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Count the orders/ }).isDisabled()).toBe(true);
    expect((await orderOf(running.server, '700000001-1')).order.status).toBe('pending_accept');
  });

  test("the failed queue's dry run counts only the orders the action will act on", async () => {
    for (const number of ['600000001-1', '560000001-1', '570000001-1']) {
      await running.server.adminApi('POST', `stores/default/orders/${number}/fail`, {
        reason: 'no such street',
      });
    }
    await running.server.adminApi('POST', 'stores/default/orders/570000001-1/abandon', {});
    tab = await openAt(running, '#/default/failed');
    const { page } = tab;
    await page.getByRole('link', { name: '570000001-1' }).waitFor();
    await page.getByLabel('Bulk action', { exact: true }).selectOption('requeue');
    await page.getByRole('button', { name: /Count the orders/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Requeue 2 orders?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/1 other order .* skipped/);
    await dialog.getByRole('button', { name: 'Keep orders' }).click();
  });

  test('"To warehouse" lists the active warehouses the lines can move to', async () => {
    tab = await openAt(running, '#/default/orders/500000001-1');
    const { page } = tab;
    const to = page.getByLabel('To warehouse');
    await to.waitFor();
    expect(await to.evaluate((element) => element.tagName)).toBe('SELECT');
    const options = await to.locator('option').allTextContents();
    expect(options.join(' | ')).toContain('WH-B');
    expect(options.join(' | ')).not.toContain('WH-OLD');
    expect(options.join(' | ')).not.toMatch(/WH-A\b/);
  });

  test('setting stock says what it set', async () => {
    tab = await openAt(running, '#/default/stock');
    const { page } = tab;
    const onHand = page.getByLabel('On hand of SKU-3 in WH-B');
    await onHand.fill('55');
    await page
      .getByRole('row')
      .filter({ has: onHand })
      .getByRole('button', { name: 'Set SKU-3 at WH-B' })
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Stock of SKU-3 at WH-B set to 55' })
      .waitFor();
  });

  test('setting stock that moved meanwhile shows the new figure and asks again', async () => {
    tab = await openAt(running, '#/default/stock');
    const { page } = tab;
    const onHand = page.getByLabel('On hand of SKU-3 in WH-B');
    await onHand.waitFor();
    // A partner's sync lands after the page read the row.
    await running.server.adminApi('PUT', 'stores/default/stock/WH-B/SKU-3', { on_hand: 70 });
    await onHand.fill('60');
    const set = page
      .getByRole('row')
      .filter({ has: onHand })
      .getByRole('button', { name: 'Set SKU-3 at WH-B' });
    await set.click();
    await page.getByText('The on hand moved to 70 since this page read').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'set to 60' }).count()).toBe(0);
    await set.click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Stock of SKU-3 at WH-B set to 60' })
      .waitFor();
  });

  test("a stock row's history lists its sets newest first, with who and the figures", async () => {
    await running.server.adminApi('PUT', 'stores/default/stock/WH-B/SKU-3', { on_hand: 41 });
    await running.server.adminApi('PUT', 'stores/default/stock/WH-B/SKU-3', { on_hand: 43 });
    tab = await openAt(running, '#/default/stock');
    const { page } = tab;
    await page.getByRole('button', { name: 'History of SKU-3 at WH-B' }).click();
    const history = page.getByRole('region', { name: 'Stock history of SKU-3 at WH-B' });
    const rows = history.getByRole('row').filter({ hasText: 'Set by an operator' });
    await rows.first().waitFor();
    // The newest first: 41 became 43.
    expect(await rows.first().textContent()).toMatch(/\+2.*41.*43/);
    await page.getByRole('button', { name: 'Close history' }).click();
    expect(await history.count()).toBe(0);
  });

  test('failing an order no partner accepted says what is true', async () => {
    await running.server.adminApi('POST', 'stores/default/orders/510000001-1/fail', {
      reason: 'address incomplete',
    });
    tab = await openAt(running, '#/default/orders/510000001-1');
    const { page } = tab;
    await page.getByText('address incomplete').first().waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toMatch(/at allocation/i);
    expect(text).toMatch(/before (the partner|a partner|WH-A) accepted/i);
  });

  test("a token's resources read as words, grouped by the role that uses them", async () => {
    const { tokens } = await running.server.adminApi<{ tokens: { name: string; acl: string[] }[] }>(
      'GET',
      'stores/default/tokens',
    );
    const all = tokens.flatMap((token) => token.acl);
    const pick = (suffix: string) => all.find((resource) => resource.endsWith(suffix)) as string;
    const acl = [
      pick('_FulfillmentOrder::api_pending_accept'),
      pick('_FulfillmentOrder::api_invoice'),
    ];
    await running.server.adminApi('POST', 'stores/default/tokens', { name: 'mixed', acl });
    tab = await openAt(running, '#/default/tokens');
    const { page } = tab;
    const row = page.getByRole('row').filter({ hasText: 'mixed' });
    await row.waitFor();
    const text = ((await row.textContent()) ?? '').replace(/\s+/g, ' ');
    expect(text).toContain('Partner: Poll orders awaiting acceptance');
    expect(text).toContain('ERP: Invoice');
    expect(text).not.toContain('::api_');
  });

  const EMPTY = [
    { hash: '#/default/returns?status=credited', says: 'No returns here' },
    { hash: '#/default/orders?sku=NO-SUCH-SKU', says: 'No order matches' },
  ];

  test('a list with nothing in it says what would be there', async () => {
    tab = await openAt(running, '#/');
    const { page } = tab;
    for (const { hash, says } of EMPTY) {
      await page.goto(`${running.server.url}/admin/${hash}`);
      await page.locator('.empty-state').filter({ hasText: says }).waitFor();
      expect(await page.getByRole('link', { name: /^\d{9}-\d+$|^RMA-/ }).count(), hash).toBe(0);
    }
  });

  test('setting reserved stock right asks first, then says what it set', async () => {
    // Drift, as a bug or a hand edit of the database would leave it.
    await running.server.repository.db
      .updateTable('stock')
      .set({ reserved: 7 })
      .where('warehouse_code', '=', 'WH-B')
      .where('sku', '=', 'SKU-1')
      .execute();
    const mismatches = async () =>
      (
        await running.server.adminApi<{ mismatches: unknown[] }>(
          'GET',
          'stores/default/reservations',
        )
      ).mismatches.length;
    expect(await mismatches()).toBe(1);
    tab = await openAt(running, '#/default/stock');
    const { page } = tab;
    await page.getByRole('button', { name: 'Check reserved stock against open orders' }).click();
    const fix = page.getByRole('button', { name: 'Set reserved to what open orders hold' });
    await fix.click();
    const dialog = page.getByRole('dialog', { name: 'Set 1 row right?' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Keep as it is' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await mismatches()).toBe(1);
    await fix.click();
    await dialog.getByLabel('Reason (optional)').fill('drift after a restore');
    await dialog.getByRole('button', { name: 'Set reserved' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: '1 row set to what open orders and receipts hold' })
      .waitFor();
    expect(await mismatches()).toBe(0);
  });

  test('fields are as wide as their content; checkboxes sit by their labels', async () => {
    tab = await openAt(running, '#/default/tokens');
    const { page } = tab;
    // The overlap of a rotation: a number of seconds, in a field as wide as one.
    await page.getByRole('button', { name: 'Rotate partner' }).click();
    const overlap = page.getByLabel(/Overlap/);
    await overlap.waitFor();
    expect((await overlap.boundingBox())?.width).toBeLessThanOrEqual(200);
    await page.getByRole('button', { name: 'Keep token' }).click();
    await page.goto(`${running.server.url}/admin/#/default/orders`);
    const search = page.getByLabel('SKU', { exact: true });
    await search.waitFor();
    expect((await search.boundingBox())?.width).toBeLessThanOrEqual(320);

    await page.goto(`${running.server.url}/admin/#/default/settings`);
    const box = page.getByRole('checkbox', { name: 'Reroute rejected lines to another warehouse' });
    await box.waitFor();
    const checkbox = await box.boundingBox();
    // The text of the checkbox's label, measured as laid out.
    const label = (await page.evaluate(`(() => {
      const input = [...document.querySelectorAll('input[type=checkbox]')].find((element) =>
        element.closest('label')?.textContent?.includes('Reroute'),
      );
      const label = input.closest('label');
      const text = [...label.childNodes].find(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim(),
      );
      const range = document.createRange();
      range.selectNodeContents(text ?? label.querySelector('span'));
      const rect = range.getBoundingClientRect();
      return { x: rect.x, y: rect.y, height: rect.height };
    })()`)) as { x: number; y: number; height: number };
    if (!checkbox) throw new Error('no checkbox');
    const gap = label.x - (checkbox.x + checkbox.width);
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThanOrEqual(12);
    const middle = (y: number, height: number) => y + height / 2;
    expect(
      Math.abs(middle(checkbox.y, checkbox.height) - middle(label.y, label.height)),
    ).toBeLessThanOrEqual(4);
  });
});
