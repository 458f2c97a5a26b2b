import * as v from 'valibot';
import { DEADLINE_STATUSES } from '../domain/deadline.js';
import type {
  CancellationRequestView,
  HoldResource,
  InvoiceResource,
  SalesOrderResource,
  ShipmentResource,
  TrackResource,
} from '../domain/sales-order-resource.js';
import { SALES_ORDER_STATUSES } from '../domain/sales-order-status.js';
import { TIMESTAMP_PATTERN } from '../domain/timestamp.js';
import { CANCELLATION_REASONS, HOLD_REASONS } from '../domain/types.js';
import { OrderResourceSchema } from './resources.js';
import { ReturnResourceSchema } from './return-resource.js';
import { shapeOf } from './shape.js';

/**
 * The Sales order view (docs/channel-guide.md): what a sales channel shows its customer and its
 * support staff of one sales order. Each schema is checked against the domain's type the engine
 * answers with, and the server's OpenAPI document is generated from the schemas.
 */

const integer = v.pipe(v.number(), v.integer());
const timestamp = v.pipe(
  v.string(),
  v.regex(TIMESTAMP_PATTERN),
  v.description('UTC, "YYYY-MM-DD HH:MM:SS"'),
);

export const TrackResourceSchema = shapeOf<TrackResource>()(
  v.object({
    carrier_code: v.string(),
    title: v.string(),
    track_number: v.string(),
    tracking_url: v.pipe(
      v.optional(v.string()),
      v.description("The carrier's tracking page for this number, where the carrier has one."),
    ),
  }),
);

export const ShipmentResourceSchema = shapeOf<ShipmentResource>()(
  v.object({
    id: integer,
    fulfillment_order_number: v.string(),
    created_at: timestamp,
    items: v.array(v.object({ item_id: integer, sku: v.string(), name: v.string(), qty: integer })),
    tracks: v.array(TrackResourceSchema),
  }),
);

export const InvoiceResourceSchema = shapeOf<InvoiceResource>()(
  v.object({
    fulfillment_order_number: v.string(),
    invoice_number: v.string(),
    item_ids: v.array(integer),
    shipping_amount_incl_tax: v.number(),
    invoice_time: v.optional(v.string()),
    created_at: timestamp,
  }),
);

export const HoldResourceSchema = shapeOf<HoldResource>()(
  v.object({
    handle: v.string(),
    reason: v.picklist(HOLD_REASONS),
    note: v.optional(v.string()),
    status: v.picklist(['active', 'released']),
    placed_by: v.string(),
    placed_at: timestamp,
    released_by: v.optional(v.string()),
    released_at: v.optional(timestamp),
    fulfillment_order_numbers: v.pipe(
      v.array(v.string()),
      v.description('The fulfillment orders the hold was placed on.'),
    ),
  }),
);

export const CancellationRequestViewSchema = shapeOf<CancellationRequestView>()(
  v.object({
    fulfillment_order_number: v.string(),
    id: v.pipe(integer, v.description('1, 2, … within its fulfillment order.')),
    reason: v.picklist(CANCELLATION_REASONS),
    status: v.pipe(
      v.picklist(['open', 'accepted', 'rejected']),
      v.description(
        'rejected with message "shipped" (and no answered_by) for lines that shipped before an answer.',
      ),
    ),
    items: v.array(v.object({ item_id: integer, sku: v.string(), qty: integer })),
    requested_by: v.string(),
    requested_at: timestamp,
    message: v.optional(v.string()),
    answered_by: v.optional(v.string()),
    answered_at: v.optional(timestamp),
  }),
);

export const SalesOrderResourceSchema = shapeOf<SalesOrderResource>()(
  v.object({
    id: v.pipe(
      integer,
      v.description("The sales order's id in Fulfil: `after` of the feed pages by it."),
    ),
    sales_order_number: v.string(),
    sales_order_id: integer,
    status: v.pipe(
      v.picklist(SALES_ORDER_STATUSES),
      v.description(
        'on_hold while a hold is active; else, over the live lines of all its fulfillment orders: invoiced, shipped, partially_shipped or open; with no live line, canceled or rejected.',
      ),
    ),
    created_at: timestamp,
    updated_at: v.pipe(
      timestamp,
      v.description('The latest change of the sales order or of any of its fulfillment orders.'),
    ),
    holds: v.pipe(
      v.array(HoldResourceSchema),
      v.description('Every hold placed, active and released, in the order placed.'),
    ),
    fulfillment_orders: v.array(OrderResourceSchema),
    shipments: v.array(ShipmentResourceSchema),
    invoices: v.array(InvoiceResourceSchema),
    cancellation_requests: v.pipe(
      v.array(CancellationRequestViewSchema),
      v.description(
        'Every cancellation request, open and answered, oldest first; the lines of one that a ship refused follow it, as a request of their own.',
      ),
    ),
    returns: v.pipe(
      v.array(ReturnResourceSchema),
      v.description('Every return of the sales order, canceled ones included, oldest first.'),
    ),
    deadlines: v.pipe(
      v.optional(
        v.array(
          v.object({
            fulfillment_order_number: v.string(),
            warehouse_code: v.string(),
            fulfill_by: timestamp,
            status: v.picklist(DEADLINE_STATUSES),
          }),
        ),
      ),
      v.description(
        'In GET /V1/salesOrders/{sales_order_number} only: each fulfillment order with a deadline, when it must leave its warehouse (UTC) and how it stands now: on_track, at_risk, overdue, met, missed.',
      ),
    ),
  }),
);
