import { deriveOrderStatus } from '../order-status.js';
import type { Timestamp } from '../timestamp.js';
import type { FulfillmentOrder, Item, StockDelta, StoreSettings } from '../types.js';

/** What an action function needs besides the order and the request. */
export interface ActionContext {
  now: Timestamp;
  settings: StoreSettings;
}

/** What an action decided; the use case persists it in the same transaction. */
export interface ActionOutcome {
  /** The order after the action; the same object when nothing changed. */
  order: FulfillmentOrder;
  /** False for a retry of an applied action: nothing is written, not even `updated_at`. */
  changed: boolean;
  stock: StockDelta[];
  /** Lines this action rejected, to be rerouted when the store allows it. */
  rejected: Item[];
  /** What the audit trail records of the action. */
  details: Record<string, unknown>;
}

export function unchanged(order: FulfillmentOrder): ActionOutcome {
  return { order, changed: false, stock: [], rejected: [], details: {} };
}

/** Stamps `updated_at` and derives the status from the items, the two things every change does. */
export function touch(order: FulfillmentOrder, now: Timestamp): FulfillmentOrder {
  return { ...order, status: deriveOrderStatus(order.items, order.failure), updated_at: now };
}
