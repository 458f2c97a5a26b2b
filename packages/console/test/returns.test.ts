import { afterEach, describe, expect, test } from 'vitest';
import {
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  openAt,
  withConsole,
} from './browser.js';
import { orderOf, shipByCourier } from './scenarios.js';
import { PARTNER_TOKEN } from './server.js';

/**
 * The returns pages (docs/console.md): an operator opens a return of a shipped line from the
 * form, lands on it, finds it in the queue by status, and cancels it before any receipt, asked
 * first, with the reason on the order's timeline.
 */

interface ReturnView {
  rma_number: string;
  status: string;
}

describe('returns in the console', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole(async (server) => {
    await shipByCourier(server);
  });
  let tab: ConsolePage;

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  const read = (rma: string) =>
    running.server.adminApi<ReturnView>('GET', `stores/default/returns/${rma}`);

  test('open a return from the form, see it awaiting receipt, cancel it asked first', async () => {
    const item = (await orderOf(running.server, '530000001-1')).order.items[0];
    tab = await openAt(running, '#/default/returns');
    const { page } = tab;
    await page.getByRole('heading', { name: 'Returns' }).waitFor();
    await page.getByLabel('RMA number').fill('RMA-UI-1');
    await page.getByLabel('Sales order number').fill('530000001');
    await page.getByLabel('Line 1: fulfillment order').fill('530000001-1');
    await page.getByLabel('Item id').fill(String(item?.id));
    await page.getByLabel('Qty').fill('1');
    await page.getByLabel('Reason').selectOption('damaged');
    await page.getByRole('button', { name: 'Open return' }).click();
    await page.getByRole('heading', { name: 'Return RMA-UI-1' }).waitFor();
    expect((await read('RMA-UI-1')).status).toBe('pending_receipt');
    await page.getByText('Awaiting receipt').first().waitFor();

    await page.goto(`${running.server.url}/admin/#/default/returns?status=pending_receipt`);
    await page.getByRole('link', { name: 'RMA-UI-1' }).waitFor();
    await page.getByRole('link', { name: 'RMA-UI-1' }).click();

    await page.getByRole('button', { name: 'Cancel return' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel return RMA-UI-1?' });
    await dialog.waitFor();
    expect((await read('RMA-UI-1')).status).toBe('pending_receipt');
    await dialog.getByLabel('Reason').fill('customer kept it');
    await dialog.getByRole('button', { name: 'Cancel return' }).click();
    await expect.poll(async () => (await read('RMA-UI-1')).status).toBe('canceled');
    // Canceled, it offers no cancel any more.
    await expect.poll(() => page.getByRole('button', { name: 'Cancel return' }).count()).toBe(0);
    await page.getByText('Canceled').first().waitFor();
    const timeline = (await orderOf(running.server, '530000001-1')).timeline;
    expect(timeline.at(-1)).toMatchObject({ action: 'return_cancel', reason: 'customer kept it' });
  });

  test('a receipt names its lines by sku', async () => {
    const number = await shipByCourier(running.server, '540000001-1');
    const item = (await orderOf(running.server, number)).order.items[0];
    await running.server.adminApi('POST', 'stores/default/returns', {
      rma_number: 'RMA-RCPT-1',
      sales_order_number: '540000001',
      warehouse_code: 'WH-A',
      items: [{ fulfillment_order_number: number, item_id: item?.id, qty: 1, reason: 'unwanted' }],
    });
    const received = await running.server.v1('POST', 'return/receive', PARTNER_TOKEN, {
      receipt: {
        rma_number: 'RMA-RCPT-1',
        receipt_number: 'RCPT-1',
        items: [{ item_id: item?.id, qty_restocked: 1 }],
      },
    });
    expect(received.status, JSON.stringify(received.body)).toBe(200);
    tab = await openAt(running, '#/default/returns/RMA-RCPT-1');
    const card = tab.page.getByRole('region', { name: 'Receipts and credits' });
    await card.getByText(/^Receipt RCPT-1/).waitFor();
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('SKU-1: 1 restocked, 0 quarantined, 0 disposed, 0 missing');
    expect(text).not.toContain(`item ${item?.id}`);
  });
});
