import { fromMoney } from '../money.js';
import type { ReturnRecord } from './return-record.js';
import type { ReturnResource } from './return-resource.js';
import { deriveReturnStatus } from './return-status.js';

/** A return as the API shows it: its status, lines, receipts and credits, amounts in API units. */
export function presentReturn(record: ReturnRecord): ReturnResource {
  return {
    id: record.id,
    rma_number: record.rma_number,
    sales_order_number: record.sales_order_number,
    warehouse_code: record.warehouse_code,
    status: deriveReturnStatus(record),
    created_at: record.created_at,
    updated_at: record.updated_at,
    items: record.items.map(({ unit_price_incl_tax, ...line }) => ({
      item_id: line.item_id,
      fulfillment_order_number: line.fulfillment_order_number,
      sku: line.sku,
      name: line.name,
      qty: line.qty,
      reason: line.reason,
      price: fromMoney(unit_price_incl_tax),
      qty_restocked: line.qty_restocked,
      qty_quarantined: line.qty_quarantined,
      qty_disposed: line.qty_disposed,
      qty_missing: line.qty_missing,
      qty_credited: line.qty_credited,
    })),
    receipts: record.receipts.map((receipt) => ({
      receipt_number: receipt.receipt_number,
      created_at: receipt.created_at,
      items: receipt.items.map((line) => ({ ...line })),
    })),
    credits: record.credits.map((credit) => ({
      credit_note_number: credit.credit_note_number,
      created_at: credit.created_at,
      items: credit.items.map((line) => ({ ...line })),
      amount_incl_tax: fromMoney(credit.amount_incl_tax),
      shipping_refund_incl_tax: fromMoney(credit.shipping_refund_incl_tax),
    })),
  };
}
