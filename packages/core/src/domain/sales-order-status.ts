import { isLive } from './item-stage.js';
import type { Item } from './types.js';

/** The status of a sales order (docs/channel-guide.md), over all its fulfillment orders. */
export const SALES_ORDER_STATUSES = [
  'on_hold',
  'open',
  'partially_shipped',
  'shipped',
  'invoiced',
  'canceled',
  'rejected',
] as const;

export type SalesOrderStatus = (typeof SALES_ORDER_STATUSES)[number];

const SHIPPED = new Set<Item['status']>(['pending_invoice', 'invoiced']);

/**
 * `on_hold` while a hold is active; else, over the live lines (neither rejected nor canceled) of
 * all the sales order's fulfillment orders: `invoiced` when all are invoiced, `shipped` when all
 * have shipped (invoiced or not), `partially_shipped` when some have, `open` otherwise. With no
 * live line: `canceled` when some line was canceled, else `rejected`.
 */
export function deriveSalesOrderStatus(
  lines: readonly Pick<Item, 'status'>[],
  activeHolds: number,
): SalesOrderStatus {
  if (activeHolds > 0) return 'on_hold';
  const live = lines.filter(isLive);
  if (live.length === 0) {
    return lines.some((line) => line.status === 'canceled') ? 'canceled' : 'rejected';
  }
  if (live.every((line) => line.status === 'invoiced')) return 'invoiced';
  const shipped = live.filter((line) => SHIPPED.has(line.status)).length;
  if (shipped === live.length) return 'shipped';
  return shipped > 0 ? 'partially_shipped' : 'open';
}
