import { cancelLines, formatTimestamp } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { call, TOKENS } from '../http/support.js';
import { rawConnection } from './raw-connection.js';
import { closedAfterEach, migrateUpTo, serveOver, storedOrder, upgradeKinds } from './support.js';

/**
 * Held orders the release before canceled kept their holds active: their sales order read
 * `on_hold`, the console "Canceled · On hold", the dashboard counted them. The upgrade releases
 * those holds as an action would: the order written under a new change id (a `since` follower of
 * the sales orders feed gets it again), `updated_at` moved, a `release` entry on its timeline by
 * the system saying why. An order still held for a reason (a line left to move) keeps its hold.
 */

/** The last migration before the one that lists those orders. */
const BEFORE_ENDED_HOLDS = '0021_courier_due_partial';

describe.each(upgradeKinds())('the canceled-holds upgrade on $name', (kind) => {
  const track = closedAfterEach();

  it('releases the holds of canceled orders, where the feed, the view and the holds list see it', async () => {
    const database = track(await kind.create());
    await migrateUpTo(database.url, BEFORE_ENDED_HOLDS);
    const before = await serveOver(database.url, { skipMigrations: true, seed: true });
    const post = (path: string, json: unknown) =>
      call(before, 'POST', path, { token: TOKENS.all, json });
    for (const number of ['900001', '900002']) {
      const created = await post('/V1/salesOrders', {
        sales_order: fixtures.salesOrder(number, [{ sku: 'SKU-1', qty: 1 }], {
          warehouse_code: 'WH-A',
        }),
      });
      expect(created.status, created.text).toBe(201);
      const held = await post('/V1/salesOrder/hold', {
        hold: { sales_order_number: number, handle: `pay-${number}`, reason: 'awaiting_payment' },
      });
      expect(held.status, held.text).toBe(200);
    }
    // The release before canceled 900001 and left its hold active: written as it wrote it.
    await before.repository.transaction(async (tx) => {
      const store = await tx.findStore('default');
      const order = store && (await tx.lockOrder(store.id, '900001-1'));
      if (!order) throw new Error('no order');
      const at = formatTimestamp(new Date('2026-01-01T00:00:00Z'));
      const outcome = cancelLines(order, null, {
        by: 'all',
        reason: 'customer',
        courier: false,
        now: at,
      });
      await tx.saveOrder({ ...outcome.order, holds: order.holds });
      await tx.adjustStock(store.id, outcome.stock);
      await tx.appendAudit([
        { order_id: order.id, at, actor: 'all', action: 'cancel', details: outcome.details },
      ]);
    });
    const stale = await call(before, 'GET', '/V1/salesOrders/900001', { token: TOKENS.all });
    expect(stale.body).toMatchObject({ status: 'on_hold', holds: [{ status: 'active' }] });
    const feed = await call(before, 'GET', '/V1/salesOrders?after=0', { token: TOKENS.all });
    const cursor = feed.headers.get('fulfil-cursor') as string;
    await before.close();
    const raw = track(await rawConnection(database.url));
    const stillHeld = await storedOrder(raw, '900002-1');

    const fresh = track(await serveOver(database.url));

    const view = await call(fresh, 'GET', '/V1/salesOrders/900001', { token: TOKENS.all });
    expect(view.body.status).toBe('canceled');
    expect(view.body.holds).toEqual([
      expect.objectContaining({ handle: 'pay-900001', status: 'released', released_by: 'system' }),
    ]);
    // A follower of the feed from before the upgrade gets the sales order again.
    const since = await call(
      fresh,
      'GET',
      `/V1/salesOrders?since=${encodeURIComponent(cursor)}&wait=10`,
      { token: TOKENS.all },
    );
    expect(
      since.body.map((entry: { sales_order_number: string }) => entry.sales_order_number),
    ).toContain('900001');
    // On its timeline: who, why, which hold.
    const history = await fresh.engine.getOrderHistory('default', '900001-1');
    const release = history.audit.at(-1);
    expect(release).toMatchObject({
      actor: 'system',
      action: 'release',
      details: { handle: 'pay-900001', still_held: [] },
    });
    expect(release?.reason).toContain('0022_label_carriers_and_ended_holds');

    // The order still held for a reason keeps its hold, untouched; the list is spent.
    expect(await storedOrder(raw, '900002-1')).toEqual(stillHeld);
    expect(await raw.query('select * from fulfil_ended_holds_due')).toEqual([]);
    const other = await call(fresh, 'GET', '/V1/salesOrders/900002', { token: TOKENS.all });
    expect(other.body.status).toBe('on_hold');
    // The operator's list of open holds names it alone.
    const viewer = { name: 'viewer', role: 'viewer' as const, store_code: null, request_id: null };
    const open = await fresh.engine.admin.holds(viewer, 'default', {});
    expect(open.holds.map((hold) => hold.sales_order_number)).toEqual(['900002']);

    // Opened again, nothing more changes.
    const changed = await storedOrder(raw, '900001-1');
    await track.close(fresh);
    track(await serveOver(database.url));
    expect(await storedOrder(raw, '900001-1')).toEqual(changed);
  });
});
