import type { FulfillmentOrder, Invoice } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { call, TOKENS } from '../http/support.js';
import { rawConnection } from './raw-connection.js';
import { closedAfterEach, migrateUpTo, serveOver, storedOrder, upgradeKinds } from './support.js';

/**
 * Orders the release before left with totals that still count the lines they dropped (it did
 * not apply "totals follow the live lines", docs/behaviour.md). The upgrade brings those not
 * yet invoiced to the rule, as an action would: queue documents rewritten under a new change
 * id, `updated_at` moved, the change on the order's timeline; an invoiced order is fiscal history
 * and never changes.
 */

/** The last migration before the one that lists those orders. */
const BEFORE_LIVE_TOTALS = '0009_writer_generation';

/** The fixture's amounts: two lines of 20.00 and 5.00 shipping, in ten-thousandths. */
const OLD_TOTALS = fixtures.order({ store_id: 0 }).amounts;

/**
 * Orders as the release before stored them, written straight into the database; with a deadline,
 * which this code's upgrade would otherwise give them (deadline-backfill.test.ts).
 */
function oldOrders(storeId: number): FulfillmentOrder[] {
  const invoice: Invoice = {
    id: 0,
    invoice_number: 'INV-OLD',
    item_ids: [],
    shipping_amount_incl_tax: 50_000,
    invoice_time: null,
    additional_data: null,
    doc_binary: null,
    created_at: '2025-12-01 10:00:00',
  };
  return [
    // A line rejected, the totals (and the cash to collect on delivery) still counting it.
    fixtures.order({
      store_id: storeId,
      sales_order_number: 'OLD-REJECTED',
      fulfill_by: '2025-12-02 17:00:00',
      items: ['pending_allocation', 'rejected'],
      amounts: { ...OLD_TOTALS, cod_amount: OLD_TOTALS.grand_total as number },
    }),
    // The same, invoiced already.
    fixtures.order({
      store_id: storeId,
      sales_order_number: 'OLD-INVOICED',
      fulfill_by: '2025-12-02 17:00:00',
      items: [
        fixtures.item('SKU-1', { status: 'invoiced', invoice_number: 'INV-OLD' }),
        fixtures.item('SKU-2', { status: 'rejected' }),
      ],
      invoices: [invoice],
    }),
    // Every line live, with totals that are not their sum (a discount): never recomputed.
    fixtures.order({
      store_id: storeId,
      sales_order_number: 'OLD-LIVE',
      fulfill_by: '2025-12-02 17:00:00',
      items: ['pending_allocation', 'pending_allocation'],
      amounts: { ...OLD_TOTALS, grand_total: 430_000 },
    }),
  ];
}

interface Listed {
  fulfillment_order_number: string;
  updated_at: string;
}

const inQueue = (body: Listed[], number: string) =>
  body.find((order) => order.fulfillment_order_number === number);

describe.each(upgradeKinds())('the live-lines upgrade on $name', (kind) => {
  const track = closedAfterEach();

  it('brings the totals of orders not invoiced to their live lines, where every poller sees it', async () => {
    const database = track(await kind.create());
    await migrateUpTo(database.url, BEFORE_LIVE_TOTALS);
    const before = await serveOver(database.url, { skipMigrations: true, seed: true });
    await before.repository.transaction(async (tx) => {
      const store = await tx.findStore('default');
      if (!store) throw new Error('no store');
      await tx.insertOrders(oldOrders(store.id));
    });
    // An ERP that read the queue before the upgrade, and keeps its cursor.
    const read = await call(before, 'GET', '/V1/fulfillmentOrders/pending_allocation', {
      token: TOKENS.erp,
    });
    expect(inQueue(read.body, 'OLD-REJECTED-1')).toMatchObject({ grand_total: 45, cod_amount: 45 });
    const cursor = read.headers.get('fulfil-cursor') as string;
    await before.close();
    const raw = track(await rawConnection(database.url));
    const invoiced = await storedOrder(raw, 'OLD-INVOICED-1');
    const live = await storedOrder(raw, 'OLD-LIVE-1');

    const fresh = track(await serveOver(database.url));

    // The live line is 20.00 (16.3934 + 3.6066 tax), shipping 5.00 (4.0984 + 0.9016).
    const page = await call(fresh, 'GET', '/V1/fulfillmentOrders/pending_allocation', {
      token: TOKENS.erp,
    });
    expect(inQueue(page.body, 'OLD-REJECTED-1')).toMatchObject({
      package_value: 20,
      grand_total: 25,
      grand_total_excl_tax: 20.4918,
      tax_amount: 4.5082,
      cod_amount: 25,
    });
    expect(inQueue(page.body, 'OLD-REJECTED-1')?.updated_at).not.toBe(fixtures.FIXTURE_TIME);
    expect(inQueue(page.body, 'OLD-LIVE-1')).toMatchObject({ grand_total: 43 });
    // A `since` poller from before the upgrade gets the order again (the wait: on Postgres a
    // change is served once no older transaction of the cluster is still open).
    const since = await call(
      fresh,
      'GET',
      `/V1/fulfillmentOrders/pending_allocation?since=${encodeURIComponent(cursor)}&wait=10`,
      { token: TOKENS.erp },
    );
    expect(
      since.body.map(
        (order: { fulfillment_order_number: string }) => order.fulfillment_order_number,
      ),
    ).toContain('OLD-REJECTED-1');

    // On its timeline: who, why, and the totals before and after.
    const timeline = await raw.query<{
      actor: string;
      action: string;
      reason: string;
      details: string;
    }>(
      `select actor, action, reason, details from audit_events
        where order_id = (select id from fulfillment_orders where fulfillment_order_number = $1)`,
      ['OLD-REJECTED-1'],
    );
    expect(timeline).toHaveLength(1);
    expect(timeline[0]).toMatchObject({ actor: 'system', action: 'live_totals' });
    expect(timeline[0]?.reason).toContain('0010_live_totals');
    expect(JSON.parse(timeline[0]?.details as string)).toEqual({
      totals: {
        before: {
          package_value: 40,
          grand_total: 45,
          grand_total_excl_tax: 36.8852,
          tax_amount: 8.1148,
          cod_amount: 45,
        },
        after: {
          package_value: 20,
          grand_total: 25,
          grand_total_excl_tax: 20.4918,
          tax_amount: 4.5082,
          cod_amount: 25,
        },
      },
    });

    // Fiscal history and orders whose lines are all live are left as they were.
    expect(await storedOrder(raw, 'OLD-INVOICED-1')).toEqual(invoiced);
    expect(await storedOrder(raw, 'OLD-LIVE-1')).toEqual(live);
    expect(await raw.query('select * from fulfil_live_totals_due')).toEqual([]);

    // Opened again, nothing more changes.
    const changed = await storedOrder(raw, 'OLD-REJECTED-1');
    await track.close(fresh);
    track(await serveOver(database.url));
    expect(await storedOrder(raw, 'OLD-REJECTED-1')).toEqual(changed);
  });
});
