import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  BROWSER_TEST_MS,
  browserOrSkip,
  type ConsolePage,
  openAt,
  WIDTHS,
  withConsole,
} from './browser.js';
import {
  invoice,
  orderOf,
  shipByCourier,
  shipWithPdfLabel,
  UPS_TRACK,
  walkThrough,
} from './scenarios.js';

/**
 * The order page an operator reads: the status in words with what happens next, the actions
 * that apply to the order as it stands and no other, the timeline with every detail the admin
 * API has, tracks as links, labels to view and download, amounts in the store's currency, the
 * other orders of the sales order; nothing raw, nothing wider than a phone.
 */

describe('the order page', { timeout: BROWSER_TEST_MS, ...browserOrSkip }, () => {
  const running = withConsole();
  let tab: ConsolePage | undefined;
  let walked: string;
  /** Shipped by courier before any test: its ZPL label is there whichever test runs first. */
  let byCourier: string;

  beforeAll(async () => {
    walked = await walkThrough(running.server);
    byCourier = await shipByCourier(running.server);
  });

  afterEach(async () => {
    await tab?.assertClean();
    await tab?.page.context().close();
    tab = undefined;
  });

  /** Reads something off a page of its own, checked clean and closed after. */
  async function readOff<T>(hash: string, read: (page: ConsolePage['page']) => Promise<T>) {
    const own = await openAt(running, hash);
    const value = await read(own.page);
    await own.assertClean();
    await own.page.context().close();
    return value;
  }

  const INTERVENTIONS = /^(Requeue|Abandon|Cancel|Fail)( order)?$|^Hold$/;

  /** The intervention buttons the page offers, once the order has loaded. */
  async function interventions(number: string): Promise<string[]> {
    const shown = await readOff(`#/default/orders/${number}`, async (page) => {
      await page.locator('.timeline > li').first().waitFor();
      return page.getByRole('button', { name: INTERVENTIONS }).allTextContents();
    });
    return shown.map((text) => text.trim()).sort();
  }

  test('offers only the actions that apply to the order as it stands', async () => {
    const invoiced = byCourier;
    await invoice(running.server, invoiced, 'INV-530');
    expect((await orderOf(running.server, invoiced)).order.status).toBe('invoiced');
    expect(await interventions(invoiced)).toEqual([]);

    const abandoned = '550000001-1';
    await running.server.adminApi('POST', `stores/default/orders/${abandoned}/fail`, {
      reason: 'unreachable',
    });
    await running.server.adminApi('POST', `stores/default/orders/${abandoned}/abandon`, {});
    // Failed, if abandoned: no hold either, as the server would refuse it.
    expect(await interventions(abandoned)).toEqual(['Cancel order']);

    expect(await interventions('500000001-1')).toEqual(['Cancel order', 'Fail order', 'Hold']);
  });

  test('tells every step in words, newest first, with the details the admin API has', async () => {
    tab = await openAt(running, `#/default/orders/${walked}`);
    const { page } = tab;
    const entries = page.locator('.timeline > li');
    await entries.first().waitFor();
    // Newest first: the correction of the tracks, with them before and after.
    const newest = ((await entries.first().textContent()) ?? '').replace(/\s+/g, ' ');
    expect(newest).toMatch(/tracks corrected/i);
    expect(newest).toContain('0123456789');
    expect(newest).toContain('→');
    expect(newest).toContain(UPS_TRACK.track_number);
    expect(newest).toContain('wrong carrier on the label');
    const all = ((await page.locator('.timeline').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(all).toMatch(/partial shipments allowed/i);
    // The moved line: where to, and the new order as a link.
    const moved = entries.filter({ hasText: /moved/i });
    expect(await moved.textContent()).toContain('WH-B');
    await moved.getByRole('link', { name: '520000001-2' }).waitFor();
    // The request id is there, on demand.
    expect(
      await page
        .locator('.timeline')
        .getByText(/request/i)
        .count(),
    ).toBeGreaterThan(0);
    // The status in words, as a badge, and what happens next.
    expect(await page.locator('header .badge').first().textContent()).toBe('Partly shipped');
    expect(await page.getByText(/next/i).count()).toBeGreaterThan(0);
  });

  test('shows tracks as links and nothing raw, and fits a phone', async () => {
    tab = await openAt(running, `#/default/orders/${walked}`, { width: WIDTHS.phone });
    const { page } = tab;
    await page.locator('.timeline > li').first().waitFor();
    const track = page.getByRole('link', { name: UPS_TRACK.track_number }).first();
    expect(await track.getAttribute('href')).toContain(UPS_TRACK.track_number);
    expect(await track.getAttribute('href')).toMatch(/^https:\/\/www\.ups\.com\//);
    const text = (await page.locator('main').textContent()) ?? '';
    for (const raw of ['{"', 'carrier_code', 'pending_shipment', 'partially_shipped', 'rejected']) {
      expect(text, raw).not.toContain(raw);
    }
    const overflow = await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // The other fulfillment order of the sales order, as a link.
    await page
      .getByRole('complementary')
      .getByRole('link', { name: '520000001-2' })
      .first()
      .waitFor();
  });

  test('groups its items by stage, in the order they move through', async () => {
    const stages = await readOff(`#/default/orders/${walked}`, async (page) => {
      const items = page.getByRole('region', { name: 'Items', exact: true });
      await items.locator('.table-frame').first().waitFor();
      const groups = await items
        .locator('.table-frame')
        .evaluateAll((frames) => frames.map((frame) => frame.getAttribute('aria-label')));
      const skus: Record<string, string> = {};
      for (const group of groups) {
        skus[group ?? ''] =
          (await items.getByRole('region', { name: group ?? '' }).textContent()) ?? '';
      }
      return { groups, skus };
    });
    // SKU-2 still to ship, SKU-1 shipped: ready to ship comes first.
    expect(stages.groups.slice(0, 2)).toEqual([
      'Items: Ready to ship',
      'Items: Shipped, awaiting invoice',
    ]);
    expect(stages.skus['Items: Ready to ship']).toContain('SKU-2');
    expect(stages.skus['Items: Ready to ship']).not.toContain('SKU-1');
    expect(stages.skus['Items: Shipped, awaiting invoice']).toContain('SKU-1');
  });

  test('links the fulfillment orders of one sales order to each other, both ways', async () => {
    const sideLinks = (number: string) =>
      readOff(`#/default/orders/${number}`, async (page) => {
        const card = page.getByRole('region', { name: /^Sales order 520000001$/ });
        await card.getByRole('link').first().waitFor();
        return card.getByRole('link').allTextContents();
      });
    expect(await sideLinks(walked)).toEqual(['520000001-2']);
    expect(await sideLinks('520000001-2')).toEqual([walked]);
    // The moved line says where it went, as a link.
    const moved = await readOff(`#/default/orders/${walked}`, async (page) => {
      const link = page.getByRole('region', { name: 'Items', exact: true }).getByRole('link', {
        name: '520000001-2',
      });
      await link.waitFor();
      return (await link.locator('xpath=..').textContent()) ?? '';
    });
    expect(moved).toMatch(/Moved to WH-B as 520000001-2/);
  });

  test("shows amounts in the store's currency, and two decimals without one", async () => {
    const total = () =>
      readOff('#/default/orders/500000001-1', async (page) => {
        const amounts = page.getByRole('complementary').locator('.amounts');
        await amounts.waitFor();
        return (await amounts.textContent()) ?? '';
      });
    expect(await total()).toMatch(/Total\s*25\.00/);
    await running.server.adminApi('PUT', 'stores/default', { settings: { currency: 'EUR' } });
    try {
      expect(await total()).toMatch(/Total\s*€25\.00/);
    } finally {
      await running.server.adminApi('PUT', 'stores/default', { settings: { currency: null } });
    }
  });

  test('labels: a PDF opens in the browser, a ZPL downloads', async () => {
    const zplOrder = byCourier;
    const pdfOrder = await shipWithPdfLabel(running.server);
    tab = await openAt(running, `#/default/orders/${zplOrder}`);
    const { page } = tab;
    const zpl = page.getByRole('link', { name: /Download ZPL/ });
    await zpl.waitFor();
    const zplAnswer = await page.request.get(
      new URL((await zpl.getAttribute('href')) as string, page.url()).href,
    );
    expect(zplAnswer.status()).toBe(200);
    expect(zplAnswer.headers()['content-type']).toBe('application/octet-stream');
    expect(zplAnswer.headers()['content-disposition']).toMatch(/^attachment; filename=".+\.zpl"$/);
    expect((await zplAnswer.text()).startsWith('^XA')).toBe(true);

    await page.goto(`${running.server.url}/admin/#/default/orders/${pdfOrder}`);
    const pdf = page.getByRole('link', { name: /PDF/ });
    await pdf.waitFor();
    expect(await pdf.getAttribute('target')).toBe('_blank');
    const pdfAnswer = await page.request.get(
      new URL((await pdf.getAttribute('href')) as string, page.url()).href,
    );
    expect(pdfAnswer.status()).toBe(200);
    expect(pdfAnswer.headers()['content-type']).toBe('application/pdf');
    expect(pdfAnswer.headers()['content-disposition']).toMatch(/^inline; filename=".+\.pdf"$/);
    expect((await pdfAnswer.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
