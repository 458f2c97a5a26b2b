import * as v from 'valibot';
import { RETURN_REASONS } from '../domain/returns/return-record.js';
import type { ReturnResource } from '../domain/returns/return-resource.js';
import { RETURN_STATUSES } from '../domain/returns/return-status.js';
import { TIMESTAMP_PATTERN } from '../domain/timestamp.js';
import { shapeOf } from './shape.js';

/**
 * A return as the API shows it (docs/channel-guide.md, Returns): in its queues, in the answers of
 * its actions and in the Sales order view. The OpenAPI document is generated from this object.
 */

const integer = v.pipe(v.number(), v.integer());
const timestamp = v.pipe(
  v.string(),
  v.regex(TIMESTAMP_PATTERN),
  v.description('UTC, "YYYY-MM-DD HH:MM:SS"'),
);

const receiptCounts = {
  qty_restocked: v.pipe(integer, v.description('Back on hand at the receiving warehouse.')),
  qty_quarantined: v.pipe(integer, v.description('Counted apart there, never available.')),
  qty_disposed: integer,
  qty_missing: v.pipe(integer, v.description('Expected and never received: not credited.')),
};

export const ReturnResourceSchema = shapeOf<ReturnResource>()(
  v.object({
    id: v.pipe(
      integer,
      v.description("The return's id in Fulfil: `after` of its queues pages by it."),
    ),
    rma_number: v.string(),
    sales_order_number: v.string(),
    warehouse_code: v.pipe(v.string(), v.description('The receiving warehouse.')),
    status: v.pipe(
      v.picklist(RETURN_STATUSES),
      v.description(
        'pending_receipt while some qty is neither received nor missing; else pending_credit while some received qty is not credited; then credited, or closed when nothing was received; canceled by an operator before any receipt.',
      ),
    ),
    created_at: timestamp,
    updated_at: timestamp,
    items: v.array(
      v.object({
        item_id: integer,
        fulfillment_order_number: v.string(),
        sku: v.string(),
        name: v.string(),
        qty: v.pipe(integer, v.description('The quantity sent back.')),
        reason: v.picklist(RETURN_REASONS),
        price: v.pipe(
          v.number(),
          v.description('Unit price including tax: what a credit pays back per unit.'),
        ),
        ...receiptCounts,
        qty_credited: integer,
      }),
    ),
    receipts: v.array(
      v.object({
        receipt_number: v.string(),
        created_at: timestamp,
        items: v.array(v.object({ item_id: integer, ...receiptCounts })),
      }),
    ),
    credits: v.array(
      v.object({
        credit_note_number: v.string(),
        created_at: timestamp,
        items: v.array(v.object({ item_id: integer, qty: integer })),
        amount_incl_tax: v.number(),
        shipping_refund_incl_tax: v.number(),
      }),
    ),
  }),
);
