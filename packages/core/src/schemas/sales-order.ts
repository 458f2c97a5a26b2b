import * as v from 'valibot';
import { MAX_AMOUNT, toMoney } from '../domain/money.js';
import type { SalesOrder, SalesOrderItem } from '../domain/sales-order.js';
import { fulfillByInput } from './calendar.js';
import {
  code,
  int32,
  label,
  latitude,
  longitude,
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

/**
 * The shipping address: an address, and optionally where it is (degrees), which the `distance`
 * routing rule then reads instead of locating the address (docs/routing.md). Both or neither.
 */
export const ShippingAddressInput = v.pipe(
  v.object({
    ...AddressInput.entries,
    latitude: v.optional(latitude),
    longitude: v.optional(longitude),
  }),
  v.forward(
    v.partialCheck(
      [['latitude'], ['longitude']],
      (address) => (address.latitude === undefined) === (address.longitude === undefined),
      'must be given with latitude (both, or neither)',
    ),
    ['longitude'],
  ),
);

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

/** The most lines one sales order may have (docs/limits.md). */
export const MAX_ORDER_LINES = 1_000;

/** The sums an order's totals and credits are made of: a line amount and the shipping beside it. */
const SUMS = [
  { line: 'total_price', shipping: 'shipping_amount' },
  { line: 'total_price_excl_tax', shipping: 'shipping_amount_excl_tax' },
  { line: 'total_tax_amount', shipping: 'shipping_tax_amount' },
  { line: 'price', shipping: null },
] as const;

const MAX_MONEY = toMoney(MAX_AMOUNT);

/**
 * Every total an order's lines add up to (with its shipping), and every unit price times its
 * qty (what a credit of the line asks), stays within the largest amount: then no total the
 * engine computes from them, whatever lines drop, leaves the integers it counts exactly in. The
 * line that takes a sum past it is named.
 */
function sumsWithinMaximum<
  TOrder extends {
    items: ({ qty: number } & Partial<Record<(typeof SUMS)[number]['line'], number>>)[];
  } & Partial<Record<NonNullable<(typeof SUMS)[number]['shipping']>, number>>,
>() {
  return v.rawCheck<TOrder>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const order = dataset.value;
    for (const { line, shipping } of SUMS) {
      let sum = shipping ? (order[shipping] ?? 0) : 0;
      for (const [index, item] of order.items.entries()) {
        const amount = item[line];
        if (amount === undefined) continue;
        sum += line === 'price' ? amount * item.qty : amount;
        if (Math.abs(sum) <= MAX_MONEY) continue;
        addIssue({
          message:
            line === 'price'
              ? `times qty, with the lines before it, must stay within ${MAX_AMOUNT}`
              : `with the lines before it${shipping ? ` and ${shipping}` : ''}, must add up to at most ${MAX_AMOUNT}`,
          path: [
            { type: 'object', origin: 'value', input: order, key: 'items', value: order.items },
            { type: 'array', origin: 'value', input: order.items, key: index, value: item },
            { type: 'object', origin: 'value', input: item, key: line, value: amount },
          ],
        });
        break;
      }
    }
  });
}

const SalesOrderFields = v.object({
  sales_order_id: positiveId,
  sales_order_number: requiredText(STRING_LIMITS.sales_order_number),
  /** Pins the order to this warehouse; without it the router chooses. */
  warehouse_code: v.optional(v.nullable(code)),
  allow_partial: v.optional(v.nullable(v.boolean()), null),
  /** When the order must leave the warehouse, ISO 8601; without it, the warehouse's calendar. */
  fulfill_by: v.optional(v.nullable(fulfillByInput)),
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
  shipping_address: ShippingAddressInput,
  items: v.pipe(
    v.array(SalesOrderItemInput),
    v.minLength(1, 'must list at least one item'),
    v.maxLength(MAX_ORDER_LINES, `must list at most ${MAX_ORDER_LINES} items`),
  ),
});

export const SalesOrderInput = shapeOf<SalesOrder>()(
  v.pipe(SalesOrderFields, sumsWithinMaximum<v.InferOutput<typeof SalesOrderFields>>()),
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
