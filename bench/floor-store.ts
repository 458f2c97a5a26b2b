/**
 * The raw floor's store (floor-schema.ts) behind one interface, on better-sqlite3 or pg with
 * prepared statements: what the accept floor server runs, and what the import floor times.
 */
import type { AcceptRequest } from './floor-schema.js';

/** What the floor takes in: the fields of a sales order it stores. */
export interface FloorSalesOrder {
  sales_order_number: string;
  warehouse_code?: string | null;
  items: { sku: string; name: string; qty: number }[];
}

/**
 * Whether the floor's intake reserves each line's qty at its warehouse (`reserving`: one
 * `reserved = reserved + qty` update a line, as committing stock at routing asks) or only writes
 * the stock rows of its skus (`not reserving`: the intake as it was before stock was committed at
 * routing). Accepts never reserve.
 */
export type FloorReservation = 'reserving' | 'not reserving';

export interface FloorStore {
  /** Stores the orders in pending_accept, a thousand per transaction; the accept of each. */
  intake(orders: readonly FloorSalesOrder[]): Promise<AcceptRequest[]>;
  /** Accepts one order in one transaction; the answer's JSON. */
  accept(request: AcceptRequest): Promise<string>;
  /** How many orders the queue holds. */
  count(queue: string): Promise<number>;
  close(): Promise<void>;
}

export const FLOOR_BATCH = 1_000;
export const FLOOR_ACTOR = 'partner-a';

/** `YYYY-MM-DD HH:MM:SS` UTC, the stored timestamp format. */
export function floorTimestamp(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** The order row's header: the sales order without its lines. */
export function floorHeader(order: FloorSalesOrder): string {
  const { items: _lines, ...header } = order;
  return JSON.stringify(header);
}

/** The opening of the stock ledger: every sku of the orders, plenty on hand at its warehouse. */
export function floorStockOf(orders: readonly FloorSalesOrder[]): [string, string][] {
  const keys = new Map<string, [string, string]>();
  for (const order of orders) {
    for (const line of order.items) {
      const warehouse = order.warehouse_code ?? 'WH-A';
      keys.set(`${warehouse}\u0000${line.sku}`, [warehouse, line.sku]);
    }
  }
  return [...keys.values()];
}
