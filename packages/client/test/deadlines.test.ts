import { type FulfilInstance, fixtures, startFulfil } from '@fulfil/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type FulfillmentOrder } from '../src/index.js';

/**
 * A partner works the most urgent orders first (docs/deadlines.md): `queue(name, { sort:
 * 'fulfill_by', include: 'fulfill_by' })` pages by deadline across pages, each order once.
 */

/** 150 orders over a page boundary, their deadlines out of id order and often tied. */
function seed() {
  const orders = Array.from({ length: 150 }, (_, i) =>
    fixtures.salesOrder(String(5000 + i), [{ sku: 'SKU-1', qty: 1 }], {
      warehouse_code: 'WH-A',
      fulfill_by: `2030-01-${String(10 + ((i * 7) % 13)).padStart(2, '0')}T12:00:00Z`,
    }),
  );
  return fixtures.seed({ orders });
}

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const entry of iterable) list.push(entry);
  return list;
}

describe.each(['json', 'xml'] as const)('the most urgent orders first (%s)', (format) => {
  let fulfil: FulfilInstance;
  beforeAll(async () => {
    fulfil = await startFulfil({ seed: seed() });
  });
  afterAll(() => fulfil.close());

  it('pages by deadline, earliest first, each order once', async () => {
    const partner = createClient({
      baseUrl: fulfil.url,
      storeCode: fulfil.storeCode,
      token: fulfil.tokens.partner as string,
      format,
    });
    const orders: FulfillmentOrder[] = await all(
      partner.queue('pending_accept', { sort: 'fulfill_by', include: 'fulfill_by' }),
    );
    expect(orders).toHaveLength(150);
    expect(new Set(orders.map((order) => order.id)).size).toBe(150);
    const keys = orders.map((order) => `${order.fulfill_by} ${String(order.id).padStart(9, '0')}`);
    expect(keys).toEqual([...keys].sort());
    expect(orders[0]?.fulfill_by).toBe('2030-01-10 12:00:00');

    // Without the extensions, the contract's answer: no fulfill_by.
    const [plain] = await partner.pendingAccept();
    expect(plain && 'fulfill_by' in plain).toBe(false);
  });
});
