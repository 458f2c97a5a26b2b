import { fixtures } from '@fulfil/core/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { call, TOKENS } from '../http/support.js';
import { closedAfterEach, migrateUpTo, serveOver, upgradeKinds } from './support.js';

/**
 * The release before reserved a line's stock when its partner accepted it; this one from the
 * moment it is routed. The upgrade (0028) brings the reservations of the lines still waiting for
 * their partner in, held ones too, so that reserved = the live unshipped lines; accepted lines
 * keep what they had; an older process is refused from then on (it would reserve them twice).
 */

/** The last migration of the release before. */
const BEFORE_RESERVED_WHEN_ROUTED = '0027_stock_sets';

const SKU = 'SKU-UP';
const viewer = { name: 'viewer', role: 'viewer' as const, store_code: null, request_id: null };

describe.each(upgradeKinds())('the reserved-when-routed upgrade on $name', (kind) => {
  const track = closedAfterEach();

  it('reserves the qty of the lines waiting for their partner, once', async () => {
    const database = track(await kind.create());
    await migrateUpTo(database.url, BEFORE_RESERVED_WHEN_ROUTED);
    const before = await serveOver(database.url, { skipMigrations: true, seed: true });
    const post = (path: string, json: unknown, token: string = TOKENS.all) =>
      call(before, 'POST', path, { token, json });
    const stocked = await post('/V1/stockItems', {
      stock_items: [{ warehouse_code: 'WH-A', sku: SKU, qty: 20 }],
    });
    expect(stocked.status, stocked.text).toBe(200);
    const orders: Record<string, number> = { '910001': 2, '910002': 3, '910003': 4 };
    for (const [number, qty] of Object.entries(orders)) {
      const created = await post('/V1/salesOrders', {
        sales_order: fixtures.salesOrder(number, [{ sku: SKU, qty }], { warehouse_code: 'WH-A' }),
      });
      expect(created.status, created.text).toBe(201);
    }
    const [accepted] = (await before.engine.getOrder('default', '910002-1')).items;
    const accept = await post(
      '/V1/fulfillmentOrder/accept',
      { order: { order_id: '910002-1', items: [{ item_id: accepted?.id, qty: 3 }] } },
      TOKENS.partnerA,
    );
    expect(accept.status, accept.text).toBe(200);
    const held = await post('/V1/salesOrder/hold', {
      hold: { sales_order_number: '910003', handle: 'pay', reason: 'awaiting_payment' },
    });
    expect(held.status, held.text).toBe(200);
    // As the release before left it: this code reserved every line at intake; that release
    // only the accepted ones. What the lines waiting for their partner hold goes back out.
    const { rows: waiting } = await sql<{ warehouse_code: string; sku: string; qty: number }>`
      select i.warehouse_code, i.sku, sum(i.qty) as qty
      from order_items i join fulfillment_orders o on o.id = i.order_id
      where i.status = 'pending_accept' group by i.warehouse_code, i.sku`.execute(
      before.repository.db,
    );
    await before.repository.transaction(async (tx) => {
      const store = await tx.findStore('default');
      if (!store) throw new Error('no store');
      await tx.adjustStock(
        store.id,
        waiting.map(({ warehouse_code, sku, qty }) => ({
          warehouse_code,
          sku,
          on_hand: 0,
          reserved: -Number(qty),
        })),
      );
    });
    const level = async (server: typeof before) =>
      (await server.engine.listStock('default', { sku: SKU })).map(({ reserved, available }) => ({
        reserved,
        available,
      }));
    expect(await level(before)).toEqual([{ reserved: 3, available: 17 }]);
    const drift = await before.engine.admin.checkReservations(viewer, 'default');
    expect(drift.mismatches.length).toBeGreaterThan(0);
    await before.close();

    const fresh = track(await serveOver(database.url));
    expect(await level(fresh)).toEqual([{ reserved: 9, available: 11 }]);
    const check = await fresh.engine.admin.checkReservations(viewer, 'default');
    expect(check.mismatches).toEqual([]);

    // Opened again, nothing more is reserved.
    await track.close(fresh);
    const again = track(await serveOver(database.url));
    expect(await level(again)).toEqual([{ reserved: 9, available: 11 }]);
  });
});
