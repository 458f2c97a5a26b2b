import type { Timestamp } from './timestamp.js';
import type {
  CancellationReason,
  Customer,
  FulfillmentOrder,
  ItemAmounts,
  ItemStatus,
  OrderAmounts,
} from './types.js';

/**
 * The response resources of the public contract, as the engine answers them: amounts in API
 * units (not ten-thousandths). The schemas that describe them in the OpenAPI document are
 * checked against these types.
 */

/** Amounts as the API shows them: numbers in API units, absent where a queue shows no prices. */
type Shown<TAmounts> = { [K in keyof TAmounts]?: number };

/** The public Warehouse resource. */
export interface WarehouseResource {
  name: string;
  code: string;
  active: boolean;
}

/** The public Stock item resource. */
export interface StockItemResource {
  warehouse_code: string;
  sku: string;
  qty: number;
}

/** The public Fulfillment order item resource. */
export interface ItemResource extends Shown<ItemAmounts> {
  id: number;
  status: ItemStatus;
  /** The item's source warehouse; absent in pending_invoice. */
  warehouse_code?: string;
  name: string;
  sku: string;
  qty: number;
}

/** The open cancellation request an order shows in the pending_cancellation queue. */
export interface CancellationRequestResource {
  id: number;
  requested_at: Timestamp;
  reason: CancellationReason;
  items: { item_id: number; sku: string; qty: number }[];
}

/** The public Fulfillment order resource, as the spec's Resources section shapes it. */
export interface OrderResource
  extends Shown<OrderAmounts>,
    Pick<
      FulfillmentOrder,
      | 'id'
      | 'fulfillment_order_number'
      | 'sales_order_id'
      | 'sales_order_number'
      | 'warehouse_code'
      | keyof Customer
      | 'status'
      | 'created_at'
      | 'updated_at'
      | 'payment'
      | 'shipping'
      | 'billing_address'
      | 'shipping_address'
    > {
  allocated_at?: Timestamp;
  shipped_at?: Timestamp;
  invoiced_at?: Timestamp;
  items: ItemResource[];
  /** In the pending_cancellation queue only: the request to answer. */
  cancellation_request?: CancellationRequestResource;
  /** In queue GETs with `include=fulfill_by` only (docs/deadlines.md). */
  fulfill_by?: Timestamp;
}
