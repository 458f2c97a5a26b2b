import { createEngine, type DomainError, type Engine, type Principal } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/index.js';

/** A sales channel's side of the engine (docs/channel-guide.md). */
describe('sales orders: intake by a channel, the view, the feed', () => {
  let engine: Engine;
  let channel: Principal;

  beforeEach(async () => {
    engine = createEngine({ repository: await openSqliteRepository(':memory:') });
    await engine.loadSeed(fixtures.seed());
    channel = await engine.authenticate('default', fixtures.SEED_TOKENS.channel);
  });
  afterEach(() => engine.close());

  const order = (number: string, qty = 2) =>
    fixtures.salesOrder(number, [{ sku: 'SKU-1', qty }], { warehouse_code: 'WH-A' });

  async function refusal(work: () => Promise<unknown>): Promise<DomainError> {
    const error = await work().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!error) throw new Error('expected a refusal');
    return error as DomainError;
  }

  it('takes a sales order in once: created, then exists with the same view, 409 naming each field that differs', async () => {
    const first = await engine.createSalesOrder(channel, { sales_order: order('5001') });
    expect(first.outcome).toBe('created');
    expect(first.sales_order).toMatchObject({
      sales_order_number: '5001',
      status: 'open',
      holds: [],
      cancellation_requests: [],
      returns: [],
      shipments: [],
      invoices: [],
    });
    expect(first.sales_order.fulfillment_orders.map((fo) => fo.fulfillment_order_number)).toEqual([
      '5001-1',
    ]);
    const again = await engine.createSalesOrder(channel, { sales_order: order('5001') });
    expect(again).toEqual({ ...first, outcome: 'exists' });

    const changed = order('5001', 3);
    changed.shipping_address = { ...changed.shipping_address, street: '9 Other St' };
    const conflict = await refusal(() =>
      engine.createSalesOrder(channel, { sales_order: changed }),
    );
    expect(conflict.code).toBe('already_exists');
    expect(conflict.parameters).toEqual([
      { fieldName: 'sales_order.sales_order_number', fieldValue: '5001' },
    ]);
    expect(conflict.errors.map((detail) => detail.parameters[0]?.fieldName)).toEqual([
      'sales_order.grand_total',
      'sales_order.grand_total_excl_tax',
      'sales_order.tax_amount',
      'sales_order.package_value',
      'sales_order.shipping_address.street',
      'sales_order.items[0].qty',
      'sales_order.items[0].total_price',
      'sales_order.items[0].total_price_excl_tax',
      'sales_order.items[0].total_tax_amount',
    ]);
    // Nothing of the conflicting one was written.
    expect((await engine.getSalesOrder(channel, '5001')).fulfillment_orders).toHaveLength(1);
  });

  it('a batch answers each sales order on its own, in order: created, a repeat, a bad one, a conflict', async () => {
    const answers = await engine.createSalesOrders(channel, {
      sales_orders: [
        order('6001'),
        order('6001'),
        { ...order('6002'), items: [] },
        order('6001', 5),
      ],
    });
    expect(answers.map((answer) => [answer.sales_order_number, answer.outcome])).toEqual([
      ['6001', 'created'],
      ['6001', 'exists'],
      ['6002', 'refused'],
      ['6001', 'refused'],
    ]);
    const bad = answers[2] as { error: DomainError };
    expect(bad.error.parameters[0]?.fieldName).toBe('sales_orders[2].items');
    const conflict = answers[3] as { error: DomainError };
    expect(conflict.error.code).toBe('already_exists');
    await expect(engine.getSalesOrder(channel, '6002')).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(engine.createSalesOrders(channel, { sales_orders: [] })).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(
      engine.createSalesOrders(channel, {
        sales_orders: Array.from({ length: 101 }, (_, i) => order(String(7000 + i))),
      }),
    ).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('needs the SalesOrder resources and a token of the whole store', async () => {
    const partner = await engine.authenticate('default', fixtures.SEED_TOKENS.partner);
    const denied = await refusal(() =>
      engine.createSalesOrder(partner, { sales_order: order('1') }),
    );
    expect(denied.parameters).toEqual([{ resources: 'Fulfil_SalesOrder::api_create' }]);
    const scoped = await refusal(() =>
      engine.getSalesOrder({ ...channel, warehouses: ['WH-A'] }, '1'),
    );
    expect(scoped.code).toBe('forbidden');
    expect(scoped.parameters).toEqual([{ resources: 'Fulfil_SalesOrder::api_read' }]);
  });

  it('the feed moves a sales order whenever its view changes, and the view shows the tracks', async () => {
    await engine.createSalesOrder(channel, { sales_order: order('8001') });
    await engine.createSalesOrder(channel, { sales_order: order('8002') });
    const first = await engine.pollSalesOrders(channel);
    expect(first.documents.map((text) => JSON.parse(text).sales_order_number)).toEqual([
      '8001',
      '8002',
    ]);
    const operator = engine.operator('default');
    const [fo] = (await engine.getSalesOrder(channel, '8001')).fulfillment_orders;
    if (!fo) throw new Error('fixture');
    const items = fo.items.map((item) => ({ item_id: item.id, qty: item.qty }));
    await engine.accept(operator, { order: { order_id: fo.fulfillment_order_number, items } });
    const moved = await engine.pollSalesOrders(channel, { since: first.cursor });
    expect(moved.documents.map((text) => JSON.parse(text).sales_order_number)).toEqual(['8001']);
    await engine.allocate(operator, {
      allocation: { order_id: fo.fulfillment_order_number, items },
    });
    await engine.ship(operator, {
      shipment: {
        order_id: fo.fulfillment_order_number,
        items,
        tracks: [{ carrier_code: 'UPS', title: 'UPS', track_number: '1Z 999/AA' }],
      },
    });
    const shipped = await engine.pollSalesOrders(channel, { since: moved.cursor });
    const [view] = shipped.documents.map((text) => JSON.parse(text));
    expect(view.status).toBe('shipped');
    expect(view.shipments[0].tracks).toEqual([
      {
        carrier_code: 'UPS',
        title: 'UPS',
        track_number: '1Z 999/AA',
        tracking_url: 'https://www.ups.com/track?tracknum=1Z%20999%2FAA',
      },
    ]);
    expect((await engine.pollSalesOrders(channel, { since: shipped.cursor })).documents).toEqual(
      [],
    );
  });
});
