import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, openHarness, salesOrder } from './harness.js';

/**
 * The acceptance walk of the engine: one sales order of 3 items on a partials-enabled store,
 * from intake to the last invoice, checking queues, item statuses and order status at each step
 * against docs/behaviour.md.
 */
describe('one sales order through every stage, in-process on SQLite', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness();
  });
  afterEach(() => h.engine.close());

  const tick = () => h.clock.advance(60_000);

  it('intake → accept with a reroute → allocate → ship 2 then 1 → invoice twice', async () => {
    const { engine, partnerA, partnerB, erp } = h;

    // Intake: pinned to WH-A, one fulfillment order numbered <sales_order_number>-1.
    const [fo1] = await engine.intake(
      'default',
      salesOrder(
        '100001001',
        [
          { sku: 'SKU-1', qty: 2 },
          { sku: 'SKU-2', qty: 1 },
          { sku: 'SKU-3', qty: 1 },
        ],
        { warehouse_code: 'WH-A' },
      ),
    );
    expect(fo1?.fulfillment_order_number).toBe('100001001-1');
    expect(fo1?.status).toBe('pending_accept');
    // The engine answers in the API's units: amounts as numbers, not ten-thousandths.
    expect(fo1?.shipping_amount).toBe(5);
    const [one, two, three] = fo1?.items.map((item) => item.id) ?? [];
    expect(await h.queue(partnerA, 'pending_accept')).toEqual([
      {
        number: '100001001-1',
        status: 'pending_accept',
        items: [
          { id: one, status: 'pending_accept', sku: 'SKU-1' },
          { id: two, status: 'pending_accept', sku: 'SKU-2' },
          { id: three, status: 'pending_accept', sku: 'SKU-3' },
        ],
      },
    ]);
    expect(await h.queue(partnerB, 'pending_accept')).toEqual([]);

    // Accept two, reject the third with qty 0: it is rerouted to WH-B, which has SKU-3.
    tick();
    const accepted = await engine.accept(partnerA, {
      order: {
        order_id: '100001001-1',
        items: [
          { item_id: one, qty: 2 },
          { item_id: two, qty: 1 },
          { item_id: three, qty: 0 },
        ],
      },
    });
    expect(accepted.status).toBe('pending_allocation');
    expect(accepted.items.map((item) => item.status)).toEqual([
      'pending_allocation',
      'pending_allocation',
      'rejected',
    ]);
    expect(accepted.updated_at).toBe('2026-03-01 09:01:00');
    expect(await h.queue(partnerA, 'pending_accept')).toEqual([]);
    const rerouted = await h.queue(partnerB, 'pending_accept');
    expect(rerouted).toEqual([
      {
        number: '100001001-2',
        status: 'pending_accept',
        items: [{ id: expect.any(Number), status: 'pending_accept', sku: 'SKU-3' }],
      },
    ]);
    const four = rerouted[0]?.items[0]?.id as number;
    expect(await h.queue(erp, 'pending_allocation')).toMatchObject([
      { number: '100001001-1', status: 'pending_allocation', items: [{ id: one }, { id: two }] },
    ]);

    // WH-B accepts the rerouted line; the ERP allocates both orders.
    tick();
    await engine.accept(partnerB, {
      order: { order_id: '100001001-2', items: [{ item_id: four, qty: 1 }] },
    });
    expect((await h.queue(erp, 'pending_allocation')).map((order) => order.number)).toEqual([
      '100001001-1',
      '100001001-2',
    ]);
    tick();
    const allocated = await engine.allocate(erp, {
      allocation: { order_id: '100001001-1', items: [{ item_id: one }, { item_id: two }] },
    });
    expect(allocated.status).toBe('pending_shipment');
    expect(allocated.allocated_at).toBe('2026-03-01 09:03:00');
    await engine.allocate(erp, {
      allocation: { order_id: '100001001-2', items: [{ item_id: four }] },
    });
    expect((await h.queue(partnerA, 'pending_shipment')).map((order) => order.number)).toEqual([
      '100001001-1',
    ]);
    expect(await h.queue(erp, 'pending_allocation')).toEqual([]);

    // Ship the first item: partially shipped; only the shipped subset is invoiceable.
    tick();
    const firstShipment = await engine.ship(partnerA, {
      shipment: {
        order_id: '100001001-1',
        items: [{ item_id: one }],
        tracks: [{ carrier_code: 'brt', title: 'BRT', track_number: 'BRT-1' }],
      },
    });
    expect(firstShipment.status).toBe('partially_shipped');
    expect(firstShipment.items.map((item) => item.status)).toEqual([
      'pending_invoice',
      'pending_shipment',
      'rejected',
    ]);
    expect(await h.queue(partnerA, 'pending_shipment')).toMatchObject([
      { number: '100001001-1', items: [{ id: two }] },
    ]);
    const invoiceable = await engine.poll(erp, 'pending_invoice');
    expect(invoiceable).toHaveLength(1);
    expect(invoiceable[0]?.items.map((item) => item.id)).toEqual([one]);
    expect(invoiceable[0]?.items[0]).not.toHaveProperty('warehouse_code');

    // First invoice: the shipped item and the whole shipping amount.
    tick();
    const firstInvoice = await engine.invoice(erp, {
      invoice: {
        order_id: '100001001-1',
        items: [{ item_id: one }],
        invoice_number: 'INV-1',
        shipping_amount_incl_tax: 5,
      },
    });
    expect(firstInvoice.items.map((item) => item.status)).toEqual([
      'invoiced',
      'pending_shipment',
      'rejected',
    ]);
    expect(firstInvoice.status).toBe('partially_shipped');
    expect(await h.queue(erp, 'pending_invoice')).toEqual([]);

    // Ship the second item of the first order: partially invoiced.
    tick();
    const secondShipment = await engine.ship(partnerA, {
      shipment: {
        order_id: '100001001-1',
        items: [{ item_id: two }],
        carrier_tracking_number: 'BRT-2',
        carrier_title: 'BRT',
      },
    });
    expect(secondShipment.status).toBe('partially_invoiced');
    expect(await h.queue(partnerA, 'pending_shipment')).toEqual([]);

    // Then the third item, at WH-B.
    tick();
    const thirdShipment = await engine.ship(partnerB, {
      shipment: { order_id: '100001001-2', items: [{ item_id: four }] },
    });
    expect(thirdShipment.status).toBe('pending_invoice');
    expect((await h.queue(erp, 'pending_invoice')).map((order) => order.number)).toEqual([
      '100001001-1',
      '100001001-2',
    ]);

    // Second invoice: the rest, shipping 0 now.
    tick();
    const secondInvoice = await engine.invoice(erp, {
      invoice: {
        order_id: '100001001-1',
        items: [{ item_id: two }],
        invoice_number: 'INV-2',
        shipping_amount_incl_tax: 0,
      },
    });
    expect(secondInvoice.status).toBe('invoiced');
    expect(secondInvoice.items.map((item) => item.status)).toEqual([
      'invoiced',
      'invoiced',
      'rejected',
    ]);
    const rerouteInvoice = await engine.invoice(erp, {
      invoice: {
        order_id: '100001001-2',
        items: [{ item_id: four }],
        invoice_number: 'INV-3',
        shipping_amount_incl_tax: 0,
      },
    });
    expect(rerouteInvoice.status).toBe('invoiced');

    for (const queue of [
      'pending_accept',
      'pending_allocation',
      'pending_shipment',
      'pending_invoice',
      'failed',
    ] as const) {
      expect(await engine.poll(engine.operator('default'), queue)).toEqual([]);
    }

    // docs/behaviour.md: shipping took the goods off on hand and released every reservation.
    expect(await h.stock()).toEqual([
      { warehouse_code: 'WH-A', sku: 'SKU-1', on_hand: 8, reserved: 0 },
      { warehouse_code: 'WH-A', sku: 'SKU-2', on_hand: 9, reserved: 0 },
      { warehouse_code: 'WH-A', sku: 'SKU-3', on_hand: 0, reserved: 0 },
      { warehouse_code: 'WH-B', sku: 'SKU-3', on_hand: 4, reserved: 0 },
    ]);

    // The audit trail: who did what, when.
    const history = await engine.getOrderHistory('default', '100001001-1');
    expect(history.audit.map((event) => [event.actor, event.action])).toEqual([
      ['operator', 'intake'],
      ['partner-a', 'accept'],
      ['erp', 'allocate'],
      ['partner-a', 'ship'],
      ['erp', 'invoice'],
      ['partner-a', 'ship'],
      ['erp', 'invoice'],
    ]);
    expect(history.audit[1]?.details).toMatchObject({ rerouted_to: ['100001001-2'] });
    expect(history.audit[4]?.details).toMatchObject({ invoice_number: 'INV-1', items: [one] });
    expect(
      history.shipments.map((shipment) => shipment.tracks.map((track) => track.track_number)),
    ).toEqual([['BRT-1'], ['BRT-2']]);
    expect(history.invoices.map((invoice) => invoice.shipping_amount_incl_tax)).toEqual([5, 0]);
  });
});
