import { afterEach, describe, expect, test } from 'vitest';
import {
  assertAccessible,
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  openAt,
  screenshot,
  WIDTHS,
  withConsole,
} from './browser.js';
import { accept, allocate, orderOf, ship, shipByCourier, UPS_TRACK } from './scenarios.js';
import { PARTNER_TOKEN } from './server.js';

/**
 * What the order page tells of holds and cancellations (docs/console.md): a request reads as a
 * request and its answer as an answer, the side card names the lines asked for, a canceled
 * order is held by nothing, "Next" says a held order waits for its release; the sales order card
 * follows a Move; one toast at a time, for the page it was shown on; nothing said twice.
 */

const timelineText = async (page: ConsolePage['page']) =>
  ((await page.locator('.timeline').textContent()) ?? '').replace(/\s+/g, ' ');

const entries = async (page: ConsolePage['page']) =>
  (await page.locator('.timeline > li').allTextContents()).map((text) =>
    text.replace(/\s+/g, ' ').trim(),
  );

describe('the order page tells holds and cancellations', {
  timeout: BROWSER_TEST_MS,
  ...browserOrSkip,
}, () => {
  const running = withConsole();
  let tab: ConsolePage | undefined;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
    tab = undefined;
  });

  async function orderPage(number: string, width: number = WIDTHS.desktop) {
    tab = await openAt(running, `#/default/orders/${number}`, { width });
    await tab.page.locator('.timeline > li').first().waitFor();
    return tab.page;
  }

  test('a canceled held order reads Canceled: its hold was released with the cancel', async () => {
    const { server } = running;
    await server.adminApi('POST', 'stores/default/sales-orders/550000001/hold', {
      handle: 'fraud-check',
      reason: 'high_risk_of_fraud',
    });
    await server.adminApi('POST', 'stores/default/sales-orders/550000001/cancel', {
      reason: 'fraud',
    });
    const page = await orderPage('550000001-1');
    const header = page.locator('.page__title');
    await header.getByText('Canceled', { exact: true }).waitFor();
    expect(await header.getByText('On hold', { exact: true }).count()).toBe(0);
    expect(await page.locator('.next-step').textContent()).toBe(
      'Canceled: nothing more happens to it.',
    );
    const [newest] = await entries(page);
    expect(newest).toMatch(/^Canceled by alice/);
    expect(newest).toContain('Holds released with it: High risk of fraud (fraud-check)');
    expect(newest).toContain('Fraud');
    expect(await timelineText(page)).not.toContain('high_risk_of_fraud');
    // The hold card has no active hold to show, nor to release.
    expect(await page.getByRole('button', { name: /^Release/ }).count()).toBe(0);
  });

  test('"Next" says a held order waits for its release', async () => {
    await running.server.adminApi('POST', 'stores/default/sales-orders/560000001/hold', {
      handle: 'pay',
      reason: 'awaiting_payment',
    });
    const page = await orderPage('560000001-1');
    const next = (await page.locator('.next-step').textContent()) ?? '';
    expect(next).toBe(
      'On hold (awaiting payment): in no queue, nothing moves until the hold is released.',
    );
    expect(next).not.toMatch(/accepts or rejects/);
  });

  test('a cancellation request reads as a request, each answer as an answer, and the side card names the lines', async () => {
    const { server } = running;
    const number = '800000001-1';
    await accept(server, number);
    await allocate(server, number);
    await server.adminApi('POST', `stores/default/orders/${number}/allow-partial`, {
      allow: true,
      reason: 'ship what is packed',
    });
    await server.adminApi('POST', 'stores/default/sales-orders/800000001/cancel', {
      reason: 'customer',
    });
    let page = await orderPage(number);
    let [newest] = await entries(page);
    expect(newest).toMatch(/^Cancellation requested by alice/);
    expect(newest).toContain('Asked WH-A to cancel: 1 × SKU-1, 1 × SKU-2 (request 1)');
    expect(newest).toContain('Asked by the customer');
    // Nothing reads as canceled yet: the partner has not answered.
    expect(
      await page.locator('.timeline__head').getByText('Canceled', { exact: true }).count(),
    ).toBe(0);
    const card = page.getByRole('region', { name: 'Holds and cancellation requests' });
    expect(await card.textContent()).toContain(
      'Cancellation of 1 × SKU-1, 1 × SKU-2 asked by alice',
    );
    await tab?.assertClean();
    await tab?.page.context().close();

    // The partner ships SKU-1 first, then accepts what is left of the request.
    await ship(server, number, [UPS_TRACK], ['SKU-1']);
    const answered = await server.v1('POST', 'fulfillmentOrder/acceptCancellation', PARTNER_TOKEN, {
      cancellation: { order_id: number, message: 'stopped at the dock' },
    });
    expect(answered.status).toBe(200);
    page = await orderPage(number);
    const story = await entries(page);
    [newest] = story;
    expect(newest).toMatch(/^Cancellation accepted by partner/);
    expect(newest).toContain('Request 1: 1 × SKU-2 canceled');
    expect(newest).toContain('“stopped at the dock”');
    const shipped = story.find((entry) => entry.startsWith('Shipped by partner'));
    expect(shipped).toContain('Cancellation request 1 refused for what shipped: 1 × SKU-1');
    expect(shipped).toContain('Still asked to cancel: 1 × SKU-2');
    const requests = page
      .getByRole('region', { name: 'Holds and cancellation requests' })
      .locator('li');
    expect((await requests.allTextContents()).map((text) => text.replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/^Cancellation of 1 × SKU-2 asked by alice .*Accepted by the partner/),
      expect.stringMatching(/^Cancellation of 1 × SKU-1 asked by alice .*Shipped first/),
    ]);
    await assertAccessible(page, 'order with its requests');
    await screenshot(page, 'order-requests', { documented: true });
    await tab?.assertClean();
    await tab?.page.context().close();
    page = await orderPage(number, WIDTHS.phone);
    const overflow = await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'order-requests-phone', { documented: true });
  });

  test('a courier shipment says so once', async () => {
    const number = await shipByCourier(running.server, '530000001-1');
    const page = await orderPage(number);
    const shipped = (await entries(page)).find((entry) => entry.startsWith('Shipped'));
    expect(shipped).toMatch(/^Shipped by courier,/);
    expect(shipped).toContain("With the courier's labels");
    expect(await timelineText(page)).not.toMatch(/by the courier by courier/);
  });

  test('after a Move the sales order card lists the new order; one toast at a time, for its page only', async () => {
    const number = '520000001-1';
    const page = await orderPage(number);
    const salesOrderCard = page.getByRole('region', { name: 'Sales order 520000001' });
    await salesOrderCard.getByText('This is its only fulfillment order.').waitFor();
    await page.getByRole('checkbox', { name: /\(SKU-3\)/ }).check();
    await page.getByLabel('To warehouse').selectOption('WH-B');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page
      .getByRole('status')
      .getByText(/1 line of order 520000001-1 moved to WH-B/)
      .waitFor();
    await salesOrderCard.getByRole('link', { name: '520000001-2' }).waitFor();
    expect(await salesOrderCard.getByText('This is its only fulfillment order.').count()).toBe(0);
    expect((await orderOf(running.server, '520000001-2')).order.items[0]?.sku).toBe('SKU-3');

    // A second change: its toast takes the place of the first.
    await page.getByLabel('Partial shipment of this order').selectOption('true');
    await page.getByRole('button', { name: 'Set partials' }).click();
    await page
      .getByRole('status')
      .getByText('Partial shipments of order 520000001-1 set')
      .waitFor();
    expect(await page.locator('.toast').count()).toBe(1);
    // Elsewhere, what was said of this order is gone.
    await page.getByRole('navigation').getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(await page.locator('.toast').count()).toBe(0);
  });
});
