import { type CalendarFields, calendarOf, deriveFulfillBy } from './deadline.js';
import { totalsOfLiveLines } from './live-totals.js';
import { deriveOrderStatus } from './order-status.js';
import type { SalesOrder, ShippingAddress } from './sales-order.js';
import type { Timestamp } from './timestamp.js';
import {
  type Address,
  type FulfillmentOrder,
  ITEM_AMOUNT_FIELDS,
  type Item,
  type ItemAmounts,
  ORDER_AMOUNT_FIELDS,
  type OrderAmounts,
  type StockDelta,
  type Warehouse,
} from './types.js';

/** Building new fulfillment orders: from intake, and from rerouted lines. */

/** `<sales_order_number>-<n>`: every fulfillment order of a sales order, in creation order. */
export function fulfillmentOrderNumber(salesOrderNumber: string, sequence: number): string {
  return `${salesOrderNumber}-${sequence}`;
}

type Header = Omit<
  FulfillmentOrder,
  | 'id'
  | 'fulfillment_order_number'
  | 'warehouse_code'
  | 'status'
  | 'amounts'
  | 'items'
  | 'shipments'
  | 'invoices'
  | 'failure'
  | 'courier'
  | 'holds'
  | 'cancellation_requests'
  | 'allocated_at'
  | 'shipped_at'
  | 'invoiced_at'
  | 'created_at'
  | 'updated_at'
>;

/** The customer-facing header shared by every fulfillment order of one sales order. */
/** An address without a sales order's coordinates: fulfillment orders carry the address alone. */
function addressOnly(address: ShippingAddress): Address {
  const { latitude: _latitude, longitude: _longitude, ...rest } = address;
  return rest;
}

export function headerOf(order: SalesOrder | FulfillmentOrder, storeId: number): Header {
  return {
    store_id: storeId,
    sales_order_id: order.sales_order_id,
    sales_order_number: order.sales_order_number,
    allow_partial: order.allow_partial ?? null,
    customer_firstname: order.customer_firstname,
    customer_lastname: order.customer_lastname,
    customer_email: order.customer_email,
    customer_is_guest: order.customer_is_guest,
    payment: order.payment,
    shipping: order.shipping,
    billing_address: order.billing_address,
    shipping_address: addressOnly(order.shipping_address),
    // The sales order's deadline: as asked at intake, or the one the first order got, kept by
    // every order rerouted or moved from it.
    fulfill_by: order.fulfill_by ?? null,
  };
}

function defined(amounts: OrderAmounts): OrderAmounts {
  const kept: OrderAmounts = {};
  for (const field of ORDER_AMOUNT_FIELDS) {
    const amount = amounts[field];
    if (amount !== undefined) kept[field] = amount;
  }
  return kept;
}

/**
 * The amounts of a fulfillment order that carries only some lines of a sales order: its own
 * lines' totals, plus shipping and cash on delivery when it is the one that carries them. With
 * `codFollows`, a rerouted order whose origin was paid in full on delivery collects its own total.
 */
export function partAmounts(
  items: readonly Item[],
  shippingFrom: OrderAmounts | null,
  codFollows = false,
): OrderAmounts {
  const shipping = shippingFrom ?? {};
  const amounts = totalsOfLiveLines(
    {
      shipping_amount: shipping.shipping_amount ?? 0,
      shipping_amount_excl_tax: shipping.shipping_amount_excl_tax ?? 0,
      shipping_tax_amount: shipping.shipping_tax_amount ?? 0,
      shipping_tax_rate: shipping.shipping_tax_rate,
      cod_amount: shipping.cod_amount,
    },
    items,
    () => true,
  );
  if (codFollows && amounts.grand_total !== undefined) amounts.cod_amount = amounts.grand_total;
  return defined(amounts);
}

export function salesOrderAmounts(order: SalesOrder): OrderAmounts {
  return defined({
    shipping_amount: order.shipping_amount,
    shipping_amount_excl_tax: order.shipping_amount_excl_tax,
    shipping_tax_amount: order.shipping_tax_amount,
    shipping_tax_rate: order.shipping_tax_rate,
    grand_total: order.grand_total,
    grand_total_excl_tax: order.grand_total_excl_tax,
    tax_amount: order.tax_amount,
    cod_amount: order.cod_amount,
    package_value: order.package_value,
  });
}

export function itemFromSalesLine(line: SalesOrder['items'][number], warehouse: string): Item {
  const amounts: ItemAmounts = {};
  for (const field of ITEM_AMOUNT_FIELDS) {
    const amount = line[field];
    if (amount !== undefined) amounts[field] = amount;
  }
  return {
    id: 0,
    status: 'pending_accept',
    warehouse_code: warehouse,
    name: line.name,
    sku: line.sku,
    qty: line.qty,
    amounts,
    rejected_by: [],
    invoice_number: null,
  };
}

/**
 * A new fulfillment order at `warehouse`, every line's qty reserved there: stock is committed when
 * routed (docs/behaviour.md). Lines sent to a courier warehouse skip pending_accept: nobody there
 * decides, so they are accepted at once. Its `fulfill_by` is the header's, else the warehouse's
 * calendar's over the store's `calendar` (docs/deadlines.md).
 */
export function openFulfillmentOrder(args: {
  header: Header;
  number: string;
  warehouse: Warehouse;
  items: Item[];
  amounts: OrderAmounts;
  now: Timestamp;
  storeCalendar?: CalendarFields | undefined;
}): { order: FulfillmentOrder; stock: StockDelta[] } {
  const { header, number, warehouse, amounts, now } = args;
  const byCourier = warehouse.fulfilled_by === 'courier';
  const items: Item[] = args.items.map((item) => ({
    id: 0,
    status: byCourier ? 'pending_allocation' : 'pending_accept',
    warehouse_code: warehouse.code,
    name: item.name,
    sku: item.sku,
    qty: item.qty,
    amounts: item.amounts,
    rejected_by: item.rejected_by,
    invoice_number: null,
  }));
  const stock = items.map((item) => ({
    warehouse_code: item.warehouse_code,
    sku: item.sku,
    on_hand: 0,
    reserved: item.qty,
  }));
  // Every field written out: V8 builds `{ ...header, more }` field by field on a slow path
  // (over 100 µs an order), and the order then stays slow to read when it is stored and shown.
  const order: FulfillmentOrder = {
    id: 0,
    store_id: header.store_id,
    fulfillment_order_number: number,
    sales_order_id: header.sales_order_id,
    sales_order_number: header.sales_order_number,
    warehouse_code: warehouse.code,
    allow_partial: header.allow_partial,
    status: deriveOrderStatus(items, null),
    customer_firstname: header.customer_firstname,
    customer_lastname: header.customer_lastname,
    customer_email: header.customer_email,
    customer_is_guest: header.customer_is_guest,
    amounts,
    payment: header.payment,
    shipping: header.shipping,
    billing_address: header.billing_address,
    shipping_address: header.shipping_address,
    items,
    shipments: [],
    invoices: [],
    failure: null,
    courier: { attempts: 0, last_error: null, next_attempt_at: null },
    holds: [],
    cancellation_requests: [],
    allocated_at: null,
    shipped_at: null,
    invoiced_at: null,
    created_at: now,
    updated_at: now,
    fulfill_by:
      header.fulfill_by ?? deriveFulfillBy(calendarOf(warehouse, args.storeCalendar), now),
  };
  return { order, stock };
}
