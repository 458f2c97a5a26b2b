import { MAX_ORDER_LINES, PAGE_SIZE, PAGE_TEXT_LIMIT } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';
import { manySkus, oneWarehouseStore, type Served, servedPerDescribe } from './support.js';

/**
 * `after` and `since` pages are bounded by size, not only by count (docs/limits.md): a page of
 * orders of the most lines stops before the one that would take it past `PAGE_TEXT_LIMIT`, and the
 * next page continues after it, so a follower gets every order once, in pages it can hold.
 */

const ORDERS = 8;

function largest(number: string) {
  return fixtures.salesOrder(
    number,
    // Names of 200 characters: some 300 KB of JSON an order, a few to a bounded page.
    Array.from({ length: MAX_ORDER_LINES }, (_, index) => ({
      sku: `L-${index % 50}`,
      qty: 1,
      name: `${'N'.repeat(190)} ${index}`,
    })),
    { warehouse_code: 'WH-A' },
  );
}

type Page = { status: number; text: string; body: { id: number }[]; cursor: string | null };

/** Every page of an `after` walk from 0 until an empty page. */
async function walkAfter(served: Served, path: string): Promise<Page[]> {
  const pages: Page[] = [];
  let after = 0;
  for (;;) {
    const page = await served.get(`${path}?after=${after}`);
    expect(page.status).toBe(200);
    if (page.body.length === 0) return pages;
    pages.push(page);
    after = (page.body.at(-1) as { id: number }).id;
  }
}

/** Every page of a `since` walk from `cursor` until an empty page. */
async function walkSince(served: Served, path: string, cursor: string): Promise<Page[]> {
  const pages: Page[] = [];
  let next = cursor;
  for (;;) {
    const page = await served.get(`${path}?since=${encodeURIComponent(next)}`);
    expect(page.status).toBe(200);
    if (page.body.length === 0) return pages;
    pages.push(page);
    next = page.cursor as string;
  }
}

/** Each page within the limit (or one document alone), and the walk holds every order once. */
function expectBounded(pages: Page[], key: (document: never) => string, expected: string[]) {
  for (const page of pages) {
    expect(page.body.length).toBeLessThan(PAGE_SIZE);
    expect(page.text.length).toBeGreaterThan(0);
    const sizes = page.body.map((document) => JSON.stringify(document).length);
    if (page.body.length > 1) {
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(PAGE_TEXT_LIMIT);
    }
  }
  expect(pages.length).toBeGreaterThan(1);
  expect(
    pages.flatMap((page) => page.body.map(key as (document: unknown) => string)).sort(),
  ).toEqual(expected);
}

for (const kind of databaseKinds()) {
  describe(`pages of the largest orders on ${kind.name}`, () => {
    const served = servedPerDescribe(kind, oneWarehouseStore(manySkus(50, 100_000)));
    const numbers = Array.from({ length: ORDERS }, (_, index) => String(8_000 + index));
    let feedCursor: string;
    let queueCursor: string;

    beforeAll(async () => {
      feedCursor = (await served.get('/V1/salesOrders?after=0')).cursor as string;
      queueCursor = (await served.get('/V1/fulfillmentOrders/pending_accept?after=0'))
        .cursor as string;
      for (const number of numbers) {
        const taken = await served.post('/V1/salesOrders', { sales_order: largest(number) });
        expect(taken.status).toBe(201);
      }
    }, 120_000);

    const salesOrder = (view: { sales_order_number: string }) => view.sales_order_number;
    const fulfillmentOrder = (order: { fulfillment_order_number: string }) =>
      order.fulfillment_order_number;
    const forms = numbers.map((number) => `${number}-1`);

    it('the sales order feed, by after and by since', async () => {
      expectBounded(await walkAfter(served, '/V1/salesOrders'), salesOrder as never, numbers);
      expectBounded(
        await walkSince(served, '/V1/salesOrders', feedCursor),
        salesOrder as never,
        numbers,
      );
    }, 60_000);

    it('a fulfillment queue, by after and by since', async () => {
      const queue = '/V1/fulfillmentOrders/pending_accept';
      expectBounded(await walkAfter(served, queue), fulfillmentOrder as never, forms);
      expectBounded(await walkSince(served, queue, queueCursor), fulfillmentOrder as never, forms);
    }, 60_000);
  });
}
