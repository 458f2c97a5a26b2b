import { type ErrorDetail, fieldError, fieldErrors } from '../errors.js';
import type { Timestamp } from '../timestamp.js';
import type { FulfillmentOrder, Item, Warehouse } from '../types.js';
import type { ReturnLine, ReturnReason, ReturnRecord } from './return-record.js';

/** A channel's return once parsed; without `warehouse_code` it goes back where it shipped from. */
export interface ParsedReturn {
  rma_number: string;
  sales_order_number: string;
  warehouse_code?: string;
  items: { fulfillment_order_number: string; item_id: number; qty: number; reason: ReturnReason }[];
}

/** What deciding a new return needs besides the request. */
export interface OpenReturnContext {
  store_id: number;
  now: Timestamp;
  /** Every fulfillment order of the sales order, locked by the caller. */
  orders: readonly FulfillmentOrder[];
  /** The sales order's other returns: what they take back is no longer returnable. */
  returns: readonly ReturnRecord[];
  /** The store's warehouses. */
  warehouses: readonly Warehouse[];
}

/** How many units of the item its shipments carried. */
export function shippedQty(order: FulfillmentOrder, itemId: number): number {
  return order.shipments
    .flatMap((shipment) => shipment.items)
    .filter((entry) => entry.item_id === itemId)
    .reduce((sum, entry) => sum + entry.qty, 0);
}

/** Units of the item the returns take back; a canceled return takes back none. */
export function returnedQty(returns: readonly ReturnRecord[], itemId: number): number {
  return returns
    .filter((record) => record.canceled_at === null)
    .flatMap((record) => record.items)
    .filter((line) => line.item_id === itemId)
    .reduce((sum, line) => sum + line.qty, 0);
}

/**
 * A new return of shipped lines (docs/channel-guide.md, Returns): each line names a fulfillment
 * order of the sales order and one of its items, and takes back at most what shipped and no other
 * return takes back. Every line's problem is named at once. The receiving warehouse defaults to
 * the one that shipped, which must then be one warehouse for all lines.
 */
export function openReturn(input: ParsedReturn, context: OpenReturnContext): ReturnRecord {
  const byNumber = new Map(context.orders.map((order) => [order.fulfillment_order_number, order]));
  const problems: ErrorDetail[] = [];
  const lines: { order: FulfillmentOrder; item: Item; index: number }[] = [];
  input.items.forEach((entry, index) => {
    const path = `return.items[${index}]`;
    const order = byNumber.get(entry.fulfillment_order_number);
    if (!order) {
      problems.push({
        message: `%fieldName: fulfillment order %fieldValue is not of sales order ${input.sales_order_number}.`,
        parameters: [
          {
            fieldName: `${path}.fulfillment_order_number`,
            fieldValue: entry.fulfillment_order_number,
          },
        ],
      });
      return;
    }
    const item = order.items.find((candidate) => candidate.id === entry.item_id);
    if (!item) {
      problems.push({
        message: `%fieldName: item %fieldValue does not belong to ${order.fulfillment_order_number}.`,
        parameters: [{ fieldName: `${path}.item_id`, fieldValue: String(entry.item_id) }],
      });
      return;
    }
    const shipped = shippedQty(order, item.id);
    // A line that never shipped is no line a return can name (docs/channel-guide.md: 1002).
    if (shipped === 0) {
      problems.push({
        message: `%fieldName: item %fieldValue of ${order.fulfillment_order_number} has not shipped.`,
        parameters: [{ fieldName: `${path}.item_id`, fieldValue: String(entry.item_id) }],
      });
      return;
    }
    const returned = returnedQty(context.returns, item.id);
    const returnable = Math.max(0, shipped - returned);
    if (entry.qty > returnable) {
      problems.push({
        message: `%fieldName must be at most ${returnable}: ${shipped} shipped, ${returned} already returned.`,
        parameters: [{ fieldName: `${path}.qty`, fieldValue: String(entry.qty) }],
      });
      return;
    }
    lines.push({ order, item, index });
  });
  if (problems.length > 0) {
    const code = problems.every((p) => p.parameters[0]?.fieldName?.endsWith('.qty'))
      ? 'qty_mismatch'
      : 'unknown_item';
    throw fieldErrors(code, (problems[0] as ErrorDetail).message, problems);
  }

  const warehouse_code = input.warehouse_code ?? shippingWarehouse(lines.map((l) => l.order));
  if (!context.warehouses.some((warehouse) => warehouse.code === warehouse_code)) {
    throw fieldError(
      'invalid_request',
      'Warehouse %fieldValue does not exist.',
      'return.warehouse_code',
      warehouse_code,
    );
  }
  const items: ReturnLine[] = lines.map(({ order, item, index }) => {
    const entry = input.items[index] as ParsedReturn['items'][number];
    return {
      item_id: item.id,
      fulfillment_order_number: order.fulfillment_order_number,
      sku: item.sku,
      name: item.name,
      qty: entry.qty,
      reason: entry.reason,
      unit_price_incl_tax: item.amounts.price ?? 0,
      qty_restocked: 0,
      qty_quarantined: 0,
      qty_disposed: 0,
      qty_missing: 0,
      qty_credited: 0,
    };
  });
  return {
    id: 0,
    store_id: context.store_id,
    rma_number: input.rma_number,
    sales_order_number: input.sales_order_number,
    warehouse_code,
    items,
    receipts: [],
    credits: [],
    canceled_at: null,
    created_at: context.now,
    updated_at: context.now,
  };
}

/** The one warehouse that shipped all the lines; several must be named by the request. */
function shippingWarehouse(orders: readonly FulfillmentOrder[]): string {
  const codes = [...new Set(orders.map((order) => order.warehouse_code))];
  if (codes.length === 1) return codes[0] as string;
  throw fieldError(
    'invalid_request',
    `Missing required field "%fieldName": the lines shipped from several warehouses (${codes.join(', ')}).`,
    'return.warehouse_code',
  );
}

/** What a return was asked for, as a request would state it: what a repeat is compared with. */
export function requestOf(record: ReturnRecord): ParsedReturn & { warehouse_code: string } {
  return {
    rma_number: record.rma_number,
    sales_order_number: record.sales_order_number,
    warehouse_code: record.warehouse_code,
    items: record.items.map((line) => ({
      fulfillment_order_number: line.fulfillment_order_number,
      item_id: line.item_id,
      qty: line.qty,
      reason: line.reason,
    })),
  };
}
