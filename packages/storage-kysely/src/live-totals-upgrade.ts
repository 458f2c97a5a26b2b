import { liveTotalsUpgrade } from '@fulfil/core';
import type { ListedOrderUpgrade } from './listed-order-upgrade.js';

/**
 * Brings the orders migration 0010 listed to the live-lines rule (core's `liveTotalsUpgrade`):
 * `live_totals` on the timeline of each order it changed, with the totals before and after.
 */
export const LIVE_TOTALS_UPGRADE: ListedOrderUpgrade = {
  list: 'fulfil_live_totals_due',
  action: 'live_totals',
  reason: 'upgrade: the totals follow the live lines (migration 0010_live_totals)',
  // Some line no longer live, and no invoice yet (an invoiced order is fiscal history).
  async listStore(db, storeId) {
    await db
      .insertInto('fulfil_live_totals_due')
      .columns(['order_id'])
      .expression(
        db
          .selectFrom('fulfillment_orders as o')
          .select('o.id')
          .where('o.store_id', '=', storeId)
          .where(({ exists, not, selectFrom }) =>
            not(
              exists(
                selectFrom('invoices as i').select('i.id').whereRef('i.order_id', '=', 'o.id'),
              ),
            ),
          )
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('order_items as t')
                .select('t.id')
                .whereRef('t.order_id', '=', 'o.id')
                .where('t.status', 'in', ['rejected', 'canceled']),
            ),
          ),
      )
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  },
  upgrade(order, at) {
    const upgraded = liveTotalsUpgrade(order, at);
    return upgraded && { order: upgraded.order, details: [upgraded.details] };
  },
};
