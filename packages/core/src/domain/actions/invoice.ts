import { type ErrorDetail, fieldError, fieldErrors } from '../errors.js';
import type { Money } from '../money.js';
import { formatMoney, fromMoney } from '../money.js';
import type { FulfillmentOrder, Invoice } from '../types.js';
import { assertInFlow } from './item-selection.js';
import { type ActionContext, type ActionOutcome, touch, unchanged } from './outcome.js';

/** An invoice once parsed: the shipping amount in ten-thousandths. */
export interface ParsedInvoice {
  order_id: string;
  items: { item_id: number }[];
  invoice_number: string;
  shipping_amount_incl_tax?: Money;
  invoice_time?: string;
  additional_data?: string;
  doc_binary?: string;
}

/** Whether two lists of item ids name the same items: what a repeat and a reconciliation compare. */
export function sameIds(a: readonly number[], b: readonly number[]): boolean {
  const set = new Set(a);
  return a.length === b.length && b.every((id) => set.has(id));
}

/**
 * The shipping amount the next invoice must state: the order's shipping amount including tax on
 * the first invoice, 0 on every later one (docs/behaviour.md).
 */
export function expectedShippingAmount(order: FulfillmentOrder): number {
  return order.invoices.length === 0 ? (order.amounts.shipping_amount ?? 0) : 0;
}

/**
 * POST invoice (spec invoice rules 1–3): items[] must be exactly the shipped lines awaiting
 * invoice and shipping_amount_incl_tax, when sent, what the order still owes for shipping. A
 * mismatch names each field and the expected value. The same invoice_number again is a retry.
 */
export function invoice(
  order: FulfillmentOrder,
  input: ParsedInvoice,
  context: ActionContext,
): ActionOutcome {
  assertInFlow(order, 'invoice');
  const listed = input.items.map((entry) => entry.item_id);
  input.items.forEach((entry, index) => {
    if (!order.items.some((item) => item.id === entry.item_id)) {
      throw fieldError(
        'unknown_item',
        'Item %fieldValue does not belong to this order.',
        `invoice.items[${index}].item_id`,
        entry.item_id,
      );
    }
  });

  const previous = order.invoices.find(
    (existing) => existing.invoice_number === input.invoice_number,
  );
  if (previous) {
    if (sameIds(previous.item_ids, listed)) return unchanged(order);
    throw fieldError(
      'conflicts_with_applied',
      `Invoice %fieldValue was already issued for items ${previous.item_ids.join(',')}.`,
      'invoice.invoice_number',
      input.invoice_number,
    );
  }
  const elsewhere = order.items.find(
    (item) => listed.includes(item.id) && item.invoice_number !== null,
  );
  if (elsewhere) {
    throw fieldError(
      'conflicts_with_applied',
      `Item %fieldValue is already invoiced under ${elsewhere.invoice_number}.`,
      'invoice.items',
      elsewhere.id,
    );
  }

  const awaiting = order.items
    .filter((item) => item.status === 'pending_invoice')
    .map((item) => item.id);
  const mismatches: ErrorDetail[] = [];
  if (!sameIds(awaiting, listed)) {
    mismatches.push({
      message: `%fieldName must list exactly the shipped items awaiting invoice: [${awaiting.join(',')}].`,
      parameters: [{ fieldName: 'invoice.items', fieldValue: listed.join(',') }],
    });
  }
  const expected = expectedShippingAmount(order);
  const stated = input.shipping_amount_incl_tax;
  if (stated !== undefined && stated !== expected) {
    mismatches.push({
      message: `%fieldName must be ${formatMoney(expected)}.`,
      parameters: [
        { fieldName: 'invoice.shipping_amount_incl_tax', fieldValue: formatMoney(stated) },
      ],
    });
  }
  if (mismatches.length > 0) {
    throw fieldErrors(
      'invoice_mismatch',
      'The invoice does not match the order: %fieldName.',
      mismatches,
    );
  }

  const record: Invoice = {
    id: 0,
    invoice_number: input.invoice_number,
    item_ids: listed,
    shipping_amount_incl_tax: expected,
    invoice_time: input.invoice_time ?? null,
    additional_data: input.additional_data ?? null,
    doc_binary: input.doc_binary ?? null,
    created_at: context.now,
  };
  const ids = new Set(listed);
  const items = order.items.map((item) =>
    ids.has(item.id)
      ? { ...item, status: 'invoiced' as const, invoice_number: input.invoice_number }
      : item,
  );
  return {
    order: touch(
      { ...order, items, invoices: [...order.invoices, record], invoiced_at: context.now },
      context.now,
    ),
    changed: true,
    stock: [],
    rejected: [],
    details: {
      invoice_number: input.invoice_number,
      items: listed,
      // The audit trail is read by people and integrators: API units, like the history.
      shipping_amount_incl_tax: fromMoney(expected),
    },
  };
}
