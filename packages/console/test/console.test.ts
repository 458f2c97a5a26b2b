import { afterEach, describe, expect, test } from 'vitest';
import {
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  logIn,
  openConsole,
  withConsole,
} from './browser.js';
import { accept, allocate, shipByCourier } from './scenarios.js';
import { ERP_TOKEN, PARTNER_TOKEN } from './server.js';

/** The acceptance list, done by hand in a real browser against a whole instance. */

interface Detail {
  order: { status: string; items: { id: number; sku: string; status: string }[] };
  holds: {
    handle: string;
    reason: string;
    note: string | null;
    placed_by: string;
    released_at: string | null;
  }[];
  failure: { reason: string } | null;
  timeline: { action: string; actor: string; reason: string | null }[];
  shipments: { id: number; tracks: { track_number: string }[] }[];
}

describe('the console, end to end', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole();
  let tab: ConsolePage;

  afterEach(async () => {
    // No request elsewhere, no script error, no CSP violation, no dialog, in any scenario.
    await tab?.assertClean();
    await tab?.page.context().close();
  });

  const order = (number: string) =>
    running.server.adminApi<Detail>('GET', `stores/default/orders/${number}`);

  async function open(): Promise<ConsolePage> {
    tab = await openConsole(running.browser, running.server.url);
    await logIn(tab, running.server.url, running.server.admin);
    return tab;
  }

  test('refuses a wrong secret, then logs in and out', async () => {
    tab = await openConsole(running.browser, running.server.url);
    const { page } = tab;
    await page.goto(`${running.server.url}/admin/`);
    await page.getByLabel('Operator name').fill(running.server.admin.name);
    await page.getByLabel('Secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not valid|invalid/i);
    await page.getByLabel('Secret').fill(running.server.admin.secret);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    // The session ended on the server too: a reload shows the login form again.
    await page.reload();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
  });

  test('finds an order by its sales order number and reads its timeline', async () => {
    const { page } = await open();
    await page.getByRole('navigation').getByRole('link', { name: 'Orders' }).click();
    await page.getByLabel('Order number, customer name or e-mail').fill('500000001');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^1 order/);
    await page.getByRole('link', { name: '500000001-1' }).click();
    await page.getByRole('heading', { level: 1, name: 'Order 500000001-1' }).waitFor();
    // The title shows while the order still loads: its sections come with the order.
    await page.locator('.timeline > li').first().waitFor();
    const entries = await page.locator('.timeline > li').allTextContents();
    const expected = (await order('500000001-1')).timeline;
    expect(entries).toHaveLength(expected.length);
    expect(entries.length).toBeGreaterThan(0);
    // Newest first, in words: the order was received from its sales order.
    expect(expected.at(-1)?.action).toBe('intake');
    expect(entries[0]).toContain('Received');
    expect(await page.locator('.customer').first().textContent()).toBe('Grace Hopper');
  });

  test('holds a sales order from the order page, says why in words, and releases it', async () => {
    const number = '510000001-1';
    const { page } = await open();
    await page.goto(`${running.server.url}/admin/#/default/orders/${number}`);
    const card = page.getByRole('region', { name: 'Holds and cancellation requests' });
    await card.getByRole('button', { name: 'Hold', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Hold sales order 510000001?' });
    await dialog.getByLabel('Reason').selectOption('high_risk_of_fraud');
    await dialog.getByLabel('Note (optional)').fill('score 97');
    await dialog.getByRole('button', { name: 'Hold sales order' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Sales order 510000001 on hold: 1 fulfillment order' })
      .waitFor();
    const held = await order(number);
    expect(held.holds).toMatchObject([
      {
        reason: 'high_risk_of_fraud',
        note: 'score 97',
        placed_by: expect.stringContaining('alice'),
      },
    ]);
    // The handle nobody had to invent names who placed it.
    expect(held.holds[0]?.handle).toMatch(/^console-alice-/);
    await expect.poll(() => card.textContent()).toMatch(/High risk of fraud, placed by /);
    // The header says so beside its status.
    await page.locator('.page__title').getByText('On hold', { exact: true }).waitFor();
    expect(await card.textContent()).toContain('score 97');
    expect(await card.textContent()).not.toContain('high_risk');

    await card.getByRole('button', { name: /^Release/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Hold of sales order 510000001 released' })
      .waitFor();
    expect((await order(number)).holds[0]?.released_at).not.toBeNull();
    await expect.poll(() => page.getByText('On hold', { exact: true }).count()).toBe(0);

    // Accepted, its lines need their partner to cancel them: the request reads in words.
    await accept(running.server, number);
    await running.server.adminApi('POST', 'stores/default/sales-orders/510000001/cancel', {
      reason: 'customer',
    });
    await page.reload();
    await expect.poll(() => card.textContent()).toMatch(/Cancellation of 1 × SKU-2 asked by /);
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('Asked by the customer');
    expect(text).toContain('Cancellation requested');
  });

  test('a hold the order no longer takes shows the refusal in its dialog, which stays open', async () => {
    const number = '550000001-1';
    const { page } = await open();
    await page.goto(`${running.server.url}/admin/#/default/orders/${number}`);
    await page.getByRole('button', { name: 'Hold', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Hold sales order 550000001?' });
    await dialog.waitFor();
    // Meanwhile its partner accepts it and the ERP allocates it: no hold applies any more.
    await accept(running.server, number);
    await allocate(running.server, number);
    await dialog.getByRole('button', { name: 'Hold sales order' }).click();
    await dialog.getByRole('alert').waitFor();
    // The server's words, its values filled in.
    const refusal = (await dialog.getByRole('alert').textContent()) ?? '';
    expect(refusal).toContain('Sales order 550000001 has no fulfillment order that can still be');
    expect(refusal).not.toContain('%');
    expect(await dialog.isVisible()).toBe(true);
    expect((await order(number)).holds).toEqual([]);
    await dialog.getByRole('button', { name: "Don't hold" }).click();
    await page.reload();
    await page.locator('.timeline > li').first().waitFor();
    expect(await page.getByRole('button', { name: 'Hold', exact: true }).count()).toBe(0);
  });

  test('an order shipped and returned lists its returns, each a link to its page', async () => {
    const number = await shipByCourier(running.server, '540000001-1');
    const item = (await order(number)).order.items[0];
    await running.server.adminApi('POST', 'stores/default/returns', {
      rma_number: 'RMA-SIDE-1',
      sales_order_number: '540000001',
      items: [{ fulfillment_order_number: number, item_id: item?.id, qty: 1, reason: 'damaged' }],
    });
    const { page } = await open();
    await page.goto(`${running.server.url}/admin/#/default/orders/${number}`);
    const card = page.getByRole('region', { name: 'Returns' });
    await card.getByText('Awaiting receipt').waitFor();
    // Shipped, it can no longer be held: no button says otherwise.
    expect(await page.getByRole('button', { name: 'Hold', exact: true }).count()).toBe(0);
    expect(await card.textContent()).toMatch(/1 × SKU-1/);
    expect(await card.textContent()).toMatch(/opened .* ago/);
    await card.getByRole('link', { name: 'Return RMA-SIDE-1' }).click();
    await page.getByRole('heading', { level: 1, name: 'Return RMA-SIDE-1' }).waitFor();
    // An order with no return shows no such card.
    await page.goto(`${running.server.url}/admin/#/default/orders/500000001-1`);
    await page.locator('.timeline > li').first().waitFor();
    expect(await page.getByRole('region', { name: 'Returns' }).count()).toBe(0);
  });

  test('requeues a failed order from the failed queue', async () => {
    await running.server.adminApi('POST', 'stores/default/orders/600000001-1/fail', {
      reason: 'address unknown to the courier',
    });
    const { page } = await open();
    await page.getByRole('navigation').getByRole('link', { name: 'Failed' }).click();
    const row = page.getByRole('row').filter({ hasText: '600000001-1' });
    await expect.poll(() => row.textContent()).toContain('address unknown to the courier');
    await page.getByRole('button', { name: 'Requeue 600000001-1' }).click();
    await expect.poll(() => row.count()).toBe(0);
    const detail = await order('600000001-1');
    expect(detail.failure).toBeNull();
    expect(detail.timeline.at(-1)).toMatchObject({ action: expect.stringMatching(/requeue/) });
    expect(detail.timeline.at(-1)?.actor).toContain('alice');
  });

  test('bulk-cancels exactly the filtered set, after its dry run', async () => {
    const { page } = await open();
    await page.goto(`${running.server.url}/admin/#/default/orders?sku=BULK-1`);
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^3 orders/);
    await page.getByLabel('Bulk action', { exact: true }).selectOption('cancel');
    await page.getByLabel('Reason (optional)').fill('customer withdrew');
    await page.getByRole('button', { name: 'Count the orders (dry run)' }).click();
    // Nothing is canceled by the dry run; the confirmation names the count.
    const confirm = page.getByRole('dialog', { name: 'Cancel 3 orders?' });
    await confirm.getByRole('button', { name: 'Cancel 3 orders' }).waitFor();
    expect((await order('700000001-1')).order.status).toBe('pending_accept');
    await confirm.getByRole('button', { name: 'Keep orders' }).click();
    // Another filter: its count is its own.
    await page.getByLabel('SKU', { exact: true }).fill('SKU-2');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await page.getByLabel('SKU', { exact: true }).fill('BULK-1');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toMatch(/^3 orders/);
    await page.getByLabel('Bulk action', { exact: true }).selectOption('cancel');
    await page.getByLabel('Reason (optional)').fill('customer withdrew');
    await page.getByRole('button', { name: 'Count the orders (dry run)' }).click();
    await confirm.getByRole('button', { name: 'Cancel 3 orders' }).click();
    await expect
      .poll(() => page.getByText(/^Done \d+, skipped/).textContent())
      .toBe('Done 3, skipped 0, failed 0.');
    for (const number of ['700000001-1', '700000002-1', '700000003-1']) {
      expect((await order(number)).order.status).toBe('canceled');
    }
    expect((await order('710000001-1')).order.status).toBe('pending_accept');
  });

  test('sets stock on hand and shows available change', async () => {
    const { page } = await open();
    await page.getByRole('navigation').getByRole('link', { name: 'Stock' }).click();
    await page.getByLabel('SKU starts with').fill('SKU-1');
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row').filter({ hasText: 'WH-A' }).filter({ hasText: 'SKU-1' });
    await row.waitFor();
    const available = async () => Number(await row.locator('.available').textContent());
    // Beside reserved: the safety stock in effect, none in this seed.
    expect(await page.getByRole('columnheader', { name: 'Safety stock' }).count()).toBe(1);
    const before = await available();
    const onHand = page.getByLabel('On hand of SKU-1 in WH-A');
    const had = Number(await onHand.inputValue());
    await onHand.fill(String(had + 50));
    await row.getByRole('button', { name: 'Set SKU-1 at WH-A' }).click();
    await expect.poll(available).toBe(before + 50);
    // The sku's own safety stock is kept back from available; emptied, the warehouse's applies.
    await page.getByLabel('Safety stock of SKU-1 in WH-A', { exact: true }).fill('7');
    await row.getByRole('button', { name: 'Set safety stock of SKU-1 in WH-A' }).click();
    await expect.poll(available).toBe(before + 50 - 7);
    await page.getByLabel('Safety stock of SKU-1 in WH-A', { exact: true }).fill('');
    await row.getByRole('button', { name: 'Set safety stock of SKU-1 in WH-A' }).click();
    await expect.poll(available).toBe(before + 50);
  });

  test('enables partials for one order, which then ships in part through /V1', async () => {
    const number = '800000001-1';
    const items = (await order(number)).order.items;
    const accept = await running.server.v1('POST', 'fulfillmentOrder/accept', PARTNER_TOKEN, {
      order: { order_id: number, items: items.map((item) => ({ item_id: item.id, qty: 1 })) },
    });
    expect(accept.status).toBe(200);
    const allocate = await running.server.v1('POST', 'fulfillmentOrder/allocate', ERP_TOKEN, {
      allocation: { order_id: number, items: items.map((item) => ({ item_id: item.id })) },
    });
    expect(allocate.status).toBe(200);
    const shipFirst = () =>
      running.server.v1('POST', 'fulfillmentOrder/ship', PARTNER_TOKEN, {
        shipment: {
          order_id: number,
          items: [{ item_id: items[0]?.id, qty: 1 }],
          tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z999' }],
        },
      });
    // The store does not allow partial shipments: the partner cannot ship one line of two.
    expect((await shipFirst()).status).toBe(400);

    const { page } = await open();
    await page.goto(`${running.server.url}/admin/#/default/orders/${number}`);
    await page.getByLabel('Partial shipment of this order').selectOption('true');
    await page.getByRole('button', { name: 'Set partials' }).click();
    await expect.poll(async () => (await order(number)).timeline.at(-1)?.action).toMatch(/partial/);
    expect((await shipFirst()).status).toBe(200);
    // The next render shows what /V1 did.
    await page.reload();
    await expect
      .poll(() => page.locator('header .badge').first().textContent())
      .toBe('Partly shipped');
  });

  test('corrects the tracks of a shipment, with a reason; /V1 then holds the partner to them', async () => {
    const number = '800000001-1';
    const shipments = (await order(number)).shipments;
    // The order's first shipment, as its card names it.
    if (shipments.length !== 1) throw new Error('the partials test ships this order first');
    const { page } = await open();
    await page.goto(`${running.server.url}/admin/#/default/orders/${number}`);
    await page.getByText('Correct the tracks of shipment 1').click();
    const tracks = page.getByLabel('Tracks of shipment 1', { exact: false });
    await expect.poll(() => tracks.inputValue()).toBe('ups | UPS | 1Z999');
    await tracks.fill('a line without its parts');
    await page.getByLabel('Reason for correcting shipment 1').fill('wrong label');
    await page.getByRole('button', { name: 'Correct tracks' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'carrier code | title | track number' })
      .waitFor();
    await tracks.fill('ups | UPS | 1Z000\ndhl | DHL | JD0001');
    await page.getByRole('button', { name: 'Correct tracks' }).click();
    await expect
      .poll(async () =>
        (await order(number)).shipments[0]?.tracks.map((track) => track.track_number),
      )
      .toEqual(['1Z000', 'JD0001']);
    const last = (await order(number)).timeline.at(-1);
    expect(last).toMatchObject({ action: 'correct_tracks', reason: 'wrong label' });
    await expect.poll(() => tracks.inputValue()).toBe('ups | UPS | 1Z000\ndhl | DHL | JD0001');
    // /V1 holds the partner to the corrected tracks: a repeat with them is the same shipment,
    // one with the old track a conflicting one.
    const item = (await order(number)).order.items[0]?.id;
    const shipAgain = (tracks: { carrier_code: string; title: string; track_number: string }[]) =>
      running.server.v1('POST', 'fulfillmentOrder/ship', PARTNER_TOKEN, {
        shipment: { order_id: number, items: [{ item_id: item, qty: 1 }], tracks },
      });
    expect(
      (await shipAgain([{ carrier_code: 'ups', title: 'UPS', track_number: '1Z999' }])).status,
    ).toBe(400);
    const repeat = await shipAgain([
      { carrier_code: 'ups', title: 'UPS', track_number: '1Z000' },
      { carrier_code: 'dhl', title: 'DHL', track_number: 'JD0001' },
    ]);
    expect(repeat.status).toBe(200);
    expect((await order(number)).shipments).toHaveLength(1);
  });

  test("offers the sales channel's role: its token reads the sales orders feed", async () => {
    const { page } = await open();
    await page.getByRole('navigation').getByRole('link', { name: 'Tokens' }).click();
    await page.getByLabel('Name').fill('storefront');
    // A scope checked for another role is not carried over: a channel acts for the whole store.
    await page.getByRole('checkbox', { name: 'WH-A: Partner A' }).check();
    await page.getByLabel('Access').selectOption('channel');
    await page.getByText('A sales channel acts for the whole store').waitFor();
    expect(await page.getByRole('checkbox', { name: 'WH-A: Partner A' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Create' }).click();
    const secret = (await page.locator('.token-secret').textContent()) ?? '';
    expect((await running.server.v1('GET', 'salesOrders', secret)).status).toBe(200);
    expect((await running.server.v1('GET', 'warehouses', secret)).status).toBe(403);
  });

  test('creates a token shown once, which works on /V1 until revoked in the console', async () => {
    const { page } = await open();
    await page.getByRole('navigation').getByRole('link', { name: 'Tokens' }).click();
    await page.getByLabel('Name').fill('acme-3pl');
    await page.getByLabel('Access').selectOption('partner');
    await page.getByRole('checkbox', { name: 'WH-A: Partner A' }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    const secret = (await page.locator('.token-secret').textContent()) ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect((await running.server.v1('GET', 'warehouses', secret)).status).toBe(200);

    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'acme-3pl' }).waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke acme-3pl' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke token acme-3pl?' })
      .getByRole('button', { name: 'Revoke token' })
      .click();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'acme-3pl' }).textContent())
      .toContain('Revoked');
    expect((await running.server.v1('GET', 'warehouses', secret)).status).toBe(401);
  });

  test('never stale: what /V1 changes shows on the next render', async () => {
    const { page } = await open();
    await page.goto(`${running.server.url}/admin/#/default/orders?q=710000001`);
    const row = page.getByRole('row').filter({ hasText: '710000001-1' });
    await expect.poll(() => row.textContent()).toContain('Awaiting acceptance');
    const items = (await order('710000001-1')).order.items;
    const accept = await running.server.v1('POST', 'fulfillmentOrder/accept', PARTNER_TOKEN, {
      order: {
        order_id: '710000001-1',
        items: items.map((item) => ({ item_id: item.id, qty: 1 })),
      },
    });
    expect(accept.status).toBe(200);
    await page.getByRole('link', { name: '710000001-1' }).click();
    await expect
      .poll(() => page.locator('header .badge').first().textContent())
      .toBe('Awaiting allocation');
    await page.goBack();
    await expect.poll(() => row.textContent()).toContain('Awaiting allocation');
  });

  test('a viewer reads every page and is offered no action', async () => {
    const viewer = await running.server.adminApi<{ secret: string }>('POST', 'operators', {
      name: 'victor',
      role: 'viewer',
    });
    tab = await openConsole(running.browser, running.server.url);
    const { page } = tab;
    await logIn(tab, running.server.url, { name: 'victor', secret: viewer.secret });
    await page.goto(`${running.server.url}/admin/#/default/orders/500000001-1`);
    await page.getByRole('heading', { level: 2, name: 'Timeline' }).waitFor();
    await page.goto(`${running.server.url}/admin/#/default/stock`);
    await page.getByRole('row').filter({ hasText: 'SKU-2' }).first().waitFor();
    await page.goto(`${running.server.url}/admin/#/default/tokens`);
    await page.getByRole('row').filter({ hasText: 'partner' }).first().waitFor();
    for (const hash of ['#/default/orders/500000001-1', '#/default/stock', '#/default/tokens']) {
      await page.goto(`${running.server.url}/admin/${hash}`);
      await expect.poll(() => page.getByText('Loading…').count()).toBe(0);
      expect(await page.locator('main input[type=number]').count(), hash).toBe(0);
      const actions = page.locator('main button').filter({
        hasText:
          /set|requeue|abandon|cancel|fail|revoke|rotate|create|move|correct|dry run|hold|release/i,
      });
      expect(await actions.allTextContents(), hash).toEqual([]);
    }
    expect(await page.getByRole('link', { name: 'Operators' }).count()).toBe(0);
  });

  test('rotates a token: the new secret is shown once and works, the old one stops', async () => {
    const { page } = await open();
    await page.getByRole('navigation').getByRole('link', { name: 'Tokens' }).click();
    await page.getByRole('button', { name: 'Rotate partner' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate token partner?' });
    await dialog.getByLabel(/Overlap/).fill('0');
    await dialog.getByRole('button', { name: 'Rotate token' }).click();
    const secret = (await page.locator('.token-secret').textContent()) ?? '';
    expect(secret).not.toBe(PARTNER_TOKEN);
    expect((await running.server.v1('GET', 'warehouses', secret)).status).toBe(200);
    expect((await running.server.v1('GET', 'warehouses', PARTNER_TOKEN)).status).toBe(401);
  });

  test('adds an operator, whose secret is shown once and logs in, then revokes it', async () => {
    const { page } = await open();
    await page.getByRole('navigation').getByRole('link', { name: 'Operators' }).click();
    await page.getByLabel('Name').fill('olivia');
    await page.getByLabel('Role').selectOption('operator');
    await page.getByRole('button', { name: 'Add' }).click();
    const secret = (await page.locator('.token-secret').textContent()) ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const login = await fetch(`${running.server.url}/admin/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name: 'olivia', secret }),
    });
    expect(login.status).toBe(200);
    await page.getByRole('button', { name: 'Revoke olivia' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke operator olivia?' })
      .getByRole('button', { name: 'Revoke operator' })
      .click();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'olivia' }).textContent())
      .toContain('Revoked');
    const again = await fetch(`${running.server.url}/admin/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name: 'olivia', secret }),
    });
    expect(again.status).toBe(401);
  });
});
