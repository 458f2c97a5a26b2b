import { liveTotalsUpgrade } from '@fulfil/core';
import type { ListedOrderUpgrade } from './listed-order-upgrades.js';

/**
 * Brings the orders migration 0010 listed to the live-lines rule (core's `liveTotalsUpgrade`):
 * `live_totals` on the timeline of each order it changed, with the totals before and after.
 */
export const LIVE_TOTALS_UPGRADE: ListedOrderUpgrade = {
  list: 'fulfil_live_totals_due',
  action: 'live_totals',
  reason: 'upgrade: the totals follow the live lines (migration 0010_live_totals)',
  upgrade(order, at) {
    const upgraded = liveTotalsUpgrade(order, at);
    return upgraded && { order: upgraded.order, details: [upgraded.details] };
  },
};
