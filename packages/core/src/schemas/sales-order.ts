import * as v from 'valibot';
import { int32, nonEmptyText, optionalMoney, positiveId, text } from './fields.js';

/** Intake: a sales order from the shop, before it is routed into fulfillment orders. */

export const AddressInput = v.object({
  firstname: text,
  lastname: text,
  email: text,
  street: text,
  city: text,
  postcode: text,
  region: text,
  country_id: text,
  telephone: text,
  company: text,
  vat_id: text,
});

export const PaymentInput = v.object({ method_code: text, method_name: text });

export const ShippingInput = v.object({
  method_code: text,
  method_name: text,
  internal_method_code: text,
  customer_note: v.optional(text),
  pickup_point_delivery: v.optional(v.object({ location_id: text, location_name: text })),
});

export const SalesOrderItemInput = v.object({
  sku: nonEmptyText,
  name: text,
  qty: v.pipe(int32, v.minValue(1)),
  price: optionalMoney,
  price_excl_tax: optionalMoney,
  tax_amount: optionalMoney,
  tax_rate: optionalMoney,
  total_price: optionalMoney,
  total_price_excl_tax: optionalMoney,
  total_tax_amount: optionalMoney,
});

export const SalesOrderInput = v.object({
  sales_order_id: positiveId,
  sales_order_number: nonEmptyText,
  /** Pins the order to this warehouse; without it the router chooses. */
  warehouse_code: v.optional(v.nullable(nonEmptyText)),
  allow_partial: v.optional(v.nullable(v.boolean()), null),
  customer_firstname: text,
  customer_lastname: text,
  customer_email: text,
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
});

/** A sales order as a caller sends it to intake (amounts as numbers in API units). */
export type SalesOrderInput = v.InferInput<typeof SalesOrderInput>;
export type SalesOrderItemInput = v.InferInput<typeof SalesOrderItemInput>;
export type SalesOrder = v.InferOutput<typeof SalesOrderInput>;
export type SalesOrderItem = v.InferOutput<typeof SalesOrderItemInput>;
