import type { Address, ItemAmounts, OrderAmounts, Payment, Shipping } from './types.js';

/**
 * A sales order's shipping address, with where it is when the shop knows (degrees): what the
 * `distance` routing rule reads first. Not copied to its fulfillment orders.
 */
export interface ShippingAddress extends Address {
  latitude?: number | undefined;
  longitude?: number | undefined;
}

/** Intake: a sales order from the shop once parsed, before it is routed into fulfillment orders. */

export interface SalesOrderItem extends ItemAmounts {
  sku: string;
  name: string;
  qty: number;
}

export interface SalesOrder extends OrderAmounts {
  sales_order_id: number;
  sales_order_number: string;
  /** Pins the order to this warehouse; without it the router chooses. */
  warehouse_code?: string | null | undefined;
  allow_partial: boolean | null;
  /** When it must leave the warehouse (UTC, the API's timestamp); absent: the calendar's. */
  fulfill_by?: string | null | undefined;
  customer_firstname: string;
  customer_lastname: string;
  customer_email: string;
  customer_is_guest: boolean;
  payment: Payment;
  shipping: Shipping;
  billing_address: Address;
  shipping_address: ShippingAddress;
  items: SalesOrderItem[];
}
