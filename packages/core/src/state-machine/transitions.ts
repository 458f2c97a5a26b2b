import { ITEM_STAGES, type ItemStage, stageRank } from '../domain/item-stage.js';
import type { ItemStatus } from '../domain/types.js';

/** The item-level actions of the flow, public (REST) and operator. */
export type ItemAction = 'accept' | 'reject' | 'allocate' | 'ship' | 'invoice' | 'cancel';

export interface Transition {
  from: readonly ItemStatus[];
  to: ItemStatus;
}

/**
 * Every move an item can make, as data. Guards that need more than the item's status (partials,
 * quantities, invoice reconciliation) live in the action functions; this table is what they all
 * consult to know whether a stage is the right one.
 */
export const ITEM_TRANSITIONS: Readonly<Record<ItemAction, Transition>> = {
  accept: { from: ['pending_accept'], to: 'pending_allocation' },
  reject: { from: ['pending_accept'], to: 'rejected' },
  allocate: { from: ['pending_allocation'], to: 'pending_shipment' },
  ship: { from: ['pending_shipment'], to: 'pending_invoice' },
  invoice: { from: ['pending_invoice'], to: 'invoiced' },
  cancel: { from: ['pending_accept', 'pending_allocation', 'pending_shipment'], to: 'canceled' },
};

export const INITIAL_ITEM_STATUSES: readonly ItemStatus[] = [
  'pending_accept',
  'pending_allocation',
];

export function canApply(action: ItemAction, status: ItemStatus): boolean {
  return ITEM_TRANSITIONS[action].from.includes(status);
}

function isStage(status: ItemStatus): status is ItemStage {
  return (ITEM_STAGES as readonly ItemStatus[]).includes(status);
}

/**
 * True when the item already sits where `action` would put it, or has moved on from there: a
 * retry, not a new request.
 */
export function isApplied(action: ItemAction, status: ItemStatus): boolean {
  const target = ITEM_TRANSITIONS[action].to;
  if (isStage(target) && isStage(status)) return stageRank(status) >= stageRank(target);
  return target === status;
}
