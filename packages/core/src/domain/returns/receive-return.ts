import { type ErrorDetail, fieldError, fieldErrors } from '../errors.js';
import type { Timestamp } from '../timestamp.js';
import type { StockDelta } from '../types.js';
import { assertOpen, type ReturnOutcome } from './return-outcome.js';
import {
  outstandingQty,
  RECEIPT_QUANTITIES,
  type ReceiptCounts,
  type ReturnRecord,
} from './return-record.js';

/** A partner's receipt once parsed: every count of a line present, 0 when not sent. */
export interface ParsedReceipt {
  rma_number: string;
  receipt_number: string;
  items: {
    item_id: number;
    qty_restocked: number;
    qty_quarantined: number;
    qty_disposed: number;
    qty_missing: number;
  }[];
}

function sameCounts(a: ReceiptCounts, b: ReceiptCounts): boolean {
  return RECEIPT_QUANTITIES.every((field) => a[field] === b[field]);
}

/**
 * A receipt at the receiving warehouse (docs/partner-guide.md, Returns): per line, what was
 * restocked (back on hand there), quarantined (counted apart, never available), disposed, or
 * found missing; partial or whole, never beyond what the line still expects. The same
 * `receipt_number` with the same lines is a retry and changes nothing.
 */
export function receiveReturn(
  record: ReturnRecord,
  input: ParsedReceipt,
  now: Timestamp,
): ReturnOutcome {
  assertOpen(record, 'receipt');
  const previous = record.receipts.find((r) => r.receipt_number === input.receipt_number);
  if (previous) {
    const same =
      previous.items.length === input.items.length &&
      input.items.every((entry) => {
        const applied = previous.items.find((line) => line.item_id === entry.item_id);
        return applied !== undefined && sameCounts(applied, entry);
      });
    if (same) return { record, changed: false, stock: [], quarantine: [], details: {} };
    throw fieldError(
      'conflicts_with_applied',
      'Receipt %fieldValue was already recorded with other lines.',
      'receipt.receipt_number',
      input.receipt_number,
    );
  }
  const problems: ErrorDetail[] = [];
  input.items.forEach((entry, index) => {
    const line = record.items.find((candidate) => candidate.item_id === entry.item_id);
    if (!line) {
      problems.push({
        message: 'Item %fieldValue is not a line of this return.',
        parameters: [
          { fieldName: `receipt.items[${index}].item_id`, fieldValue: String(entry.item_id) },
        ],
      });
      return;
    }
    const stated = RECEIPT_QUANTITIES.reduce((sum, field) => sum + entry[field], 0);
    const expected = outstandingQty(line);
    if (stated > expected) {
      problems.push({
        message: `%fieldName must account for at most ${expected} units: the line expects no more.`,
        parameters: [{ fieldName: `receipt.items[${index}]`, fieldValue: String(stated) }],
      });
    }
  });
  if (problems.length > 0) {
    const unknown = problems.some((p) => p.parameters[0]?.fieldName?.endsWith('.item_id'));
    throw fieldErrors(
      unknown ? 'unknown_item' : 'qty_mismatch',
      (problems[0] as ErrorDetail).message,
      problems,
    );
  }
  const items = record.items.map((line) => {
    const entry = input.items.find((candidate) => candidate.item_id === line.item_id);
    if (!entry) return line;
    const next = { ...line };
    for (const field of RECEIPT_QUANTITIES) next[field] += entry[field];
    return next;
  });
  const skuOf = new Map(record.items.map((line) => [line.item_id, line.sku]));
  // A quarantined sku gets its stock row too (at 0 more on hand), so the stock page lists it.
  const stock: StockDelta[] = input.items
    .filter((entry) => entry.qty_restocked > 0 || entry.qty_quarantined > 0)
    .map((entry) => ({
      warehouse_code: record.warehouse_code,
      sku: skuOf.get(entry.item_id) as string,
      on_hand: entry.qty_restocked,
      reserved: 0,
    }));
  const quarantine = input.items
    .filter((entry) => entry.qty_quarantined > 0)
    .map((entry) => ({
      warehouse_code: record.warehouse_code,
      sku: skuOf.get(entry.item_id) as string,
      qty: entry.qty_quarantined,
    }));
  const receipt = {
    receipt_number: input.receipt_number,
    items: input.items.map((entry) => ({
      item_id: entry.item_id,
      qty_restocked: entry.qty_restocked,
      qty_quarantined: entry.qty_quarantined,
      qty_disposed: entry.qty_disposed,
      qty_missing: entry.qty_missing,
    })),
    created_at: now,
  };
  return {
    record: { ...record, items, receipts: [...record.receipts, receipt], updated_at: now },
    changed: true,
    stock,
    quarantine,
    details: {
      rma_number: record.rma_number,
      receipt_number: receipt.receipt_number,
      items: receipt.items,
    },
  };
}
