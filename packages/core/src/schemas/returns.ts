import * as v from 'valibot';
import type { ParsedCredit } from '../domain/returns/credit-return.js';
import type { ParsedReturn } from '../domain/returns/open-return.js';
import type { ParsedReceipt } from '../domain/returns/receive-return.js';
import { RETURN_REASONS } from '../domain/returns/return-record.js';
import { RETURN_STATUSES } from '../domain/returns/return-status.js';
import {
  code,
  itemList,
  money,
  positiveId,
  quantity,
  requiredText,
  STRING_LIMITS,
} from './fields.js';
import { QueuePollParams } from './requests.js';
import { shapeOf } from './shape.js';

/**
 * Request bodies of returns (docs/channel-guide.md, Returns): a channel's return, a partner's
 * receipt, an ERP's credit. Unknown fields are dropped, as for every action.
 */

const positiveQuantity = v.pipe(quantity, v.minValue(1, 'must be at least 1'));
const refund = v.pipe(money, v.minValue(0, 'must be 0 or more'));

export const ReturnInput = shapeOf<ParsedReturn>()(
  v.object({
    rma_number: code,
    sales_order_number: requiredText(STRING_LIMITS.sales_order_number),
    /** The receiving warehouse; the one that shipped the lines when absent. */
    warehouse_code: v.optional(code),
    items: itemList(
      v.object({
        fulfillment_order_number: code,
        item_id: positiveId,
        qty: positiveQuantity,
        reason: v.picklist(RETURN_REASONS, `must be one of ${RETURN_REASONS.join(', ')}`),
      }),
    ),
  }),
);

export const ReturnRequest = v.object({ return: ReturnInput });

export const ReceiptRequest = v.object({
  receipt: shapeOf<ParsedReceipt>()(
    v.object({
      rma_number: code,
      receipt_number: code,
      items: itemList(
        v.pipe(
          v.object({
            item_id: positiveId,
            qty_restocked: v.optional(quantity, 0),
            qty_quarantined: v.optional(quantity, 0),
            qty_disposed: v.optional(quantity, 0),
            qty_missing: v.optional(quantity, 0),
          }),
          v.check(
            (line) =>
              line.qty_restocked + line.qty_quarantined + line.qty_disposed + line.qty_missing > 0,
            'must receive or declare missing at least one unit',
          ),
        ),
      ),
    }),
  ),
});

export const CreditRequest = v.object({
  credit: shapeOf<ParsedCredit>()(
    v.object({
      rma_number: code,
      credit_note_number: code,
      items: itemList(v.object({ item_id: positiveId })),
      shipping_refund_incl_tax: v.optional(refund),
      amount_incl_tax: v.optional(refund),
    }),
  ),
});

/**
 * The console's list of returns (admin API): one status or all, a page after an id, of one
 * sales order or all.
 */
export const ReturnListInput = v.object({
  status: v.optional(v.picklist(RETURN_STATUSES, `must be one of ${RETURN_STATUSES.join(', ')}`)),
  after: QueuePollParams.entries.after,
  sales_order_number: v.optional(requiredText(STRING_LIMITS.sales_order_number)),
});

export type ReturnRequestInput = v.InferInput<typeof ReturnRequest>;
export type ReceiptInput = v.InferInput<typeof ReceiptRequest>;
export type CreditInput = v.InferInput<typeof CreditRequest>;
