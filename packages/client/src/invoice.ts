import type { FulfillmentOrder, InvoiceRequest } from './generated/index.js';

/** What the ERP decides about an invoice; the rest comes from the order. */
export interface InvoiceDetails {
  /** Your fiscal number. Send the same number again for the same items to retry safely. */
  invoice_number: string;
  invoice_time?: string;
  additional_data?: string;
  doc_binary?: string;
}

/**
 * The invoice of an order as the pending_invoice queue shows it: exactly its items awaiting
 * invoice, and `shipping_amount_incl_tax` as the service expects it — the order's shipping
 * amount (incl. tax) on its first invoice, 0 on every later one. An order that was invoiced
 * before carries `invoiced_at`.
 */
export function invoiceFor(order: FulfillmentOrder, details: InvoiceDetails): InvoiceRequest {
  const first = order.invoiced_at === undefined;
  return {
    invoice: {
      order_id: order.fulfillment_order_number,
      items: order.items.map((item) => ({ item_id: item.id })),
      shipping_amount_incl_tax: first ? (order.shipping_amount ?? 0) : 0,
      ...details,
    },
  };
}
