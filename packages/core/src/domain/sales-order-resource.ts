import type { DeadlineStatus } from './deadline.js';
import type { OrderResource } from './resources.js';
import type { ReturnResource } from './returns/return-resource.js';
import type { SalesOrderStatus } from './sales-order-status.js';
import type { Timestamp } from './timestamp.js';
import type { CancellationReason, HoldReason } from './types.js';

/**
 * The Sales order view: what a sales channel shows its customer and its support staff of one
 * sales order, amounts in API units.
 */

export interface TrackResource {
  carrier_code: string;
  title: string;
  track_number: string;
  /** The carrier's tracking page for this number, where the carrier has one. */
  tracking_url?: string;
}

export interface ShipmentResource {
  id: number;
  fulfillment_order_number: string;
  created_at: Timestamp;
  items: { item_id: number; sku: string; name: string; qty: number }[];
  tracks: TrackResource[];
}

export interface InvoiceResource {
  fulfillment_order_number: string;
  invoice_number: string;
  item_ids: number[];
  shipping_amount_incl_tax: number;
  invoice_time?: string;
  created_at: Timestamp;
}

export interface HoldResource {
  handle: string;
  reason: HoldReason;
  note?: string;
  status: 'active' | 'released';
  placed_by: string;
  placed_at: Timestamp;
  released_by?: string;
  released_at?: Timestamp;
  /** The fulfillment orders the hold was placed on. */
  fulfillment_order_numbers: string[];
}

export interface CancellationRequestView {
  fulfillment_order_number: string;
  /** 1, 2, … within its fulfillment order. */
  id: number;
  reason: CancellationReason;
  /** rejected with message "shipped" (and no answered_by) for lines that shipped before an answer. */
  status: 'open' | 'accepted' | 'rejected';
  items: { item_id: number; sku: string; qty: number }[];
  requested_by: string;
  requested_at: Timestamp;
  message?: string;
  answered_by?: string;
  answered_at?: Timestamp;
}

/** The public Sales order view. */
export interface SalesOrderResource {
  /** The sales order's id in Fulfil: `after` of the feed pages by it. */
  id: number;
  sales_order_number: string;
  sales_order_id: number;
  status: SalesOrderStatus;
  created_at: Timestamp;
  /** The latest change of the sales order or of any of its fulfillment orders. */
  updated_at: Timestamp;
  /** Every hold placed, active and released, in the order placed. */
  holds: HoldResource[];
  fulfillment_orders: OrderResource[];
  shipments: ShipmentResource[];
  invoices: InvoiceResource[];
  /** Every cancellation request, open and answered, oldest first. */
  cancellation_requests: CancellationRequestView[];
  /** Every return of the sales order, canceled ones included, oldest first. */
  returns: ReturnResource[];
  /**
   * In `GET /V1/salesOrders/{number}` only (docs/deadlines.md): each fulfillment order with a
   * deadline, when it must leave its warehouse and how it stands at the moment of asking.
   */
  deadlines?: SalesOrderDeadline[];
}

export interface SalesOrderDeadline {
  fulfillment_order_number: string;
  warehouse_code: string;
  fulfill_by: Timestamp;
  status: DeadlineStatus;
}
