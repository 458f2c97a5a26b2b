import * as v from 'valibot';
import { ITEM_STAGES } from '../domain/item-stage.js';
import type {
  CancellationRequestResource,
  ItemResource,
  OrderResource,
  StockItemResource,
  WarehouseResource,
} from '../domain/resources.js';
import { ADJUSTMENT_REASONS, type StockAdjustmentResource } from '../domain/stock-adjustment.js';
import { TIMESTAMP_PATTERN } from '../domain/timestamp.js';
import { CANCELLATION_REASONS, type ItemStatus, type OrderStatus } from '../domain/types.js';
import { AddressInput, PaymentInput, ShippingInput } from './sales-order.js';
import { type Same, shapeOf } from './shape.js';

/**
 * The response resources of the public contract: each schema is checked against the domain's
 * type the engine answers with, and the server generates its OpenAPI document from the schemas,
 * so the two cannot drift apart.
 */

const integer = v.pipe(v.number(), v.integer());
const timestamp = v.pipe(
  v.string(),
  v.regex(TIMESTAMP_PATTERN),
  v.description('UTC, "YYYY-MM-DD HH:MM:SS"'),
);
const amount = v.optional(v.number());

/** Every value an item's `status` takes: its forward stages, then the two ends off the flow. */
export const ITEM_STATUSES = [
  ...ITEM_STAGES,
  'rejected',
  'canceled',
] as const satisfies readonly ItemStatus[];

/** Every value an order's `status` takes. */
export const ORDER_STATUSES = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'invoiced',
  'partially_accepted',
  'partially_allocated',
  'partially_shipped',
  'partially_invoiced',
  'rejected',
  'canceled',
  'failed',
] as const satisfies readonly OrderStatus[];

export const WarehouseResourceSchema = shapeOf<WarehouseResource>()(
  v.object({
    name: v.string(),
    code: v.string(),
    active: v.boolean(),
  }),
);

export const StockItemResourceSchema = shapeOf<StockItemResource>()(
  v.object({
    warehouse_code: v.string(),
    sku: v.string(),
    qty: integer,
  }),
);

export const StockAdjustmentResourceSchema = shapeOf<StockAdjustmentResource>()(
  v.object({
    adjustment_number: v.string(),
    created_at: timestamp,
    items: v.array(
      v.object({
        warehouse_code: v.string(),
        sku: v.string(),
        delta: integer,
        reason: v.picklist(ADJUSTMENT_REASONS),
        /** The on hand of the line's warehouse and sku right after it. */
        on_hand: integer,
      }),
    ),
  }),
);

export const ItemResourceSchema = shapeOf<ItemResource>()(
  v.object({
    id: integer,
    status: v.picklist(ITEM_STATUSES),
    warehouse_code: v.pipe(
      v.optional(v.string()),
      v.description("The item's source warehouse; absent in pending_invoice."),
    ),
    name: v.string(),
    sku: v.string(),
    qty: integer,
    price: amount,
    price_excl_tax: amount,
    tax_amount: amount,
    tax_rate: amount,
    total_price: amount,
    total_price_excl_tax: amount,
    total_tax_amount: amount,
  }),
);

/** The open cancellation request an order shows in the pending_cancellation queue. */
export const CancellationRequestResourceSchema = shapeOf<CancellationRequestResource>()(
  v.object({
    id: v.pipe(integer, v.description('1, 2, … within its fulfillment order.')),
    requested_at: timestamp,
    reason: v.picklist(CANCELLATION_REASONS),
    items: v.pipe(
      v.array(v.object({ item_id: integer, sku: v.string(), qty: integer })),
      v.description('The lines to cancel.'),
    ),
  }),
);

export const OrderResourceSchema = shapeOf<OrderResource>()(
  v.pipe(
    v.object({
      id: integer,
      fulfillment_order_number: v.pipe(
        v.string(),
        v.description('The value used as order_id in action requests.'),
      ),
      sales_order_id: integer,
      sales_order_number: v.string(),
      warehouse_code: v.string(),
      customer_firstname: v.string(),
      customer_lastname: v.string(),
      customer_email: v.string(),
      customer_is_guest: v.boolean(),
      shipping_amount: amount,
      shipping_amount_excl_tax: amount,
      shipping_tax_amount: amount,
      shipping_tax_rate: amount,
      grand_total: amount,
      grand_total_excl_tax: amount,
      tax_amount: amount,
      cod_amount: amount,
      package_value: amount,
      status: v.picklist(ORDER_STATUSES),
      allocated_at: v.optional(timestamp),
      shipped_at: v.optional(timestamp),
      invoiced_at: v.optional(timestamp),
      created_at: timestamp,
      updated_at: timestamp,
      payment: PaymentInput,
      shipping: ShippingInput,
      billing_address: AddressInput,
      shipping_address: AddressInput,
      items: v.array(ItemResourceSchema),
      cancellation_request: v.pipe(
        v.optional(CancellationRequestResourceSchema),
        v.description('In the pending_cancellation queue only: the request to answer.'),
      ),
      fulfill_by: v.pipe(
        v.optional(timestamp),
        v.description(
          'Extension, in queue GETs with include=fulfill_by only: when the order must leave the warehouse (UTC); absent for an order without one.',
        ),
      ),
    }),
    v.description(
      'Price and amount fields are omitted in the pending_accept and failed queues; a queue shows the items in its stage only (pending_cancellation: the requested ones).',
    ),
  ),
);

// ── the status lists name every status the engine has ──────────────────────────────────────────
type Assert<T extends true> = T;

export type StatusListChecks = [
  Assert<Same<(typeof ITEM_STATUSES)[number], ItemStatus>>,
  Assert<Same<(typeof ORDER_STATUSES)[number], OrderStatus>>,
];
