import { type ItemStage, isLive, stageRank } from './item-stage.js';
import type { Item, OrderFailure, OrderStatus } from './types.js';

const PARTIAL_STATUS: Record<Exclude<ItemStage, 'invoiced'>, OrderStatus> = {
  pending_accept: 'partially_accepted',
  pending_allocation: 'partially_allocated',
  pending_shipment: 'partially_shipped',
  pending_invoice: 'partially_invoiced',
};

/**
 * The order status as docs/behaviour.md defines it: a pure function of the item stages of the live
 * items and of whether the order was taken out of the flow.
 */
export function deriveOrderStatus(
  items: readonly Pick<Item, 'status'>[],
  failure: OrderFailure | null,
): OrderStatus {
  if (failure) return 'failed';
  const live = items.filter(isLive).map((item) => item.status as ItemStage);
  if (live.length === 0) {
    return items.some((item) => item.status === 'canceled') ? 'canceled' : 'rejected';
  }
  const lowest = live.reduce((a, b) => (stageRank(a) <= stageRank(b) ? a : b));
  if (live.every((stage) => stage === lowest)) return lowest;
  return PARTIAL_STATUS[lowest as Exclude<ItemStage, 'invoiced'>];
}
