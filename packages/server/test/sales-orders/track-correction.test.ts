import { createEngine, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { databaseKinds, droppedAfterEach } from '../databases/open.js';

/**
 * docs/behaviour.md, Correcting a track: the sales order view shows tracks, so an operator's
 * correction moves its `updated_at` and its entry in the sales orders feed: a storefront following
 * the feed reads the corrected track.
 */

const { channel, partner, erp } = fixtures.SEED_TOKENS;

const open = droppedAfterEach();

describe.each(databaseKinds())('a track correction on $name', (kind) => {
  it('moves the view’s updated_at, and the feed hands the sales order over again', async () => {
    const database = await open(kind);
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const engine = createEngine({ repository: database.repository, clock });
    await engine.loadSeed(fixtures.seed());
    const [shop, warehouse, ledger] = await Promise.all(
      [channel, partner, erp].map((secret) => engine.authenticate('default', secret)),
    );
    if (!shop || !warehouse || !ledger) throw new Error('no principals');
    const created = await engine.createSalesOrder(shop, {
      sales_order: fixtures.salesOrder('830001', [{ sku: 'SKU-1', qty: 1 }]),
    });
    const [fo] = created.sales_order.fulfillment_orders;
    const number = fo?.fulfillment_order_number as string;
    const items = (fo?.items ?? []).map((item) => ({ item_id: item.id, qty: item.qty }));
    await engine.accept(warehouse, { order: { order_id: number, items } });
    await engine.allocate(ledger, { allocation: { order_id: number, items } });
    await engine.ship(warehouse, {
      shipment: {
        order_id: number,
        items,
        tracks: [{ carrier_code: 'brt', title: 'BRT', track_number: 'WRONG-1' }],
      },
    });
    const shipped = await engine.getSalesOrder(shop, '830001');
    const { cursor } = await engine.pollSalesOrders(shop, { after: 0 });

    clock.advance(60_000);
    await engine.correctTracks('default', number, {
      shipment: shipped.shipments[0]?.id as number,
      tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z999AA10123456784' }],
      reason: 'wrong carrier on the label',
    });

    const corrected = await engine.getSalesOrder(shop, '830001');
    expect(corrected.shipments[0]?.tracks[0]?.track_number).toBe('1Z999AA10123456784');
    expect(corrected.updated_at > shipped.updated_at).toBe(true);
    expect(corrected.updated_at).toBe('2026-05-01 10:01:00');
    // On Postgres a change is served once no older transaction of the cluster is open: polled
    // again until it is (other tests share the cluster).
    let followed = await engine.pollSalesOrders(shop, { since: cursor });
    for (let tries = 0; followed.documents.length === 0 && tries < 600; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      followed = await engine.pollSalesOrders(shop, { since: cursor });
    }
    const views = followed.documents.map(
      (document) => JSON.parse(document) as { sales_order_number: string; updated_at: string },
    );
    expect(views.map((view) => [view.sales_order_number, view.updated_at])).toEqual([
      ['830001', corrected.updated_at],
    ]);
  });
});
