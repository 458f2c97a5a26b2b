import type { Money } from '../money.js';
import type { Timestamp } from '../timestamp.js';

/** Why a customer sent a line back (§ returns of docs/channel-guide.md). */
export const RETURN_REASONS = [
  'damaged',
  'wrong_item',
  'not_as_described',
  'unwanted',
  'other',
] as const;

export type ReturnReason = (typeof RETURN_REASONS)[number];

/** What a receipt may say of the goods of one line. */
export const RECEIPT_QUANTITIES = [
  'qty_restocked',
  'qty_quarantined',
  'qty_disposed',
  'qty_missing',
] as const;

export type ReceiptQuantity = (typeof RECEIPT_QUANTITIES)[number];

export type ReceiptCounts = Record<ReceiptQuantity, number>;

/** One shipped line taken back, with what has come of it so far. */
export interface ReturnLine extends ReceiptCounts {
  /** The fulfillment order item it takes back (its `item_id`). */
  item_id: number;
  fulfillment_order_number: string;
  sku: string;
  name: string;
  /** The quantity the customer sends back. */
  qty: number;
  reason: ReturnReason;
  /** What one unit cost the customer, tax included: what a credit pays back per unit. */
  unit_price_incl_tax: Money;
  /** Of the received qty, how much some credit already paid back. */
  qty_credited: number;
}

export interface ReturnReceipt {
  receipt_number: string;
  items: ({ item_id: number } & ReceiptCounts)[];
  created_at: Timestamp;
}

export interface ReturnCredit {
  credit_note_number: string;
  /** The lines it credits and how many units of each. */
  items: { item_id: number; qty: number }[];
  amount_incl_tax: Money;
  shipping_refund_incl_tax: Money;
  created_at: Timestamp;
}

/** A return (RMA) as the store keeps it: its lines, every receipt and every credit. */
export interface ReturnRecord {
  /** 0 until the repository stores it. */
  id: number;
  store_id: number;
  rma_number: string;
  sales_order_number: string;
  /** The receiving warehouse: where restocked goods go back on hand. */
  warehouse_code: string;
  items: ReturnLine[];
  receipts: ReturnReceipt[];
  credits: ReturnCredit[];
  /** Set when an operator canceled it, which only a return with no receipt can be. */
  canceled_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The goods of a line that arrived (whatever became of them): what a credit pays for. */
export function receivedQty(line: ReceiptCounts): number {
  return line.qty_restocked + line.qty_quarantined + line.qty_disposed;
}

/** What a line still expects: neither received nor declared missing. */
export function outstandingQty(line: ReturnLine): number {
  return line.qty - receivedQty(line) - line.qty_missing;
}

/** Received units of a line that no credit has paid back yet. */
export function uncreditedQty(line: ReturnLine): number {
  return receivedQty(line) - line.qty_credited;
}
