import type { Engine } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { type DatabaseKind, databaseKinds, droppedAfterEach } from '../databases/open.js';

/**
 * docs/channel-guide.md, Holds and cancellations: a canceled order is held by nothing. Canceling
 * a held sales order (by its channel, or an operator canceling a held fulfillment order) releases
 * the holds of every fulfillment order it leaves with no line to move, in the same step, by the
 * one who canceled, and the cancel's timeline entry names them; the view, the operator's list of
 * open holds and the dashboard no longer count them. A cancel that leaves a line to move keeps
 * the hold.
 */

const VIEWER = { name: 'viewer', role: 'viewer' as const, store_code: null, request_id: null };

const open = droppedAfterEach();

async function heldStore(kind: DatabaseKind) {
  const database = await open(kind);
  const { engine } = database;
  await engine.loadSeed(
    fixtures.seed({ settings: { partial_items: true, partial_qty: false, reroute: false } }),
  );
  const shop = await engine.authenticate('default', fixtures.SEED_TOKENS.channel);
  for (const number of ['810001', '810002']) {
    await engine.createSalesOrder(shop, {
      sales_order: fixtures.salesOrder(number, [
        { sku: 'SKU-1', qty: 1 },
        { sku: 'SKU-2', qty: 1 },
      ]),
    });
    await engine.holdSalesOrder(shop, {
      hold: { sales_order_number: number, handle: `pay-${number}`, reason: 'awaiting_payment' },
    });
  }
  return { engine, shop };
}

async function openHolds(engine: Engine): Promise<string[]> {
  const list = await engine.admin.holds(VIEWER, 'default', {});
  return list.holds.map((hold) => hold.sales_order_number);
}

async function dashboardHolds(engine: Engine): Promise<unknown> {
  const { stores } = await engine.admin.dashboard(VIEWER);
  return stores.find((store) => store.store_code === 'default')?.holds;
}

async function lastEntry(engine: Engine, number: string) {
  return (await engine.getOrderHistory('default', number)).audit.at(-1);
}

describe.each(databaseKinds())('canceling a held sales order on $name', (kind) => {
  it('the channel’s cancel releases the hold with it: the view, the holds list and the dashboard agree', async () => {
    const { engine, shop } = await heldStore(kind);
    const before = await dashboardHolds(engine);
    const view = await engine.cancelSalesOrder(shop, {
      cancellation: { sales_order_number: '810001', reason: 'customer' },
    });
    expect(view.status).toBe('canceled');
    expect(view.holds).toEqual([
      expect.objectContaining({
        handle: 'pay-810001',
        status: 'released',
        released_by: shop.name,
        released_at: expect.any(String),
      }),
    ]);
    expect(await lastEntry(engine, '810001-1')).toMatchObject({
      action: 'cancel',
      actor: shop.name,
      details: { released_holds: ['pay-810001'] },
    });
    expect(await openHolds(engine)).toEqual(['810002']);
    expect(await dashboardHolds(engine)).not.toEqual(before);
    expect(await dashboardHolds(engine)).toMatchObject({ open: 1, orders: 1 });
    // Read again, as a storefront follows it.
    expect((await engine.getSalesOrder(shop, '810001')).status).toBe('canceled');
  });

  it('an operator canceling a held fulfillment order releases its hold too', async () => {
    const { engine } = await heldStore(kind);
    await engine.cancelOrder('default', '810002-1');
    const order = await engine.getOrder('default', '810002-1');
    expect(order.status).toBe('canceled');
    expect(await lastEntry(engine, '810002-1')).toMatchObject({
      action: 'cancel',
      details: { released_holds: ['pay-810002'] },
    });
    expect(await openHolds(engine)).toEqual(['810001']);
  });

  it('a cancel that leaves a line to move keeps the hold', async () => {
    const { engine, shop } = await heldStore(kind);
    const [fo] = (await engine.getSalesOrder(shop, '810001')).fulfillment_orders;
    const first = fo?.items[0]?.id as number;
    const view = await engine.cancelSalesOrder(shop, {
      cancellation: {
        sales_order_number: '810001',
        reason: 'customer',
        items: [
          { fulfillment_order_number: fo?.fulfillment_order_number as string, item_id: first },
        ],
      },
    });
    expect(view.status).toBe('on_hold');
    expect(view.holds).toEqual([expect.objectContaining({ status: 'active' })]);
    expect((await lastEntry(engine, '810001-1'))?.details.released_holds).toBeUndefined();
    expect(await openHolds(engine)).toEqual(['810001', '810002']);
  });
});
