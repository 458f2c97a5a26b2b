import type { OrderResource } from '@fulfil/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { domainError, fieldNames, type Harness, openHarness, salesOrder } from './harness.js';

/**
 * docs/behaviour.md: rerouting of rejected lines, partial quantities, idempotent retries, and the
 * polling parameters (`date`, `page`) of docs/api.md. The harness store: WH-A (priority 10;
 * SKU-1 10, SKU-2 10, SKU-3 0), WH-B (5; SKU-3 5), WH-C (1, courier, no stock).
 */
describe('docs/behaviour.md: reroutes, partial quantities and retries', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness();
  });
  afterEach(() => h.engine.close());

  const operator = () => h.engine.operator('default');

  async function intake(
    number: string,
    items: { sku: string; qty: number; price?: number }[],
    extra: Record<string, unknown> = { warehouse_code: 'WH-A' },
  ) {
    const [order] = await h.engine.intake('default', salesOrder(number, items, extra));
    if (!order) throw new Error('intake created no order');
    return { number: order.fulfillment_order_number, ids: order.items.map((item) => item.id) };
  }

  async function sync(entries: [string, string, number][]) {
    await h.engine.syncStock(operator(), {
      stock_items: entries.map(([warehouse_code, sku, qty]) => ({ warehouse_code, sku, qty })),
    });
  }

  /** Numbers of the sales order's fulfillment orders that exist, with their warehouses. */
  async function ordersOf(salesOrderNumber: string) {
    const found: { number: string; warehouse: string; status: string }[] = [];
    for (let n = 1; n <= 6; n++) {
      const number = `${salesOrderNumber}-${n}`;
      const order = await h.engine.getOrder('default', number).catch(() => null);
      if (order) found.push({ number, warehouse: order.warehouse_code, status: order.status });
    }
    return found;
  }

  const rejectAll = (actor: Harness['partnerA'], number: string, ids: number[]) =>
    h.engine.reject(actor, {
      order: { order_id: number, items: ids.map((item_id) => ({ item_id })) },
    });

  it('docs/behaviour.md: reroute goes to the highest-priority other active warehouse with enough available stock', async () => {
    await h.engine.upsertWarehouse('default', {
      code: 'WH-E',
      name: 'Closed, well stocked',
      priority: 20,
      active: false,
    });
    await h.engine.upsertWarehouse('default', { code: 'WH-D', name: 'Short', priority: 8 });
    await h.engine.upsertWarehouse('default', { code: 'WH-F', name: 'Enough', priority: 6 });
    await sync([
      ['WH-E', 'SKU-3', 50],
      ['WH-D', 'SKU-3', 1],
      ['WH-F', 'SKU-3', 3],
    ]);

    const first = await intake('600', [{ sku: 'SKU-3', qty: 2 }]);
    await rejectAll(h.partnerA, first.number, first.ids);
    // Not WH-E (inactive), not WH-D (1 < 2), but WH-F (priority 6) before WH-B (priority 5).
    expect(await ordersOf('600')).toEqual([
      { number: '600-1', warehouse: 'WH-A', status: 'rejected' },
      { number: '600-2', warehouse: 'WH-F', status: 'pending_accept' },
    ]);

    // WH-F accepts: it now has only 1 available, so the next rejected SKU-3 × 2 goes to WH-B.
    const atF = await h.engine.getOrder('default', '600-2');
    await h.engine.accept(operator(), {
      order: { order_id: '600-2', items: [{ item_id: atF.items[0]?.id, qty: 2 }] },
    });
    expect(await h.level('WH-F', 'SKU-3')).toMatchObject({ on_hand: 3, reserved: 2, available: 1 });
    const second = await intake('601', [{ sku: 'SKU-3', qty: 2 }]);
    await rejectAll(h.partnerA, second.number, second.ids);
    expect(await ordersOf('601')).toEqual([
      { number: '601-1', warehouse: 'WH-A', status: 'rejected' },
      { number: '601-2', warehouse: 'WH-B', status: 'pending_accept' },
    ]);
  });

  it('docs/behaviour.md: reroute never goes back to a warehouse that rejected the line (WH-A → WH-B → stays rejected)', async () => {
    const order = await intake('602', [{ sku: 'SKU-3', qty: 1 }]);
    await rejectAll(h.partnerA, order.number, order.ids);
    const [moved] = await h.queue(h.partnerB, 'pending_accept');
    expect(moved).toMatchObject({ number: '602-2', items: [{ sku: 'SKU-3' }] });

    // WH-A has the stock now, but it turned the line down already; WH-C has none.
    await sync([['WH-A', 'SKU-3', 5]]);
    const rejected = await rejectAll(h.partnerB, '602-2', [moved?.items[0]?.id as number]);
    expect(rejected.status).toBe('rejected');
    expect(rejected.items.map((item) => item.status)).toEqual(['rejected']);
    expect(await ordersOf('602')).toEqual([
      { number: '602-1', warehouse: 'WH-A', status: 'rejected' },
      { number: '602-2', warehouse: 'WH-B', status: 'rejected' },
    ]);
    expect(await h.queue(h.partnerA, 'pending_accept')).toEqual([]);
    expect(await h.queue(h.erp, 'pending_allocation')).toEqual([]);
  });

  it('docs/behaviour.md: a line rejected by two warehouses goes on to a third, numbered <sales_order_number>-3', async () => {
    await sync([
      ['WH-A', 'SKU-3', 5],
      ['WH-C', 'SKU-3', 5],
    ]);
    // WH-A has stock too, so pin the order there explicitly; its reject sends the line to WH-B.
    const order = await intake('603', [{ sku: 'SKU-3', qty: 2 }]);
    await rejectAll(h.partnerA, order.number, order.ids);
    const atB = await h.engine.getOrder('default', '603-2');
    expect(atB.warehouse_code).toBe('WH-B');
    await rejectAll(h.partnerB, '603-2', [atB.items[0]?.id as number]);

    // WH-A (priority 10, stocked) rejected it before: the courier hub WH-C takes it.
    expect(await ordersOf('603')).toEqual([
      { number: '603-1', warehouse: 'WH-A', status: 'rejected' },
      { number: '603-2', warehouse: 'WH-B', status: 'rejected' },
      { number: '603-3', warehouse: 'WH-C', status: 'pending_allocation' },
    ]);
    const history = await h.engine.getOrderHistory('default', '603-2');
    expect(history.audit.at(-1)).toMatchObject({
      actor: 'partner-b',
      action: 'reject',
      details: { rerouted_to: ['603-3'] },
    });
    expect(await h.level('WH-C', 'SKU-3')).toMatchObject({ reserved: 2 });
  });

  it('docs/behaviour.md: with store reroute false a rejected item stays rejected and no new order appears', async () => {
    await h.engine.upsertStore('default', { reroute: false });
    const order = await intake('604', [
      { sku: 'SKU-1', qty: 1 },
      { sku: 'SKU-3', qty: 1 },
    ]);
    const response = await h.engine.accept(h.partnerA, {
      order: {
        order_id: order.number,
        items: [
          { item_id: order.ids[0], qty: 1 },
          { item_id: order.ids[1], qty: 0 },
        ],
      },
    });
    expect(response.items.map((item) => item.status)).toEqual(['pending_allocation', 'rejected']);
    expect(response.status).toBe('pending_allocation');
    expect(await ordersOf('604')).toEqual([
      { number: '604-1', warehouse: 'WH-A', status: 'pending_allocation' },
    ]);
    expect(await h.queue(h.partnerB, 'pending_accept')).toEqual([]);
    const history = await h.engine.getOrderHistory('default', '604-1');
    expect(history.audit.at(-1)?.details).not.toHaveProperty('rerouted_to');
  });

  for (const [rule, store, extra] of [
    ['store partial_qty true', { partial_qty: true }, {}],
    ['order allow_partial true', { partial_qty: false }, { allow_partial: true }],
  ] as const) {
    it(`docs/behaviour.md: partial qty (${rule}): accept 1 of 3 keeps 1, splits off a rejected line of 2 and reroutes it`, async () => {
      await h.engine.upsertStore('default', store);
      const order = await intake('605', [{ sku: 'SKU-3', qty: 3 }], {
        warehouse_code: 'WH-A',
        ...extra,
      });
      const response = await h.engine.accept(h.partnerA, {
        order: { order_id: order.number, items: [{ item_id: order.ids[0], qty: 1 }] },
      });
      expect(response.status).toBe('pending_allocation');
      expect(response.items.map(({ id, sku, qty, status }) => ({ id, sku, qty, status }))).toEqual([
        { id: order.ids[0], sku: 'SKU-3', qty: 1, status: 'pending_allocation' },
        { id: expect.any(Number), sku: 'SKU-3', qty: 2, status: 'rejected' },
      ]);
      expect(response.items[1]?.id).not.toBe(order.ids[0]);
      expect(await h.level('WH-A', 'SKU-3')).toMatchObject({ reserved: 1 });

      const rerouted = await h.queue(h.partnerB, 'pending_accept');
      expect(rerouted).toEqual([
        {
          number: '605-2',
          status: 'pending_accept',
          items: [{ id: expect.any(Number), status: 'pending_accept', sku: 'SKU-3' }],
        },
      ]);
      expect((await h.engine.getOrder('default', '605-2')).items[0]?.qty).toBe(2);
      expect(await h.queue(h.erp, 'pending_allocation')).toMatchObject([
        { number: '605-1', items: [{ id: order.ids[0], status: 'pending_allocation' }] },
      ]);
    });
  }

  it('docs/behaviour.md: order allow_partial false overrides the store partial_qty → qty_mismatch, nothing changed', async () => {
    await h.engine.upsertStore('default', { partial_qty: true });
    const order = await intake('606', [{ sku: 'SKU-3', qty: 3 }], {
      warehouse_code: 'WH-A',
      allow_partial: false,
    });
    const before = await h.snapshot();
    const error = await domainError(
      h.engine.accept(h.partnerA, {
        order: { order_id: order.number, items: [{ item_id: order.ids[0], qty: 1 }] },
      }),
    );
    expect(error.code).toBe('qty_mismatch');
    expect(fieldNames(error)).toContain('order.items[0].qty');
    expect(await h.snapshot()).toEqual(before);
  });

  it("docs/behaviour.md: the rerouted order's amounts: shipping 0, totals from its own items", async () => {
    await h.engine.upsertStore('default', { partial_qty: true });
    const sale = salesOrder('607', [{ sku: 'SKU-3', qty: 3, price: 10.01 }], {
      warehouse_code: 'WH-A',
    });
    sale.items = sale.items.map((item) => ({
      ...item,
      price_excl_tax: 8.2,
      tax_amount: 1.81,
      tax_rate: 22,
      total_price: 30.03,
      total_price_excl_tax: 24.6,
      total_tax_amount: 5.43,
    }));
    const [created] = await h.engine.intake('default', sale);
    const itemId = created?.items[0]?.id;
    const accepted = await h.engine.accept(h.partnerA, {
      order: { order_id: '607-1', items: [{ item_id: itemId, qty: 1 }] },
    });
    // The split keeps unit prices; line totals follow the qty and add up to the original's.
    const [kept, rest] = accepted.items;
    expect(kept).toMatchObject({
      qty: 1,
      price: 10.01,
      total_price: 10.01,
      total_price_excl_tax: 8.2,
    });
    expect(rest).toMatchObject({
      qty: 2,
      price: 10.01,
      total_price: 20.02,
      total_price_excl_tax: 16.4,
    });
    expect((kept?.total_tax_amount ?? 0) + (rest?.total_tax_amount ?? 0)).toBeCloseTo(5.43, 4);
    // The first order keeps the sales order's shipping; its totals follow the line it kept.
    expect(accepted).toMatchObject({
      shipping_amount: 5,
      shipping_tax_amount: 0.9,
      package_value: 10.01,
      grand_total: 15.01,
      grand_total_excl_tax: 12.3,
    });

    const rerouted: OrderResource = (await h.engine.getOrderHistory('default', '607-2')).order;
    const [line] = rerouted.items;
    expect(line).toMatchObject({ sku: 'SKU-3', qty: 2, price: 10.01, total_price: 20.02 });
    expect(rerouted).toMatchObject({
      warehouse_code: 'WH-B',
      sales_order_number: '607',
      shipping_amount: 0,
      shipping_amount_excl_tax: 0,
      shipping_tax_amount: 0,
      grand_total: line?.total_price,
      grand_total_excl_tax: line?.total_price_excl_tax,
      tax_amount: line?.total_tax_amount,
      package_value: line?.total_price,
    });
    expect(rerouted.grand_total).toBe(20.02);
    expect(rerouted.grand_total_excl_tax).toBe(16.4);
    expect(rerouted.tax_amount).toBe(3.62);
  });

  it('docs/behaviour.md: lines rerouted together count against the stock they take (WH-B has 5 of SKU-3: one line of 3 goes, the other stays rejected)', async () => {
    const order = await intake('609', [
      { sku: 'SKU-3', qty: 3 },
      { sku: 'SKU-3', qty: 3 },
    ]);
    await rejectAll(h.partnerA, order.number, order.ids);
    expect(await ordersOf('609')).toEqual([
      { number: '609-1', warehouse: 'WH-A', status: 'rejected' },
      { number: '609-2', warehouse: 'WH-B', status: 'pending_accept' },
    ]);
    expect((await h.engine.getOrder('default', '609-2')).items.map((item) => item.qty)).toEqual([
      3,
    ]);
  });

  it('docs/behaviour.md: the reject endpoint (engine.reject) rejects the listed lines and reroutes them', async () => {
    const order = await intake('608', [
      { sku: 'SKU-1', qty: 1 },
      { sku: 'SKU-3', qty: 2 },
    ]);
    const response = await h.engine.reject(h.partnerA, {
      order: { order_id: order.number, items: [{ item_id: order.ids[1] }] },
    });
    expect(response.items.map(({ id, status }) => ({ id, status }))).toEqual([
      { id: order.ids[0], status: 'pending_accept' },
      { id: order.ids[1], status: 'rejected' },
    ]);
    expect(response.status).toBe('pending_accept');
    expect(await h.queue(h.partnerB, 'pending_accept')).toEqual([
      {
        number: '608-2',
        status: 'pending_accept',
        items: [{ id: expect.any(Number), status: 'pending_accept', sku: 'SKU-3' }],
      },
    ]);
    const history = await h.engine.getOrderHistory('default', '608-1');
    expect(history.audit.at(-1)).toMatchObject({
      actor: 'partner-a',
      action: 'reject',
      details: { rerouted_to: ['608-2'] },
    });

    // Rejecting again is a retry: same order, nothing written, no second reroute.
    const before = await h.snapshot();
    h.clock.advance(60_000);
    const again = await h.engine.reject(h.partnerA, {
      order: { order_id: order.number, items: [{ item_id: order.ids[1] }] },
    });
    expect(again).toEqual(response);
    expect(await h.snapshot()).toEqual(before);

    // Accepting a rejected line contradicts what was applied.
    const error = await domainError(
      h.engine.accept(h.partnerA, {
        order: { order_id: order.number, items: [{ item_id: order.ids[1], qty: 2 }] },
      }),
    );
    expect(error.code).toBe('conflicts_with_applied');
    expect(await h.snapshot()).toEqual(before);
  });

  it('docs/behaviour.md: a repeated accept, allocate, ship or invoice returns the same response and changes nothing', async () => {
    await h.engine.upsertStore('default', { partial_qty: true });
    const order = await intake('609', [
      { sku: 'SKU-1', qty: 2 },
      { sku: 'SKU-3', qty: 3 },
    ]);
    const calls: [string, () => Promise<OrderResource>][] = [
      [
        'accept (with a split and a reroute)',
        () =>
          h.engine.accept(h.partnerA, {
            order: {
              order_id: order.number,
              items: [
                { item_id: order.ids[0], qty: 2 },
                { item_id: order.ids[1], qty: 1 },
              ],
            },
          }),
      ],
      [
        'allocate',
        () =>
          h.engine.allocate(h.erp, {
            allocation: {
              order_id: order.number,
              items: order.ids.map((item_id) => ({ item_id })),
            },
          }),
      ],
      [
        'ship',
        () =>
          h.engine.ship(h.partnerA, {
            shipment: {
              order_id: order.number,
              items: order.ids.map((item_id) => ({ item_id })),
              tracks: [{ carrier_code: 'brt', title: 'BRT', track_number: 'BRT-9' }],
            },
          }),
      ],
      [
        'invoice',
        () =>
          h.engine.invoice(h.erp, {
            invoice: {
              order_id: order.number,
              items: order.ids.map((item_id) => ({ item_id })),
              invoice_number: 'INV-609',
              shipping_amount_incl_tax: 5,
            },
          }),
      ],
    ];
    for (const [name, call] of calls) {
      h.clock.advance(60_000);
      const first = await call();
      const before = await h.snapshot();
      h.clock.advance(60_000);
      const again = await call();
      expect(again, name).toEqual(first);
      expect(await h.snapshot(), name).toEqual(before);
    }
    expect(await ordersOf('609')).toEqual([
      { number: '609-1', warehouse: 'WH-A', status: 'invoiced' },
      { number: '609-2', warehouse: 'WH-B', status: 'pending_accept' },
    ]);
    const history = await h.engine.getOrderHistory('default', '609-1');
    expect(history.audit.map((event) => event.action)).toEqual([
      'intake',
      'accept',
      'allocate',
      'ship',
      'invoice',
    ]);
    expect(history.shipments).toHaveLength(1);
    expect(history.invoices).toHaveLength(1);
  });

  it('docs/behaviour.md: invoicing invoiced items under another number → conflicts_with_applied, nothing changed', async () => {
    const order = await intake('610', [{ sku: 'SKU-1', qty: 1 }]);
    const ids = order.ids.map((item_id) => ({ item_id }));
    await h.engine.accept(h.partnerA, {
      order: { order_id: order.number, items: [{ item_id: order.ids[0], qty: 1 }] },
    });
    await h.engine.allocate(h.erp, { allocation: { order_id: order.number, items: ids } });
    await h.engine.ship(h.partnerA, { shipment: { order_id: order.number, items: ids } });
    await h.engine.invoice(h.erp, {
      invoice: { order_id: order.number, items: ids, invoice_number: 'INV-1' },
    });

    const before = await h.snapshot();
    const error = await domainError(
      h.engine.invoice(h.erp, {
        invoice: { order_id: order.number, items: ids, invoice_number: 'INV-2' },
      }),
    );
    expect(error.code).toBe('conflicts_with_applied');
    expect(fieldNames(error)).toContain('invoice.items');
    expect(await h.snapshot()).toEqual(before);
  });

  it('docs/api.md: poll `date` is inclusive: an order updated exactly at `date` is listed, one updated before is not', async () => {
    await intake('700', [{ sku: 'SKU-1', qty: 1 }]);
    h.clock.advance(5 * 60_000);
    const late = await intake('701', [{ sku: 'SKU-1', qty: 1 }]);
    const numbers = async (queue: 'pending_accept' | 'pending_allocation', date: string) =>
      // Each queue polled by the role that may read it.
      (await h.engine.poll(queue === 'pending_accept' ? h.partnerA : h.erp, queue, { date })).map(
        (order) => order.fulfillment_order_number,
      );

    expect(await numbers('pending_accept', '2026-03-01 09:00:00')).toEqual(['700-1', '701-1']);
    expect(await numbers('pending_accept', '2026-03-01 09:04:59')).toEqual(['701-1']);
    expect(await numbers('pending_accept', '2026-03-01 09:05:00')).toEqual(['701-1']);
    expect(await numbers('pending_accept', '2026-03-01 09:05:01')).toEqual([]);

    // An action moves updated_at; a retry does not.
    h.clock.set('2026-03-01T09:10:00Z');
    const accept = () =>
      h.engine.accept(h.partnerA, {
        order: { order_id: late.number, items: [{ item_id: late.ids[0], qty: 1 }] },
      });
    await accept();
    expect(await numbers('pending_allocation', '2026-03-01 09:10:00')).toEqual(['701-1']);
    h.clock.set('2026-03-01T09:20:00Z');
    await accept();
    expect(await numbers('pending_allocation', '2026-03-01 09:10:00')).toEqual(['701-1']);
    expect(await numbers('pending_allocation', '2026-03-01 09:10:01')).toEqual([]);
  });

  it('docs/api.md: poll pages hold 100 orders ordered by id; the page past the end is []', async () => {
    const created: string[] = [];
    for (let n = 0; n < 103; n++) {
      // Sales order numbers that do not sort like the ids, to prove the order is by id.
      const number = String(900 - n);
      created.push((await intake(number, [{ sku: 'SKU-1', qty: 1 }])).number);
    }
    const page = async (p: number | string) =>
      h.engine.poll(h.partnerA, 'pending_accept', { page: p });
    const first = await page(1);
    const second = await page('2');
    expect(first).toHaveLength(100);
    expect(second).toHaveLength(3);
    expect(await page(3)).toEqual([]);
    expect((await h.engine.poll(h.partnerA, 'pending_accept')).map((order) => order.id)).toEqual(
      first.map((order) => order.id),
    );
    const all = [...first, ...second];
    expect(all.map((order) => order.fulfillment_order_number)).toEqual(created);
    const ids = all.map((order) => order.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(103);
    expect(await h.engine.poll(h.partnerB, 'pending_accept')).toEqual([]);
  });

  it('docs/api.md: a bad page or date → invalid_request naming the parameter', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ page: '0' }, 'page'],
      [{ page: 0 }, 'page'],
      [{ page: '-1' }, 'page'],
      [{ page: '1.5' }, 'page'],
      [{ page: 'two' }, 'page'],
      [{ page: '' }, 'page'],
      [{ date: '2026-03-01' }, 'date'],
      [{ date: '2026-03-01T09:00:00Z' }, 'date'],
      [{ date: '2026-02-30 00:00:00' }, 'date'],
      [{ date: '2026-03-01 24:00:00' }, 'date'],
    ];
    for (const [query, field] of cases) {
      const error = await domainError(h.engine.poll(h.erp, 'pending_allocation', query));
      expect(error.code, JSON.stringify(query)).toBe('invalid_request');
      expect(fieldNames(error), JSON.stringify(query)).toContain(field);
    }
  });
});
