import type { Item, ItemStatus, QueueName, StockDelta } from './types.js';

/** The forward stages of an item, in flow order. */
export const ITEM_STAGES = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'invoiced',
] as const satisfies readonly ItemStatus[];

export type ItemStage = (typeof ITEM_STAGES)[number];

export function isLive(item: Pick<Item, 'status'>): boolean {
  return item.status !== 'rejected' && item.status !== 'canceled';
}

export function stageRank(status: ItemStage): number {
  return ITEM_STAGES.indexOf(status);
}

/**
 * Stock is committed when a line is routed (docs/behaviour.md, Stock): a live line holds its qty
 * reserved at its warehouse from intake until the goods leave, held or not.
 */
export function holdsReservation(status: ItemStatus): boolean {
  return (
    status === 'pending_accept' || status === 'pending_allocation' || status === 'pending_shipment'
  );
}

/** The stock deltas that free what these lines hold reserved (those that hold any). */
export function freedReservations(lines: readonly Item[]): StockDelta[] {
  return lines
    .filter((item) => holdsReservation(item.status))
    .map((item) => ({
      warehouse_code: item.warehouse_code,
      sku: item.sku,
      on_hand: 0,
      reserved: -item.qty,
    }));
}

export const ACTIVE_QUEUES = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
] as const satisfies readonly QueueName[];

export const QUEUES = [
  ...ACTIVE_QUEUES,
  'failed',
  'pending_cancellation',
] as const satisfies readonly QueueName[];
