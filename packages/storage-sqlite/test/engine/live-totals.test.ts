import { readFile } from 'node:fs/promises';
import type { OrderResource } from '@fulfil/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, openEmptyEngine, openHarness, salesOrder } from './harness.js';

const DEMO_SEED = new URL('../../../../examples/demo-seed.json', import.meta.url);
const TOTALS = ['package_value', 'grand_total', 'grand_total_excl_tax', 'tax_amount'] as const;

const totalsOf = (order: OrderResource | undefined) =>
  Object.fromEntries(TOTALS.map((field) => [field, order?.[field]]));

/**
 * Issue 16, item 1 (docs/behaviour.md, "Amounts when an order is split"): the demo's 100005001
 * accepted with item 2 at qty 0. Its totals follow the line it keeps, in the action's answer,
 * the queues (the stored documents) and the audit, so the two orders of the sales order add up
 * to the sales order, not to more.
 */
describe('issue 16: totals follow the live lines, on SQLite', () => {
  let engine: Harness['engine'];
  let seed: { stores: [{ tokens: [{ name: string; token: string }] }] };
  beforeEach(async () => {
    ({ engine } = await openEmptyEngine());
    seed = JSON.parse(await readFile(DEMO_SEED, 'utf8'));
    expect(seed.stores[0].tokens[0].name).toBe('partner-milan');
    await engine.loadSeed(seed);
  });
  afterEach(() => engine.close());

  it('accept 100005001-1 with item 2 at qty 0: -1 answers 29.90 + 6.90, the reroute 24.00, together 60.80', async () => {
    const operator = engine.operator('default');
    const [one, two] = (await engine.getOrder('default', '100005001-1')).items;
    const partner = await engine.authenticate('default', seed.stores[0].tokens[0].token);
    const accepted = await engine.accept(partner, {
      order: {
        order_id: '100005001-1',
        items: [
          { item_id: one?.id, qty: 1 },
          { item_id: two?.id, qty: 0 },
        ],
      },
    });
    const kept = {
      package_value: 29.9,
      grand_total: 36.8,
      grand_total_excl_tax: 30.17,
      tax_amount: 6.63,
    };
    expect(totalsOf(accepted)).toEqual(kept);
    // The lines' own amounts never change.
    expect(accepted.items.map((item) => item.total_price)).toEqual([29.9, 24]);
    expect(accepted).toMatchObject({ shipping_amount: 6.9, cod_amount: 0 });

    const rerouted = await engine.getOrder('default', '100005001-2');
    expect(totalsOf(rerouted)).toEqual({
      package_value: 24,
      grand_total: 24,
      grand_total_excl_tax: 19.67,
      tax_amount: 4.33,
    });
    expect(rerouted.shipping_amount).toBe(0);
    expect(((accepted.grand_total ?? 0) * 100 + (rerouted.grand_total ?? 0) * 100) / 100).toBe(
      60.8,
    );

    // The queue answers the same totals: the stored document was rebuilt with the order.
    const [listed] = (await engine.poll(operator, 'pending_allocation')).filter(
      (order) => order.fulfillment_order_number === '100005001-1',
    );
    expect(totalsOf(listed)).toEqual(kept);
    const documents = await engine.pollDocuments(operator, 'pending_allocation');
    const stored = documents
      .map((document) => JSON.parse(document) as OrderResource)
      .find((order) => order.fulfillment_order_number === '100005001-1');
    expect(totalsOf(stored)).toEqual(kept);

    // The audit records what the totals were and became.
    const { audit } = await engine.getOrderHistory('default', '100005001-1');
    expect(audit.find((event) => event.action === 'accept')?.details).toMatchObject({
      totals: {
        before: {
          package_value: 53.9,
          grand_total: 60.8,
          grand_total_excl_tax: 49.84,
          tax_amount: 10.96,
        },
        after: kept,
      },
      rerouted_to: ['100005001-2'],
    });
  });
});

describe('docs/behaviour.md: reject, cancel and cash on delivery', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness({ partial_items: true });
  });
  afterEach(() => h.engine.close());

  it('reject and cancel drop the lines from the totals; a full cod follows them and the rerouted goods', async () => {
    // 2 x SKU-1 (20.00) + 1 x SKU-3 (10.00) + shipping 5: 35.00, paid on delivery in full.
    const [created] = await h.engine.intake(
      'default',
      salesOrder(
        '800',
        [
          { sku: 'SKU-1', qty: 2 },
          { sku: 'SKU-3', qty: 1 },
        ],
        { warehouse_code: 'WH-A', cod_amount: 35 },
      ),
    );
    const [one, three] = created?.items.map((item) => item.id) ?? [];
    const rejected = await h.engine.reject(h.partnerA, {
      order: { order_id: '800-1', items: [{ item_id: three, qty: 1 }] },
    });
    expect(rejected).toMatchObject({ package_value: 20, grand_total: 25, cod_amount: 25 });
    // SKU-3 went on to WH-B: that parcel collects what its goods cost.
    const rerouted = await h.engine.getOrder('default', '800-2');
    expect(rerouted).toMatchObject({ package_value: 10, grand_total: 10, cod_amount: 10 });

    const canceled = await h.engine.cancelOrder('default', '800-1');
    expect(canceled).toMatchObject({ package_value: 0, grand_total: 5, cod_amount: 5 });
    expect(canceled.items.find((item) => item.id === one)?.total_price).toBe(20);
    const { audit } = await h.engine.getOrderHistory('default', '800-1');
    expect(audit.find((event) => event.action === 'cancel')?.details).toMatchObject({
      totals: { before: { grand_total: 25 }, after: { grand_total: 5 } },
    });
  });
});
