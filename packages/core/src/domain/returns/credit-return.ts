import { sameIds } from '../actions/invoice.js';
import { type ErrorDetail, fieldError, fieldErrors } from '../errors.js';
import { formatMoney, fromMoney, type Money } from '../money.js';
import type { Timestamp } from '../timestamp.js';
import { assertOpen, type ReturnOutcome } from './return-outcome.js';
import { type ReturnCredit, type ReturnRecord, uncreditedQty } from './return-record.js';

/** An ERP's credit once parsed: amounts in ten-thousandths. */
export interface ParsedCredit {
  rma_number: string;
  credit_note_number: string;
  items: { item_id: number }[];
  shipping_refund_incl_tax?: Money;
  amount_incl_tax?: Money;
}

/** What reconciling a credit needs besides the return and the request. */
export interface CreditContext {
  now: Timestamp;
  /** The shipping the sales order paid, tax included, over all its fulfillment orders. */
  shipping_paid: Money;
  /** The shipping every credit of the sales order's returns (this one's among them) already refunded. */
  shipping_refunded: Money;
}

/** The amount a credit of these lines must state: their received, uncredited units at their price. */
export function expectedCreditAmount(record: ReturnRecord, refund: Money): Money {
  return record.items.reduce(
    (sum, line) => sum + uncreditedQty(line) * line.unit_price_incl_tax,
    refund,
  );
}

/**
 * A credit by the ERP (docs/erp-guide.md, Returns), reconciled like an invoice: `items` exactly
 * the lines with received units not yet credited; the shipping refund at most what the sales
 * order paid for shipping less what its other credits refunded; the amount, when sent, the
 * received units at their unit price including tax plus that refund. A mismatch names each field
 * and the expected value. The same `credit_note_number` for the same lines is a retry.
 */
export function creditReturn(
  record: ReturnRecord,
  input: ParsedCredit,
  context: CreditContext,
): ReturnOutcome {
  assertOpen(record, 'credit');
  const listed = input.items.map((entry) => entry.item_id);
  input.items.forEach((entry, index) => {
    if (!record.items.some((line) => line.item_id === entry.item_id)) {
      throw fieldError(
        'unknown_item',
        'Item %fieldValue is not a line of this return.',
        `credit.items[${index}].item_id`,
        entry.item_id,
      );
    }
  });
  const previous = record.credits.find((c) => c.credit_note_number === input.credit_note_number);
  if (previous) {
    const ids = previous.items.map((line) => line.item_id);
    if (sameIds(ids, listed)) {
      return { record, changed: false, stock: [], quarantine: [], details: {} };
    }
    throw fieldError(
      'conflicts_with_applied',
      `Credit note %fieldValue was already issued for items ${ids.join(',')}.`,
      'credit.credit_note_number',
      input.credit_note_number,
    );
  }

  const awaiting = record.items.filter((line) => uncreditedQty(line) > 0).map((l) => l.item_id);
  const refund = input.shipping_refund_incl_tax ?? 0;
  const refundable = Math.max(0, context.shipping_paid - context.shipping_refunded);
  const expected = expectedCreditAmount(record, Math.min(refund, refundable));
  const mismatches: ErrorDetail[] = [];
  if (!sameIds(awaiting, listed)) {
    mismatches.push({
      message: `%fieldName must list exactly the received items awaiting credit: [${awaiting.join(',')}].`,
      parameters: [{ fieldName: 'credit.items', fieldValue: listed.join(',') }],
    });
  }
  if (refund > refundable) {
    mismatches.push({
      message: `%fieldName must be at most ${formatMoney(refundable)}: the shipping the sales order paid less what its credits refunded.`,
      parameters: [
        { fieldName: 'credit.shipping_refund_incl_tax', fieldValue: formatMoney(refund) },
      ],
    });
  }
  const stated = input.amount_incl_tax;
  if (stated !== undefined && stated !== expected) {
    mismatches.push({
      message: `%fieldName must be ${formatMoney(expected)}.`,
      parameters: [{ fieldName: 'credit.amount_incl_tax', fieldValue: formatMoney(stated) }],
    });
  }
  if (mismatches.length > 0) {
    throw fieldErrors(
      'credit_mismatch',
      'The credit does not match the return: %fieldName.',
      mismatches,
    );
  }

  const credit: ReturnCredit = {
    credit_note_number: input.credit_note_number,
    items: record.items
      .filter((line) => uncreditedQty(line) > 0)
      .map((line) => ({ item_id: line.item_id, qty: uncreditedQty(line) })),
    amount_incl_tax: expected,
    shipping_refund_incl_tax: refund,
    created_at: context.now,
  };
  const items = record.items.map((line) =>
    uncreditedQty(line) > 0
      ? { ...line, qty_credited: line.qty_credited + uncreditedQty(line) }
      : line,
  );
  return {
    record: { ...record, items, credits: [...record.credits, credit], updated_at: context.now },
    changed: true,
    stock: [],
    quarantine: [],
    details: {
      rma_number: record.rma_number,
      credit_note_number: credit.credit_note_number,
      items: credit.items,
      // The timeline is read by people and integrators: API units.
      amount_incl_tax: fromMoney(credit.amount_incl_tax),
      shipping_refund_incl_tax: fromMoney(credit.shipping_refund_incl_tax),
    },
  };
}
