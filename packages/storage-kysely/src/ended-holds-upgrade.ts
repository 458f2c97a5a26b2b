import { ENDED_HOLDS_UPGRADE, endedHoldsUpgrade } from '@fulfil/core';
import type { ListedOrderUpgrade } from './listed-order-upgrade.js';

/**
 * Releases the holds of the canceled orders migration 0022 listed (core's `endedHoldsUpgrade`):
 * a `release` entry per handle on the timeline of each order it changed.
 */
export const ENDED_HOLDS_ORDER_UPGRADE: ListedOrderUpgrade = {
  list: 'fulfil_ended_holds_due',
  action: 'release',
  reason: ENDED_HOLDS_UPGRADE.reason,
  // Canceled or rejected, and some hold of it never released.
  async listStore(db, storeId) {
    await db
      .insertInto('fulfil_ended_holds_due')
      .columns(['order_id'])
      .expression(
        db
          .selectFrom('fulfillment_orders')
          .select('id')
          .where('store_id', '=', storeId)
          .where('holds', 'like', '%"released_at":null%')
          .where('status', 'in', ['canceled', 'rejected']),
      )
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  },
  upgrade: endedHoldsUpgrade,
};
