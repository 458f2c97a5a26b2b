import {
  type FulfillmentOrder,
  ITEM_TRANSITIONS,
  type ItemAction,
  type ItemStatus,
  isApplied,
  type StockLevel,
} from '@fulfil/core';

export type OrderAction = 'accept' | 'reject' | 'allocate' | 'ship' | 'invoice';

/** One order action the server acknowledged with a 2xx. */
export interface AcknowledgedAction {
  action: OrderAction;
  order: string;
  /** The items it named; an accept entry with qty 0 turns the item down. */
  items: { item_id: number; qty?: number }[];
  /** The ship's unique track number. */
  track?: string;
  invoice_number?: string;
}

/** A change of on hand the server acknowledged, in the order it was applied. */
export type OnHandChange = { kind: 'sync'; qty: number } | { kind: 'ship'; qty: number };

const stockKey = (warehouseCode: string, sku: string): string => `${warehouseCode}/${sku}`;

/** The item-level move an acknowledged action made: an accept entry with qty 0 is a reject. */
const moveOf = (action: AcknowledgedAction, entry: { qty?: number }): ItemAction =>
  action.action === 'accept' && entry.qty === 0 ? 'reject' : action.action;

/** Where an item is once the acknowledged action has applied to it. */
const targetOf = (action: AcknowledgedAction, entry: { qty?: number }): ItemStatus =>
  ITEM_TRANSITIONS[moveOf(action, entry)].to;

const sameIds = (a: readonly number[], b: readonly number[]): boolean =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Why the stored order lacks the acknowledged action's effect; null when the effect is there. */
function missingEffect(action: AcknowledgedAction, order: FulfillmentOrder): string | null {
  for (const entry of action.items) {
    const item = order.items.find((candidate) => candidate.id === entry.item_id);
    // Applied means there, or moved on from there by a later action.
    if (!item || !isApplied(moveOf(action, entry), item.status)) {
      const target = targetOf(action, entry);
      return `item ${entry.item_id} is ${item?.status ?? 'missing'}, acknowledged as ${target}`;
    }
  }
  const ids = action.items.map((entry) => entry.item_id);
  if (action.action === 'ship') {
    const shipment = order.shipments.find((candidate) =>
      candidate.tracks.some((track) => track.track_number === action.track),
    );
    if (!shipment) return `no shipment with track ${action.track}`;
    const shipped = shipment.items.map((line) => line.item_id);
    if (!sameIds(shipped, ids)) return `shipment ${action.track} lists items ${shipped}`;
  }
  if (action.action === 'invoice') {
    const invoice = order.invoices.find((item) => item.invoice_number === action.invoice_number);
    if (!invoice) return `no invoice ${action.invoice_number}`;
    if (!sameIds(invoice.item_ids, ids)) {
      return `invoice ${action.invoice_number} lists items ${invoice.item_ids}`;
    }
  }
  return null;
}

/**
 * Everything the load had acknowledged. The load takes every action to a definite answer
 * (a request cut off by a kill is sent again until one comes), so the ledger also tells the
 * exact state the database must be in.
 */
export class Ledger {
  readonly actions: AcknowledgedAction[] = [];
  /** By `warehouse/sku`, in the order applied (the load serialises these per row). */
  readonly onHand = new Map<string, OnHandChange[]>();
  stockSyncs = 0;

  acknowledge(action: AcknowledgedAction): void {
    this.actions.push(action);
  }

  changeOnHand(warehouseCode: string, sku: string, change: OnHandChange): void {
    const key = stockKey(warehouseCode, sku);
    this.onHand.set(key, [...(this.onHand.get(key) ?? []), change]);
  }

  /** Acknowledged actions whose effect is missing from `orders`, with the reason. */
  lost(orders: readonly FulfillmentOrder[]): string[] {
    const byNumber = new Map(orders.map((order) => [order.fulfillment_order_number, order]));
    return this.actions.flatMap((action) => {
      const order = byNumber.get(action.order);
      const missing = order ? missingEffect(action, order) : 'the order is missing';
      return missing ? [`${action.action} ${action.order}: ${missing}`] : [];
    });
  }

  /**
   * Items whose stored status differs from the one the acknowledged actions put them in (an
   * item no action named stays pending_accept).
   */
  unexpectedStatuses(orders: readonly FulfillmentOrder[]): string[] {
    const expected = new Map<number, ItemStatus>();
    for (const action of this.actions) {
      for (const entry of action.items) expected.set(entry.item_id, targetOf(action, entry));
    }
    return orders.flatMap((order) =>
      order.items
        .filter((item) => item.status !== (expected.get(item.id) ?? 'pending_accept'))
        .map(
          (item) =>
            `${order.fulfillment_order_number} item ${item.id} is ${item.status}, expected ${expected.get(item.id) ?? 'pending_accept'}`,
        ),
    );
  }

  /** Stock rows whose on hand is not what the acknowledged syncs and ships leave. */
  onHandMismatches(initial: ReadonlyMap<string, number>, stock: readonly StockLevel[]): string[] {
    const stored = new Map(
      stock.map((row) => [stockKey(row.warehouse_code, row.sku), row.on_hand]),
    );
    const keys = new Set([...initial.keys(), ...this.onHand.keys()]);
    return [...keys].flatMap((key) => {
      const expected = (this.onHand.get(key) ?? []).reduce(
        (qty, change) => (change.kind === 'sync' ? change.qty : qty - change.qty),
        initial.get(key) ?? 0,
      );
      const actual = stored.get(key);
      return actual === expected ? [] : [`${key}: on hand ${actual}, expected ${expected}`];
    });
  }
}
