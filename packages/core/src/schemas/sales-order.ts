import * as v from 'valibot';
import type { SalesOrder, SalesOrderItem } from '../domain/sales-order.js';
import {
  code,
  int32,
  label,
  note,
  optionalCode,
  optionalMoney,
  positiveId,
  requiredText,
  STRING_LIMITS,
} from './fields.js';
import { shapeOf } from './shape.js';

/** Intake: a sales order from the shop, before it is routed into fulfillment orders. */

export const AddressInput = v.object({
  firstname: label,
  lastname: label,
  email: label,
  street: label,
  city: label,
  postcode: label,
  region: label,
  country_id: label,
  telephone: label,
  company: label,
  vat_id: label,
});

export const PaymentInput = v.object({ method_code: optionalCode, method_name: label });

export const ShippingInput = v.object({
  method_code: optionalCode,
  method_name: label,
  internal_method_code: optionalCode,
  customer_note: v.optional(note),
  pickup_point_delivery: v.optional(v.object({ location_id: optionalCode, location_name: label })),
});

export const SalesOrderItemInput = shapeOf<SalesOrderItem>()(
  v.object({
    sku: code,
    name: label,
    qty: v.pipe(int32, v.minValue(1)),
    price: optionalMoney,
    price_excl_tax: optionalMoney,
    tax_amount: optionalMoney,
    tax_rate: optionalMoney,
    total_price: optionalMoney,
    total_price_excl_tax: optionalMoney,
    total_tax_amount: optionalMoney,
  }),
);

export const SalesOrderInput = shapeOf<SalesOrder>()(
  v.object({
    sales_order_id: positiveId,
    sales_order_number: requiredText(STRING_LIMITS.sales_order_number),
    /** Pins the order to this warehouse; without it the router chooses. */
    warehouse_code: v.optional(v.nullable(code)),
    allow_partial: v.optional(v.nullable(v.boolean()), null),
    customer_firstname: label,
    customer_lastname: label,
    customer_email: label,
    customer_is_guest: v.boolean(),
    shipping_amount: optionalMoney,
    shipping_amount_excl_tax: optionalMoney,
    shipping_tax_amount: optionalMoney,
    shipping_tax_rate: optionalMoney,
    grand_total: optionalMoney,
    grand_total_excl_tax: optionalMoney,
    tax_amount: optionalMoney,
    cod_amount: optionalMoney,
    package_value: optionalMoney,
    payment: PaymentInput,
    shipping: ShippingInput,
    billing_address: AddressInput,
    shipping_address: AddressInput,
    items: v.pipe(v.array(SalesOrderItemInput), v.minLength(1, 'must list at least one item')),
  }),
);

/** A sales order as a caller sends it to intake (amounts as numbers in API units). */
export type SalesOrderInput = v.InferInput<typeof SalesOrderInput>;
export type SalesOrderItemInput = v.InferInput<typeof SalesOrderItemInput>;

/** The most sales orders one batch request takes. */
export const MAX_SALES_ORDER_BATCH = 100;

/** Body of `POST /V1/salesOrders`: one sales order (docs/channel-guide.md). */
export const SalesOrderRequest = v.object({ sales_order: SalesOrderInput });

/** Body of `POST /V1/salesOrders/batch`: 1 to 100 sales orders, each answered on its own. */
export const SalesOrdersRequest = v.object({
  sales_orders: v.pipe(
    v.array(SalesOrderInput),
    v.minLength(1, 'must hold at least one sales order'),
    v.maxLength(MAX_SALES_ORDER_BATCH, `must hold at most ${MAX_SALES_ORDER_BATCH} sales orders`),
  ),
});

export type SalesOrderRequestInput = v.InferInput<typeof SalesOrderRequest>;
export type SalesOrdersRequestInput = v.InferInput<typeof SalesOrdersRequest>;
