import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { domainError, fieldNames, type Harness, openHarness, salesOrder } from './harness.js';

/**
 * docs/behaviour.md: stock. Sync sets absolute on-hand quantities; accept reserves at the item's
 * source warehouse, ship takes the goods off on hand and releases, reject/cancel/abandon release,
 * a transfer at allocate moves the reservation. The harness store: WH-A (SKU-1 10, SKU-2 10,
 * SKU-3 0), WH-B (SKU-3 5), WH-C (courier, no stock).
 */
describe('docs/behaviour.md: stock on hand and reservations', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness();
  });
  afterEach(() => h.engine.close());

  /** Takes in a sales order pinned to `warehouse`; returns its first fulfillment order. */
  async function intake(number: string, items: { sku: string; qty: number }[], warehouse = 'WH-A') {
    const [order] = await h.engine.intake(
      'default',
      salesOrder(number, items, { warehouse_code: warehouse }),
    );
    if (!order) throw new Error('intake created no order');
    return { number: order.fulfillment_order_number, ids: order.items.map((item) => item.id) };
  }

  /** Intake at WH-A and accept every line in full. */
  async function accepted(number: string, items: { sku: string; qty: number }[]) {
    const order = await intake(number, items);
    await h.engine.accept(h.partnerA, {
      order: {
        order_id: order.number,
        items: order.ids.map((item_id, index) => ({ item_id, qty: items[index]?.qty })),
      },
    });
    return order;
  }

  it('docs/behaviour.md: stock sync sets the absolute on-hand qty per (warehouse, sku) and echoes the batch', async () => {
    const batch = [
      { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 7 },
      { warehouse_code: 'WH-A', sku: 'SKU-9', qty: 4 },
    ];
    const response = await h.engine.syncStock(h.partnerA, {
      stock_items: batch.map((entry) => ({ ...entry, note: 'ignored' })),
    });
    expect(response).toEqual(batch);
    expect(await h.stock()).toEqual([
      { warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 7, reserved: 0 },
      { warehouse_code: 'WH-A', sku: 'SKU-2', on_hand: 10, reserved: 0 },
      { warehouse_code: 'WH-A', sku: 'SKU-3', on_hand: 0, reserved: 0 },
      { warehouse_code: 'WH-A', sku: 'SKU-9', on_hand: 4, reserved: 0 },
      { warehouse_code: 'WH-B', sku: 'SKU-3', on_hand: 5, reserved: 0 },
    ]);

    // Absolute, not additive: the same batch again leaves the same quantities.
    await h.engine.syncStock(h.partnerA, { stock_items: batch });
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 7, reserved: 0, available: 7 });
    expect(await h.level('WH-A', 'SKU-9')).toEqual({ on_hand: 4, reserved: 0, available: 4 });
  });

  it('docs/behaviour.md: a stock sync leaves reservations untouched', async () => {
    await accepted('500', [{ sku: 'SKU-1', qty: 3 }]);
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 10, reserved: 3, available: 7 });

    await h.engine.syncStock(h.partnerA, {
      stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 20 }],
    });
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 20, reserved: 3, available: 17 });
    await h.engine.syncStock(h.partnerA, {
      stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 0 }],
    });
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 0, reserved: 3, available: -3 });
  });

  it("docs/behaviour.md: intake reserves each line's qty at the warehouse it is routed to; accept keeps it", async () => {
    const order = await intake('501', [
      { sku: 'SKU-1', qty: 3 },
      { sku: 'SKU-2', qty: 2 },
    ]);
    // Committed when routed: held while the partner has not decided yet.
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 10, reserved: 3, available: 7 });

    await h.engine.accept(h.partnerA, {
      order: {
        order_id: order.number,
        items: [
          { item_id: order.ids[0], qty: 3 },
          { item_id: order.ids[1], qty: 2 },
        ],
      },
    });
    expect(await h.stock()).toEqual([
      { warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 10, reserved: 3 },
      { warehouse_code: 'WH-A', sku: 'SKU-2', on_hand: 10, reserved: 2 },
      { warehouse_code: 'WH-A', sku: 'SKU-3', on_hand: 0, reserved: 0 },
      { warehouse_code: 'WH-B', sku: 'SKU-3', on_hand: 5, reserved: 0 },
    ]);
    expect((await h.level('WH-A', 'SKU-1')).available).toBe(7);
    expect((await h.level('WH-A', 'SKU-2')).available).toBe(8);
  });

  it('docs/behaviour.md: a partial-qty accept keeps only the accepted qty reserved', async () => {
    await h.engine.upsertStore('default', { partial_qty: true, reroute: false });
    const order = await intake('502', [{ sku: 'SKU-1', qty: 4 }]);
    await h.engine.accept(h.partnerA, {
      order: { order_id: order.number, items: [{ item_id: order.ids[0], qty: 1 }] },
    });
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 10, reserved: 1, available: 9 });
  });

  it('docs/behaviour.md: ship deducts on hand and releases the reservation of the shipped lines only', async () => {
    const order = await accepted('503', [
      { sku: 'SKU-1', qty: 3 },
      { sku: 'SKU-2', qty: 2 },
    ]);
    await h.engine.allocate(h.erp, {
      allocation: { order_id: order.number, items: order.ids.map((item_id) => ({ item_id })) },
    });
    // Allocation moves nothing.
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 10, reserved: 3, available: 7 });

    await h.engine.ship(h.partnerA, {
      shipment: { order_id: order.number, items: [{ item_id: order.ids[0] }] },
    });
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 7, reserved: 0, available: 7 });
    expect(await h.level('WH-A', 'SKU-2')).toEqual({ on_hand: 10, reserved: 2, available: 8 });

    await h.engine.ship(h.partnerA, {
      shipment: { order_id: order.number, items: [{ item_id: order.ids[1] }] },
    });
    expect(await h.level('WH-A', 'SKU-2')).toEqual({ on_hand: 8, reserved: 0, available: 8 });
  });

  it('docs/behaviour.md: reject releases the line at its warehouse; a line rerouted is reserved where it goes', async () => {
    // Only the courier hub WH-C has SKU-2 besides WH-A.
    await h.engine.syncStock(h.engine.operator('default'), {
      stock_items: [{ warehouse_code: 'WH-C', sku: 'SKU-2', qty: 6 }],
    });
    const order = await intake('504', [
      { sku: 'SKU-1', qty: 2 },
      { sku: 'SKU-2', qty: 3 },
    ]);
    await h.engine.accept(h.partnerA, {
      order: {
        order_id: order.number,
        items: [
          { item_id: order.ids[0], qty: 2 },
          { item_id: order.ids[1], qty: 0 },
        ],
      },
    });
    // The rejected SKU-2 line no longer holds anything at WH-A.
    expect(await h.level('WH-A', 'SKU-2')).toEqual({ on_hand: 10, reserved: 0, available: 10 });
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 10, reserved: 2, available: 8 });
    // It went to WH-C, which skips pending_accept and holds the stock from the start.
    const rerouted = await h.engine.getOrder('default', '504-2');
    expect(rerouted.warehouse_code).toBe('WH-C');
    expect(rerouted.status).toBe('pending_allocation');
    expect(rerouted.items.map(({ sku, qty, status }) => ({ sku, qty, status }))).toEqual([
      { sku: 'SKU-2', qty: 3, status: 'pending_allocation' },
    ]);
    expect(await h.level('WH-C', 'SKU-2')).toEqual({ on_hand: 6, reserved: 3, available: 3 });

    // The reject endpoint: the same, released at WH-A, reserved at WH-C.
    const other = await intake('505', [{ sku: 'SKU-2', qty: 1 }]);
    expect(await h.level('WH-A', 'SKU-2')).toEqual({ on_hand: 10, reserved: 1, available: 9 });
    await h.engine.reject(h.partnerA, {
      order: { order_id: other.number, items: [{ item_id: other.ids[0] }] },
    });
    expect(await h.level('WH-A', 'SKU-2')).toEqual({ on_hand: 10, reserved: 0, available: 10 });
    expect(await h.level('WH-C', 'SKU-2')).toEqual({ on_hand: 6, reserved: 4, available: 2 });
    expect((await h.engine.getOrder('default', '505-2')).warehouse_code).toBe('WH-C');
  });

  it('docs/behaviour.md: cancel (engine.cancelOrder) releases the reservations of the canceled lines once the partner accepts', async () => {
    const order = await accepted('506', [
      { sku: 'SKU-1', qty: 3 },
      { sku: 'SKU-2', qty: 2 },
    ]);
    // One line allocated, one not: both hold stock until canceled.
    await h.engine.allocate(h.erp, {
      allocation: { order_id: order.number, items: [{ item_id: order.ids[0] }] },
    });
    await accepted('507', [{ sku: 'SKU-1', qty: 1 }]);
    expect(await h.level('WH-A', 'SKU-1')).toMatchObject({ reserved: 4 });

    await h.engine.cancelOrder('default', order.number);
    // Asked of the partner who accepted them: the lines hold their stock until it answers.
    expect(await h.level('WH-A', 'SKU-1')).toMatchObject({ reserved: 4 });
    await h.engine.acceptCancellation(h.partnerA, { cancellation: { order_id: order.number } });
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 10, reserved: 1, available: 9 });
    expect(await h.level('WH-A', 'SKU-2')).toEqual({ on_hand: 10, reserved: 0, available: 10 });
  });

  it('docs/behaviour.md: failing keeps the reservations; abandoning releases them', async () => {
    const order = await accepted('508', [{ sku: 'SKU-1', qty: 3 }]);
    await h.engine.failOrder('default', order.number, 'ERP could not allocate');
    expect(await h.level('WH-A', 'SKU-1')).toMatchObject({ reserved: 3 });
    await h.engine.abandonOrder('default', order.number);
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 10, reserved: 0, available: 10 });
  });

  it('docs/behaviour.md: canceling an abandoned order does not release its stock a second time', async () => {
    const order = await accepted('509', [{ sku: 'SKU-1', qty: 3 }]);
    await accepted('510', [{ sku: 'SKU-1', qty: 2 }]);
    await h.engine.failOrder('default', order.number, 'ERP could not allocate');
    await h.engine.abandonOrder('default', order.number);
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 10, reserved: 2, available: 8 });

    // Whether cancel is refused or applied, the 2 still held for order 510 stay held.
    await h.engine.cancelOrder('default', order.number).catch(() => undefined);
    expect(await h.level('WH-A', 'SKU-1')).toEqual({ on_hand: 10, reserved: 2, available: 8 });
  });

  it('docs/behaviour.md: a transfer at allocate (item warehouse_code) moves the reservation to the new source', async () => {
    const order = await accepted('511', [{ sku: 'SKU-3', qty: 2 }]);
    expect(await h.level('WH-A', 'SKU-3')).toEqual({ on_hand: 0, reserved: 2, available: -2 });

    const allocated = await h.engine.allocate(h.erp, {
      allocation: {
        order_id: order.number,
        items: [{ item_id: order.ids[0], warehouse_code: 'WH-B' }],
      },
    });
    expect(allocated.warehouse_code).toBe('WH-A');
    expect(allocated.items[0]).toMatchObject({
      status: 'pending_shipment',
      warehouse_code: 'WH-B',
    });
    expect(await h.level('WH-A', 'SKU-3')).toEqual({ on_hand: 0, reserved: 0, available: 0 });
    expect(await h.level('WH-B', 'SKU-3')).toEqual({ on_hand: 5, reserved: 2, available: 3 });

    // The goods then leave WH-B, not WH-A.
    await h.engine.ship(h.partnerA, {
      shipment: { order_id: order.number, items: [{ item_id: order.ids[0] }] },
    });
    expect(await h.level('WH-A', 'SKU-3')).toEqual({ on_hand: 0, reserved: 0, available: 0 });
    expect(await h.level('WH-B', 'SKU-3')).toEqual({ on_hand: 3, reserved: 0, available: 3 });
  });

  it('docs/behaviour.md: a transfer to an unknown or inactive warehouse is refused and moves nothing', async () => {
    await h.engine.upsertWarehouse('default', { code: 'WH-OFF', name: 'Closed', active: false });
    const order = await accepted('512', [{ sku: 'SKU-1', qty: 2 }]);
    for (const target of ['WH-OFF', 'WH-NOPE']) {
      const before = await h.snapshot();
      const error = await domainError(
        h.engine.allocate(h.erp, {
          allocation: {
            order_id: order.number,
            items: [{ item_id: order.ids[0], warehouse_code: target }],
          },
        }),
      );
      expect(error.code).toBe('invalid_request');
      expect(fieldNames(error)).toContain('allocation.items[0].warehouse_code');
      expect(await h.snapshot()).toEqual(before);
    }
  });

  it("docs/behaviour.md: a scoped token syncing another warehouse's stock → invalid_stock_batch naming the entry, nothing changed", async () => {
    const before = await h.snapshot();
    const error = await domainError(
      h.engine.syncStock(h.partnerA, {
        stock_items: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1 },
          { warehouse_code: 'WH-B', sku: 'SKU-3', qty: 99 },
          { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 1 },
        ],
      }),
    );
    expect(error.code).toBe('invalid_stock_batch');
    expect(fieldNames(error)).toEqual(['stock_items[1].warehouse_code']);
    expect(error.parameters[0]?.fieldValue).toBe('WH-B');
    expect(await h.snapshot()).toEqual(before);

    // The same entry is fine for the token that owns WH-B.
    await h.engine.syncStock(h.partnerB, {
      stock_items: [{ warehouse_code: 'WH-B', sku: 'SKU-3', qty: 99 }],
    });
    expect(await h.level('WH-B', 'SKU-3')).toMatchObject({ on_hand: 99 });
  });

  it('docs/behaviour.md: a batch with a repeated key, a negative or a fractional qty is rejected whole, naming the entries', async () => {
    const cases: [unknown[], string][] = [
      [
        [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1 },
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 2 },
        ],
        'stock_items[1]',
      ],
      [
        [
          { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 1 },
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: -1 },
        ],
        'stock_items[1].qty',
      ],
      [[{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1.5 }], 'stock_items[0].qty'],
      [
        Array.from({ length: 10_001 }, (_, index) => ({
          warehouse_code: 'WH-A',
          sku: `BULK-${index}`,
          qty: 1,
        })),
        'stock_items',
      ],
    ];
    for (const [stock_items, field] of cases) {
      const before = await h.snapshot();
      const error = await domainError(h.engine.syncStock(h.partnerA, { stock_items }));
      expect(error.code).toBe('invalid_stock_batch');
      expect(fieldNames(error)).toContain(field);
      expect(await h.snapshot()).toEqual(before);
    }
  });

  it('docs/behaviour.md: GET warehouses (engine.listWarehouses) is ordered by code; a scoped token sees only its own; page 2 is []', async () => {
    await h.engine.upsertWarehouse('default', { code: 'WH-0', name: 'First', priority: 99 });
    await h.engine.upsertWarehouse('default', { code: 'WH-Z', name: 'Closed', active: false });
    expect(await h.engine.listWarehouses(h.erp)).toEqual([
      { code: 'WH-0', name: 'First', active: true },
      { code: 'WH-A', name: 'Partner A', active: true },
      { code: 'WH-B', name: 'Partner B', active: true },
      { code: 'WH-C', name: 'Courier hub', active: true },
      { code: 'WH-Z', name: 'Closed', active: false },
    ]);
    expect(await h.engine.listWarehouses(h.partnerA)).toEqual([
      { code: 'WH-A', name: 'Partner A', active: true },
    ]);
    expect(await h.engine.listWarehouses(h.partnerB, { page: '1' })).toEqual([
      { code: 'WH-B', name: 'Partner B', active: true },
    ]);
    expect(await h.engine.listWarehouses(h.erp, { page: '2' })).toEqual([]);
    expect(await h.engine.listWarehouses(h.partnerA, { page: 2 })).toEqual([]);
    for (const page of ['0', '-1', 'x', '1.5']) {
      const error = await domainError(h.engine.listWarehouses(h.erp, { page }));
      expect(error.code).toBe('invalid_request');
      expect(fieldNames(error)).toContain('page');
    }
  });
});
