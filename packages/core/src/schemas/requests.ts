import * as v from 'valibot';
import type { ParsedAccept } from '../domain/actions/accept.js';
import type { ParsedAllocation } from '../domain/actions/allocate.js';
import type { ParsedInvoice } from '../domain/actions/invoice.js';
import type { ParsedReject } from '../domain/actions/reject.js';
import type { ParsedShipment } from '../domain/actions/ship.js';
import { PAGE_SIZE } from '../domain/paging.js';
import { ADJUSTMENT_REASONS, type ParsedAdjustment } from '../domain/stock-adjustment.js';
import type { ParsedStockItems } from '../domain/stock-batch.js';
import {
  boundedText,
  code,
  itemList,
  label,
  money,
  optionalCode,
  orderId,
  positiveId,
  quantity,
  STRING_LIMITS,
  timestamp,
} from './fields.js';
import { shapeOf } from './shape.js';

/**
 * Request bodies of the public endpoints. Unknown fields are dropped on parsing (docs/behaviour.md), so
 * nothing a client invents ever reaches storage.
 */

export const MAX_STOCK_BATCH = 10_000;

export const StockItem = v.object({
  warehouse_code: code,
  sku: code,
  qty: quantity,
  /** The on hand the sender believes current: the set applies only while it still is. */
  change_from: v.optional(quantity),
});

export const StockItemsRequest = shapeOf<ParsedStockItems>()(
  v.object({
    stock_items: v.pipe(
      v.array(StockItem),
      v.maxLength(MAX_STOCK_BATCH, `must hold at most ${MAX_STOCK_BATCH} entries`),
    ),
  }),
);

/** A change of on hand by a delta: never 0, a safe integer either way. */
const delta = v.pipe(
  v.number(),
  v.safeInteger('must be an integer'),
  v.check((value) => value !== 0, 'must not be 0'),
);

export const StockAdjustmentRequest = v.object({
  adjustment: shapeOf<ParsedAdjustment>()(
    v.object({
      adjustment_number: code,
      items: v.pipe(
        v.array(
          v.object({
            warehouse_code: code,
            sku: code,
            delta,
            reason: v.picklist(
              ADJUSTMENT_REASONS,
              `must be one of ${ADJUSTMENT_REASONS.join(', ')}`,
            ),
          }),
        ),
        v.minLength(1, 'must list at least one item'),
        v.maxLength(MAX_STOCK_BATCH, `must hold at most ${MAX_STOCK_BATCH} entries`),
      ),
    }),
  ),
});

export const AcceptRequest = v.object({
  order: shapeOf<ParsedAccept>()(
    v.object({
      order_id: orderId,
      items: itemList(v.object({ item_id: positiveId, qty: quantity })),
    }),
  ),
});

export const RejectRequest = v.object({
  order: shapeOf<ParsedReject>()(
    v.object({
      order_id: orderId,
      items: itemList(v.object({ item_id: positiveId })),
    }),
  ),
});

const Allocation = shapeOf<ParsedAllocation>()(
  v.object({
    order_id: orderId,
    items: itemList(
      v.object({
        item_id: positiveId,
        /** Ignored, as the spec says; accepted so that ERPs may send it. */
        qty: v.optional(v.number()),
        /** Allocate from another warehouse than the item's: an inter-warehouse transfer. */
        warehouse_code: v.optional(code),
      }),
    ),
  }),
);

/** The reference names the key `allocation`; the ERP guide's sample writes `order`. Both work. */
export const AllocateRequest = v.pipe(
  v.union(
    [v.object({ allocation: Allocation }), v.object({ order: Allocation })],
    'must hold an "allocation" object',
  ),
  v.transform((body) => ({ allocation: 'allocation' in body ? body.allocation : body.order })),
);

export const TrackInput = v.object({
  carrier_code: optionalCode,
  title: label,
  track_number: code,
});

export const ShipRequest = v.object({
  shipment: shapeOf<ParsedShipment>()(
    v.object({
      order_id: orderId,
      items: itemList(v.object({ item_id: positiveId, qty: v.optional(v.number()) })),
      carrier_tracking_number: v.optional(optionalCode),
      carrier_title: v.optional(label),
      tracks: v.optional(v.array(TrackInput)),
    }),
  ),
});

export const InvoiceRequest = v.object({
  invoice: shapeOf<ParsedInvoice>()(
    v.object({
      order_id: orderId,
      items: itemList(v.object({ item_id: positiveId })),
      invoice_number: code,
      shipping_amount_incl_tax: v.optional(money),
      invoice_time: v.optional(optionalCode),
      additional_data: v.optional(boundedText(STRING_LIMITS.additional_data)),
      doc_binary: v.optional(boundedText(STRING_LIMITS.document)),
    }),
  ),
});

/** The last page that can be asked for: beyond it the page's offset is no longer a safe integer. */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / PAGE_SIZE);

const PAGE_MESSAGE = `must be an integer from 1 to ${MAX_PAGE}`;

/** A whole number from `min` to `max`, as query text or as a number from embedding code. */
function queryInteger(message: string, min: number, max: number) {
  return v.pipe(
    v.union([v.pipe(v.string(), v.regex(/^\d+$/, message)), v.number()], message),
    v.transform((value: string | number) => Number(value)),
    v.safeInteger(message),
    v.minValue(min, message),
    v.maxValue(max, message),
  );
}

const page = queryInteger(PAGE_MESSAGE, 1, MAX_PAGE);

/** The polling parameters of every queue (and `page` of warehouses); query values arrive as text. */
export const PollParams = v.object({
  page: v.optional(page, 1),
  date: v.optional(timestamp),
});

const AFTER_MESSAGE = 'must be an integer of 0 or more';
const WAIT_MESSAGE = 'must be a whole number of seconds, 0 or more';

/** The longest wait a request may name; the server holds it no longer than its own maximum. */
export const MAX_WAIT_PARAMETER = 3600;

/**
 * The parameters of a queue GET: the contract's `page` and `date`, and the extensions
 * (docs/polling.md): `after` (keyset paging by id), `since` (a `Fulfil-Cursor`), `wait`
 * (seconds a long poll may be held, read by the server).
 */
export const QueuePollParams = v.object({
  ...PollParams.entries,
  after: v.optional(queryInteger(AFTER_MESSAGE, 0, Number.MAX_SAFE_INTEGER)),
  since: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  wait: v.optional(queryInteger(WAIT_MESSAGE, 0, MAX_WAIT_PARAMETER)),
  // Deadlines (docs/deadlines.md): each order with its `fulfill_by`, the earliest first.
  include: v.optional(v.picklist(['fulfill_by'], 'must be "fulfill_by"')),
  sort: v.optional(v.picklist(['id', 'fulfill_by'], 'must be "id" or "fulfill_by"')),
});

// What a caller sends (valibot's input types: `order_id` may be a number, `page` text). What the
// engine works with once a body is parsed is the domain's (ParsedAccept and the others).

export type StockItemsInput = v.InferInput<typeof StockItemsRequest>;
export type StockAdjustmentInput = v.InferInput<typeof StockAdjustmentRequest>;
export type AcceptInput = v.InferInput<typeof AcceptRequest>;
export type RejectInput = v.InferInput<typeof RejectRequest>;
/** The reference's key, `allocation`; the engine also takes the ERP guide's `order`. */
export type AllocateInput = v.InferInput<typeof AllocateRequest>;
export type ShipInput = v.InferInput<typeof ShipRequest>;
export type InvoiceInput = v.InferInput<typeof InvoiceRequest>;
export type PollParamsInput = v.InferInput<typeof PollParams>;
export type QueuePollParamsInput = v.InferInput<typeof QueuePollParams>;

export type ParsedPoll = v.InferOutput<typeof PollParams>;
