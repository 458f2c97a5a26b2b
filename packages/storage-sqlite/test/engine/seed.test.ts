import { createEngine, type SeedReport } from '@fulfil/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/index.js';
import {
  domainError,
  fieldNames,
  type Harness,
  openEmptyEngine,
  openHarness,
  salesOrder,
} from './harness.js';

const SECRET_A = 'seed-partner-a-secret-0123456789abcdef';
const SECRET_ERP = 'seed-erp-secret-0123456789abcdefghijklm';

/** A seed document as docs/seed-file.md shapes it: one store, a partner and a courier warehouse. */
function seedDocument() {
  return {
    stores: [
      {
        code: 'default',
        settings: {
          partial_items: false,
          partial_qty: false,
          reroute: true,
          courier: { type: 'simulated', fail_skus: [], max_attempts: 3 },
        },
        warehouses: [
          { code: 'WH-A', name: 'Partner A', active: true, fulfilled_by: 'partner', priority: 10 },
          { code: 'WH-C', name: 'Courier', active: true, fulfilled_by: 'courier', priority: 1 },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
          { warehouse_code: 'WH-C', sku: 'SKU-2', qty: 4 },
        ],
        tokens: [
          { name: 'partner-a', token: SECRET_A, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'erp', token: SECRET_ERP, acl: 'erp' },
        ],
        orders: [
          salesOrder('1001', [{ sku: 'SKU-1', qty: 2 }], { warehouse_code: 'WH-A' }),
          salesOrder('1002', [{ sku: 'SKU-2', qty: 3 }], { warehouse_code: 'WH-C' }),
        ],
      },
    ],
  };
}

type Seed = ReturnType<typeof seedDocument>;

/**
 * The snapshot without SQLite's AUTOINCREMENT counters. Storage upserts the store with
 * `INSERT … ON CONFLICT DO UPDATE`, which in SQLite advances `sqlite_sequence` for `stores` even
 * when the row is only updated: an internal counter, no stored fact, so a reload is compared
 * on every other table.
 */
function withoutSequences(snapshot: Record<string, unknown[]>) {
  const { sqlite_sequence: _counters, ...tables } = snapshot;
  return tables;
}

describe('docs/seed-file.md: the seed file', () => {
  let engine: Awaited<ReturnType<typeof openEmptyEngine>>;
  afterEach(() => engine.engine.close());

  it('docs/seed-file.md: loadSeed sets the store up and returns a report', async () => {
    engine = await openEmptyEngine();
    const report = await engine.engine.loadSeed(seedDocument());
    expect(report).toEqual<SeedReport>({
      stores: { created: ['default'], kept: [] },
      warehouses: { created: ['WH-A', 'WH-C'], kept: [] },
      stock: { created: 2, kept: 0, reset: 0 },
      tokens: { created: ['partner-a', 'erp'], kept: [] },
      orders: { created: ['1001-1', '1002-1'], kept: [] },
    });

    const { engine: e } = engine;
    expect((await e.getStore('default')).settings).toMatchObject({
      reroute: true,
      partial_items: false,
    });
    const partner = await e.authenticate('default', SECRET_A);
    expect(partner).toMatchObject({ name: 'partner-a', warehouses: ['WH-A'] });
    expect(
      (await e.poll(partner, 'pending_accept')).map((o) => o.fulfillment_order_number),
    ).toEqual(['1001-1']);
    // The order pinned to the courier warehouse skipped pending_accept; both hold their stock,
    // reserved when they were routed.
    expect((await e.getOrder('default', '1002-1')).status).toBe('pending_allocation');
    const stock = await e.listStock('default');
    expect(
      stock.map(({ warehouse_code, sku, on_hand, reserved }) => ({
        warehouse_code,
        sku,
        on_hand,
        reserved,
      })),
    ).toEqual([
      { warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 10, reserved: 2 },
      { warehouse_code: 'WH-C', sku: 'SKU-2', on_hand: 4, reserved: 3 },
    ]);
    expect(
      (await e.getOrderHistory('default', '1001-1')).audit.map((a) => [a.actor, a.action]),
    ).toEqual([['seed', 'intake']]);
  });

  it('docs/seed-file.md: loading the same seed twice changes nothing the second time', async () => {
    engine = await openEmptyEngine();
    await engine.engine.loadSeed(seedDocument());
    const before = await engine.snapshot();
    engine.clock.advance(3_600_000);
    const again = await engine.engine.loadSeed(seedDocument());
    expect(again.tokens).toEqual({ created: [], kept: ['partner-a', 'erp'] });
    expect(again.orders).toEqual({ created: [], kept: ['1001', '1002'] });
    expect(withoutSequences(await engine.snapshot())).toEqual(withoutSequences(before));
  });

  it('docs/seed-file.md: a seed adds what is new and keeps what exists', async () => {
    engine = await openEmptyEngine();
    await engine.engine.loadSeed(seedDocument());
    const more = seedDocument();
    more.stores[0]?.tokens.push({ name: 'ops', token: `${SECRET_ERP}-ops`, acl: 'all' });
    more.stores[0]?.orders.push(
      salesOrder('1003', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-A' }),
    );
    const report = await engine.engine.loadSeed(more);
    expect(report.tokens).toEqual({ created: ['ops'], kept: ['partner-a', 'erp'] });
    expect(report.orders).toEqual({ created: ['1003-1'], kept: ['1001', '1002'] });
    // Stock reserved by the courier order is not reserved twice.
    const [courierStock] = await engine.engine.listStock('default', { sku: 'SKU-2' });
    expect(courierStock).toMatchObject({ on_hand: 4, reserved: 3 });
  });

  const badSeeds: [string, (seed: Seed) => unknown, string][] = [
    [
      'a warehouse priority that is not an integer',
      (seed) => {
        (seed.stores[0]?.warehouses[1] as Record<string, unknown>).priority = 'high';
        return seed;
      },
      'stores[0].warehouses[1].priority',
    ],
    [
      'an order line with qty 0',
      (seed) => {
        (seed.stores[0]?.orders[0]?.items[0] as Record<string, unknown>).qty = 0;
        return seed;
      },
      'stores[0].orders[0].items[0].qty',
    ],
    [
      'stock of an undefined warehouse',
      (seed) => {
        (seed.stores[0]?.stock[0] as Record<string, unknown>).warehouse_code = 'WH-NOPE';
        return seed;
      },
      'stores[0].stock[0].warehouse_code',
    ],
    [
      'a negative stock qty',
      (seed) => {
        (seed.stores[0]?.stock[1] as Record<string, unknown>).qty = -1;
        return seed;
      },
      'stores[0].stock[1].qty',
    ],
    [
      'a token secret shorter than 32 characters',
      (seed) => {
        (seed.stores[0]?.tokens[0] as Record<string, unknown>).token = 'short-secret';
        return seed;
      },
      'stores[0].tokens[0].token',
    ],
    [
      'a token scoped to an undefined warehouse',
      (seed) => {
        (seed.stores[0]?.tokens[0] as Record<string, unknown>).warehouses = ['WH-A', 'WH-NOPE'];
        return seed;
      },
      'stores[0].tokens[0].warehouses[1]',
    ],
    [
      'an unknown ACL preset',
      (seed) => {
        (seed.stores[0]?.tokens[1] as Record<string, unknown>).acl = 'admin';
        return seed;
      },
      'stores[0].tokens[1].acl',
    ],
    [
      'an order pinned to an undefined warehouse',
      (seed) => {
        (seed.stores[0]?.orders[1] as Record<string, unknown>).warehouse_code = 'WH-NOPE';
        return seed;
      },
      'stores[0].orders[1].warehouse_code',
    ],
    [
      'an order pinned to an inactive warehouse',
      (seed) => {
        (seed.stores[0]?.warehouses[1] as Record<string, unknown>).active = false;
        return seed;
      },
      'stores[0].orders[1].warehouse_code',
    ],
    [
      'a bad store code in the second store, after a valid first one',
      (seed) => ({ stores: [...seed.stores, { code: 'bad code!' }] }),
      'stores[1].code',
    ],
    [
      'an undefined warehouse in the second store, after a valid first one',
      (seed) => ({
        stores: [
          ...seed.stores,
          { code: 'eu', stock: [{ warehouse_code: 'EU-NOPE', sku: 'SKU-1', qty: 1 }] },
        ],
      }),
      'stores[1].stock[0].warehouse_code',
    ],
    ['no store at all', () => ({ stores: [] }), 'stores'],
  ];

  for (const [what, mutate, path] of badSeeds) {
    it(`docs/seed-file.md: a seed with ${what} → invalid_seed at ${path}, nothing written`, async () => {
      engine = await openEmptyEngine();
      const before = await engine.snapshot();
      const error = await domainError(engine.engine.loadSeed(mutate(seedDocument())));
      expect(error.code).toBe('invalid_seed');
      expect(fieldNames(error)).toContain(path);
      expect(await engine.snapshot()).toEqual(before);
    });
  }

  it('docs/seed-file.md: a bad seed over an existing database changes nothing of it', async () => {
    engine = await openEmptyEngine();
    await engine.engine.loadSeed(seedDocument());
    const before = await engine.snapshot();
    const seed = seedDocument();
    if (seed.stores[0]) {
      seed.stores[0].stock = [
        { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 99 },
        { warehouse_code: 'WH-NOPE', sku: 'SKU-1', qty: 1 },
      ];
      seed.stores[0].settings.reroute = false;
    }
    const error = await domainError(engine.engine.loadSeed(seed));
    expect(error.code).toBe('invalid_seed');
    expect(fieldNames(error)).toEqual(['stores[0].stock[1].warehouse_code']);
    expect(await engine.snapshot()).toEqual(before);
  });

  function seedWithTwoErpTokens() {
    const seed = seedDocument();
    seed.stores[0]?.tokens.push({ name: 'erp', token: `${SECRET_ERP}-second`, acl: 'erp' });
    return seed;
  }

  it('docs/seed-file.md: a seed with two tokens of one name fails and writes nothing', async () => {
    engine = await openEmptyEngine();
    const before = await engine.snapshot();
    await domainError(engine.engine.loadSeed(seedWithTwoErpTokens()));
    expect(await engine.snapshot()).toEqual(before);
  });

  it('docs/seed-file.md: two tokens of one name in a seed → invalid_seed naming the second one', async () => {
    engine = await openEmptyEngine();
    const error = await domainError(engine.engine.loadSeed(seedWithTwoErpTokens()));
    expect(error.code).toBe('invalid_seed');
    expect(fieldNames(error)).toContain('stores[0].tokens[2].name');
  });
});

describe('intake splitting (docs/behaviour.md routing, §9 orders without warehouse_code)', () => {
  let h: Harness;
  afterEach(() => h.engine.close());

  it('a sales order whose lines only different warehouses can fill → fulfillment orders -1 and -2, shipping on the first only', async () => {
    h = await openHarness();
    // SKU-1 is only at WH-A, SKU-3 only at WH-B.
    const created = await h.engine.intake(
      'default',
      salesOrder('300', [
        { sku: 'SKU-1', qty: 2, price: 10 },
        { sku: 'SKU-3', qty: 1, price: 7.5 },
      ]),
    );
    expect(created.map((order) => [order.fulfillment_order_number, order.warehouse_code])).toEqual([
      ['300-1', 'WH-A'],
      ['300-2', 'WH-B'],
    ]);
    expect(created.map((order) => order.items.map((item) => item.sku))).toEqual([
      ['SKU-1'],
      ['SKU-3'],
    ]);

    const [first, second] = await Promise.all(
      ['300-1', '300-2'].map(
        async (number) => (await h.engine.getOrderHistory('default', number)).order,
      ),
    );
    expect(first).toMatchObject({
      sales_order_number: '300',
      shipping_amount: 5,
      shipping_amount_excl_tax: 4.1,
      shipping_tax_amount: 0.9,
      grand_total: 25,
      package_value: 20,
    });
    expect(second).toMatchObject({
      sales_order_number: '300',
      shipping_amount: 0,
      shipping_amount_excl_tax: 0,
      shipping_tax_amount: 0,
      grand_total: 7.5,
      package_value: 7.5,
    });
    expect((await h.queue(h.partnerA, 'pending_accept')).map((o) => o.number)).toEqual(['300-1']);
    expect((await h.queue(h.partnerB, 'pending_accept')).map((o) => o.number)).toEqual(['300-2']);

    // Invoicing the second one expects no shipping: the first one carries it.
    for (const [number, partner] of [
      ['300-1', h.partnerA],
      ['300-2', h.partnerB],
    ] as const) {
      const order = await h.engine.getOrder('default', number);
      const items = order.items.map((item) => ({ item_id: item.id }));
      await h.engine.accept(partner, {
        order: {
          order_id: number,
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
        },
      });
      await h.engine.allocate(h.erp, { allocation: { order_id: number, items } });
      await h.engine.ship(partner, { shipment: { order_id: number, items } });
    }
    const secondItems = second?.items.map((item) => ({ item_id: item.id }));
    const mismatch = await domainError(
      h.engine.invoice(h.erp, {
        invoice: {
          order_id: '300-2',
          items: secondItems,
          invoice_number: 'I-2',
          shipping_amount_incl_tax: 5,
        },
      }),
    );
    expect(mismatch.code).toBe('invoice_mismatch');
    await h.engine.invoice(h.erp, {
      invoice: {
        order_id: '300-2',
        items: secondItems,
        invoice_number: 'I-2',
        shipping_amount_incl_tax: 0,
      },
    });
  });

  it('a sales order one warehouse can fill whole → one fulfillment order with the sales order amounts', async () => {
    h = await openHarness();
    const created = await h.engine.intake(
      'default',
      salesOrder('301', [
        { sku: 'SKU-1', qty: 1 },
        { sku: 'SKU-2', qty: 1 },
      ]),
    );
    expect(created.map((order) => [order.fulfillment_order_number, order.warehouse_code])).toEqual([
      ['301-1', 'WH-A'],
    ]);
    expect((await h.engine.getOrderHistory('default', '301-1')).order).toMatchObject({
      shipping_amount: 5,
      grand_total: 25,
    });

    // The same sales order again → already_exists, nothing written.
    const before = await h.snapshot();
    const error = await domainError(
      h.engine.intake('default', salesOrder('301', [{ sku: 'SKU-1', qty: 1 }])),
    );
    expect(error.code).toBe('already_exists');
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('store settings', () => {
  it('a patch of the courier settings keeps the rest of them', async () => {
    const engine = createEngine({
      repository: await openSqliteRepository({ filename: ':memory:' }),
      carrierAccounts: { 'acme-express': { type: 'simulated' } },
    });
    await engine.upsertStore('acme', {
      courier: { account: 'acme-express', fail_skus: ['X'], max_attempts: 5 },
    });
    const patched = await engine.upsertStore('acme', { courier: { delay_ms: 20 } });
    expect(patched.settings.courier).toEqual({
      type: 'simulated',
      account: 'acme-express',
      fail_skus: ['X'],
      max_attempts: 5,
      delay_ms: 20,
    });
    await engine.close();
  });
});
