import type {
  ErrorDetail,
  ErrorParameter,
  ItemResource,
  OrderResource,
  StockItemResource,
  WarehouseResource,
} from '@fulfil/core';
import * as v from 'valibot';
import type { ErrorBody } from '../errors.js';

/**
 * The response resources of the public contract as valibot schemas: the OpenAPI document is
 * generated from them, and the tests check real responses against them. Compile-time checks at
 * the end keep them in step with the engine's resource types.
 */

const integer = v.pipe(v.number(), v.integer());
const timestamp = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
  v.description('UTC, "YYYY-MM-DD HH:MM:SS"'),
);
const amount = v.optional(v.number());

export const WarehouseSchema = v.object({
  name: v.string(),
  code: v.string(),
  active: v.boolean(),
});

export const StockItemSchema = v.object({
  warehouse_code: v.string(),
  sku: v.string(),
  qty: integer,
});

export const PaymentSchema = v.object({
  method_code: v.string(),
  method_name: v.string(),
});

export const ShippingSchema = v.object({
  method_code: v.string(),
  method_name: v.string(),
  internal_method_code: v.string(),
  customer_note: v.optional(v.string()),
  pickup_point_delivery: v.optional(
    v.object({ location_id: v.string(), location_name: v.string() }),
  ),
});

export const AddressSchema = v.object({
  firstname: v.string(),
  lastname: v.string(),
  email: v.string(),
  street: v.string(),
  city: v.string(),
  postcode: v.string(),
  region: v.string(),
  country_id: v.string(),
  telephone: v.string(),
  company: v.string(),
  vat_id: v.string(),
});

export const FulfillmentOrderItemSchema = v.object({
  id: integer,
  status: v.string(),
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
});

export const FulfillmentOrderSchema = v.pipe(
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
    status: v.string(),
    allocated_at: v.optional(timestamp),
    shipped_at: v.optional(timestamp),
    invoiced_at: v.optional(timestamp),
    created_at: timestamp,
    updated_at: timestamp,
    payment: PaymentSchema,
    shipping: ShippingSchema,
    billing_address: AddressSchema,
    shipping_address: AddressSchema,
    items: v.array(FulfillmentOrderItemSchema),
  }),
  v.description(
    'Price and amount fields are omitted in the pending_accept and failed queues; a queue shows the items in its stage only.',
  ),
);

export const ErrorParameterSchema = v.object({
  resources: v.pipe(v.optional(v.string()), v.description('An ACL resource.')),
  fieldName: v.pipe(v.optional(v.string()), v.description('A missing or invalid field.')),
  fieldValue: v.pipe(v.optional(v.string()), v.description('The incorrect value.')),
});

export const ErrorBodySchema = v.object({
  message: v.pipe(
    v.string(),
    v.description(
      'May hold %name placeholders, filled from the first parameter that has that key.',
    ),
  ),
  code: v.pipe(
    v.optional(integer),
    v.description(
      'The error code: 1001-1010 invalid requests, 1401 unauthenticated, 1403 forbidden, 1404 not found, 1409 already exists; the HTTP status for errors of the HTTP layer.',
    ),
  ),
  parameters: v.optional(v.array(ErrorParameterSchema)),
  errors: v.optional(
    v.array(v.object({ message: v.string(), parameters: v.array(ErrorParameterSchema) })),
  ),
  trace: v.pipe(v.optional(v.string()), v.description('Only when the server runs in debug mode.')),
});

// ── kept in step with the engine's types ──────────────────────────────────────────────────────
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type ResourceSchemaChecks = [
  Assert<Same<v.InferOutput<typeof WarehouseSchema>, WarehouseResource>>,
  Assert<Same<v.InferOutput<typeof StockItemSchema>, StockItemResource>>,
  Assert<Same<v.InferOutput<typeof FulfillmentOrderItemSchema>, ItemResource>>,
  Assert<Same<v.InferOutput<typeof FulfillmentOrderSchema>, OrderResource>>,
  Assert<Same<v.InferOutput<typeof ErrorParameterSchema>, ErrorParameter>>,
  Assert<Same<v.InferOutput<typeof ErrorBodySchema>['errors'], ErrorDetail[] | undefined>>,
  Assert<Same<v.InferOutput<typeof ErrorBodySchema>, ErrorBody>>,
];
