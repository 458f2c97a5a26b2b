import {
  type AuditEvent,
  type FulfilledBy,
  type FulfillmentOrder,
  type Invoice,
  ITEM_AMOUNT_FIELDS,
  type Item,
  type ItemAmounts,
  type ItemStatus,
  type Money,
  ORDER_AMOUNT_FIELDS,
  type OrderAmounts,
  type OrderStatus,
  type Shipment,
  type Store,
  type TokenRecord,
  type Warehouse,
} from '@fulfil/core';
import type { Insertable, Selectable } from 'kysely';
import type {
  AuditEventTable,
  BooleanInt,
  FulfillmentOrderTable,
  InvoiceTable,
  ItemAmountColumns,
  OrderAmountColumns,
  OrderItemTable,
  ShipmentTable,
  StoreTable,
  TokenTable,
  WarehouseTable,
} from './database.js';
import { NO_DEADLINE } from './database.js';

/**
 * Conversions between the domain records of `@fulfil/core` and table rows. Pure functions: the
 * same for every dialect, since every column type is common ground (see `Database`).
 */

export function encodeJson(value: unknown): string {
  return JSON.stringify(value);
}

export function decodeJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

export function encodeBoolean(value: boolean): BooleanInt {
  return value ? 1 : 0;
}

export function decodeBoolean(value: BooleanInt | boolean): boolean {
  return value === 1 || value === true;
}

/** Money must be an integer number of ten-thousandths: a float here is a bug upstream. */
export function encodeMoney(value: Money, field: string): number {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`fulfil: ${field} must be an integer of ten-thousandths, got ${value}`);
  }
  return value;
}

function encodeOptionalMoney(value: Money | undefined, field: string): number | null {
  return value === undefined ? null : encodeMoney(value, field);
}

function encodeOrderAmounts(amounts: OrderAmounts): OrderAmountColumns {
  const columns = {} as OrderAmountColumns;
  for (const field of ORDER_AMOUNT_FIELDS) {
    columns[field] = encodeOptionalMoney(amounts[field], field);
  }
  return columns;
}

function decodeOrderAmounts(row: OrderAmountColumns): OrderAmounts {
  const amounts: OrderAmounts = {};
  for (const field of ORDER_AMOUNT_FIELDS) {
    const value = row[field];
    if (value !== null) amounts[field] = Number(value);
  }
  return amounts;
}

function encodeItemAmounts(amounts: ItemAmounts): ItemAmountColumns {
  const columns = {} as ItemAmountColumns;
  for (const field of ITEM_AMOUNT_FIELDS) {
    columns[field] = encodeOptionalMoney(amounts[field], field);
  }
  return columns;
}

function decodeItemAmounts(row: ItemAmountColumns): ItemAmounts {
  const amounts: ItemAmounts = {};
  for (const field of ITEM_AMOUNT_FIELDS) {
    const value = row[field];
    if (value !== null) amounts[field] = Number(value);
  }
  return amounts;
}

// ── stores, warehouses, tokens, audit ──────────────────────────────────────────────────────

export function decodeStore(row: Selectable<StoreTable>): Store {
  return { id: Number(row.id), code: row.code, settings: decodeJson(row.settings) };
}

export function encodeWarehouse(warehouse: Warehouse): Insertable<WarehouseTable> {
  return {
    store_id: warehouse.store_id,
    code: warehouse.code,
    name: warehouse.name,
    active: encodeBoolean(warehouse.active),
    fulfilled_by: warehouse.fulfilled_by,
    priority: warehouse.priority,
    latitude: warehouse.latitude ?? null,
    longitude: warehouse.longitude ?? null,
    countries: warehouse.countries ? encodeJson(warehouse.countries) : null,
    daily_capacity: warehouse.daily_capacity ?? null,
    safety_stock: warehouse.safety_stock ?? 0,
    processing_days: warehouse.processing_days ?? null,
    working_days: warehouse.working_days ? encodeJson(warehouse.working_days) : null,
    holidays: warehouse.holidays ? encodeJson(warehouse.holidays) : null,
    cutoff: warehouse.cutoff ?? null,
    timezone: warehouse.timezone ?? null,
  };
}

export function decodeWarehouse(row: Selectable<WarehouseTable>): Warehouse {
  return {
    store_id: Number(row.store_id),
    code: row.code,
    name: row.name,
    active: decodeBoolean(row.active),
    fulfilled_by: row.fulfilled_by as FulfilledBy,
    priority: Number(row.priority),
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    countries: row.countries === null ? null : decodeJson(row.countries),
    daily_capacity: row.daily_capacity === null ? null : Number(row.daily_capacity),
    safety_stock: Number(row.safety_stock),
    timezone: row.timezone ?? null,
    processing_days: row.processing_days === null ? null : Number(row.processing_days),
    working_days: row.working_days === null ? null : decodeJson(row.working_days),
    holidays: row.holidays === null ? null : decodeJson(row.holidays),
    cutoff: row.cutoff,
  };
}

export function encodeToken(token: Omit<TokenRecord, 'id'>): Insertable<TokenTable> {
  return {
    store_id: token.store_id,
    name: token.name,
    hash: token.hash,
    resources: encodeJson(token.resources),
    warehouses: token.warehouses === null ? null : encodeJson(token.warehouses),
    expires_at: token.expires_at,
    revoked_at: token.revoked_at,
    created_at: token.created_at,
  };
}

export function decodeToken(row: Selectable<TokenTable>): TokenRecord {
  return {
    id: Number(row.id),
    store_id: Number(row.store_id),
    name: row.name,
    hash: row.hash,
    resources: decodeJson(row.resources),
    warehouses: row.warehouses === null ? null : decodeJson(row.warehouses),
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}

export function decodeAuditEvent(row: Selectable<AuditEventTable>): AuditEvent {
  return {
    id: Number(row.id),
    order_id: Number(row.order_id),
    at: row.at,
    actor: row.actor,
    action: row.action,
    details: decodeJson(row.details),
    request_id: row.request_id,
    reason: row.reason,
  };
}

// ── orders ─────────────────────────────────────────────────────────────────────────────────

/** The header columns of an order (everything but its id and its parts). */
export function encodeOrderHeader(
  order: FulfillmentOrder,
): Omit<Insertable<FulfillmentOrderTable>, 'id'> {
  return {
    store_id: order.store_id,
    fulfillment_order_number: order.fulfillment_order_number,
    sales_order_id: order.sales_order_id,
    sales_order_number: order.sales_order_number,
    warehouse_code: order.warehouse_code,
    status: order.status,
    allow_partial: order.allow_partial === null ? null : encodeBoolean(order.allow_partial),
    customer_firstname: order.customer_firstname,
    customer_lastname: order.customer_lastname,
    customer_email: order.customer_email,
    customer_is_guest: encodeBoolean(order.customer_is_guest),
    ...encodeOrderAmounts(order.amounts),
    payment: encodeJson(order.payment),
    shipping: encodeJson(order.shipping),
    billing_address: encodeJson(order.billing_address),
    shipping_address: encodeJson(order.shipping_address),
    failure: order.failure === null ? null : encodeJson(order.failure),
    courier_attempts: order.courier.attempts,
    courier_last_error: order.courier.last_error,
    courier_next_attempt_at: order.courier.next_attempt_at,
    // Null for none, as most orders have: no text to store or compare.
    holds: order.holds.length === 0 ? null : encodeJson(order.holds),
    cancellation_requests:
      order.cancellation_requests.length === 0 ? null : encodeJson(order.cancellation_requests),
    allocated_at: order.allocated_at,
    shipped_at: order.shipped_at,
    invoiced_at: order.invoiced_at,
    created_at: order.created_at,
    updated_at: order.updated_at,
    fulfill_by: encodeFulfillBy(order),
  };
}

/** The `fulfill_by` column of an order: never null, `NO_DEADLINE` for none (migration 0030). */
export function encodeFulfillBy(order: Pick<FulfillmentOrder, 'fulfill_by'>): string {
  return order.fulfill_by ?? NO_DEADLINE;
}

/** A stored `fulfill_by` as core sees it: null for none. */
export function decodeFulfillBy(stored: string): string | null {
  return stored === NO_DEADLINE ? null : stored;
}

export function decodeOrder(
  row: Selectable<FulfillmentOrderTable>,
  items: Item[],
  shipments: Shipment[],
  invoices: Invoice[],
): FulfillmentOrder {
  return {
    id: Number(row.id),
    store_id: Number(row.store_id),
    fulfillment_order_number: row.fulfillment_order_number,
    sales_order_id: Number(row.sales_order_id),
    sales_order_number: row.sales_order_number,
    warehouse_code: row.warehouse_code,
    allow_partial: row.allow_partial === null ? null : decodeBoolean(row.allow_partial),
    status: row.status as OrderStatus,
    customer_firstname: row.customer_firstname,
    customer_lastname: row.customer_lastname,
    customer_email: row.customer_email,
    customer_is_guest: decodeBoolean(row.customer_is_guest),
    amounts: decodeOrderAmounts(row),
    payment: decodeJson(row.payment),
    shipping: decodeJson(row.shipping),
    billing_address: decodeJson(row.billing_address),
    shipping_address: decodeJson(row.shipping_address),
    items,
    shipments,
    invoices,
    failure: row.failure === null ? null : decodeJson(row.failure),
    courier: {
      attempts: Number(row.courier_attempts),
      last_error: row.courier_last_error,
      next_attempt_at: row.courier_next_attempt_at,
    },
    holds: row.holds === null ? [] : decodeJson(row.holds),
    cancellation_requests:
      row.cancellation_requests === null ? [] : decodeJson(row.cancellation_requests),
    allocated_at: row.allocated_at,
    shipped_at: row.shipped_at,
    invoiced_at: row.invoiced_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    fulfill_by: decodeFulfillBy(row.fulfill_by),
  };
}

export function encodeItem(
  orderId: number,
  position: number,
  item: Item,
): Omit<Insertable<OrderItemTable>, 'id'> {
  return {
    order_id: orderId,
    position,
    status: item.status,
    warehouse_code: item.warehouse_code,
    name: item.name,
    sku: item.sku,
    qty: item.qty,
    ...encodeItemAmounts(item.amounts),
    rejected_by: encodeJson(item.rejected_by),
    invoice_number: item.invoice_number,
  };
}

export function decodeItem(row: Selectable<OrderItemTable>): Item {
  return {
    id: Number(row.id),
    status: row.status as ItemStatus,
    warehouse_code: row.warehouse_code,
    name: row.name,
    sku: row.sku,
    qty: Number(row.qty),
    amounts: decodeItemAmounts(row),
    rejected_by: decodeJson(row.rejected_by),
    invoice_number: row.invoice_number,
  };
}

export function encodeShipment(
  orderId: number,
  shipment: Shipment,
): Omit<Insertable<ShipmentTable>, 'id'> {
  return {
    order_id: orderId,
    items: encodeJson(shipment.items),
    tracks: encodeJson(shipment.tracks),
    created_at: shipment.created_at,
  };
}

export function decodeShipment(row: Selectable<ShipmentTable>): Shipment {
  return {
    id: Number(row.id),
    items: decodeJson(row.items),
    tracks: decodeJson(row.tracks),
    created_at: row.created_at,
  };
}

export function encodeInvoice(
  orderId: number,
  invoice: Invoice,
): Omit<Insertable<InvoiceTable>, 'id'> {
  return {
    order_id: orderId,
    invoice_number: invoice.invoice_number,
    item_ids: encodeJson(invoice.item_ids),
    shipping_amount_incl_tax: encodeMoney(
      invoice.shipping_amount_incl_tax,
      'shipping_amount_incl_tax',
    ),
    invoice_time: invoice.invoice_time,
    additional_data: invoice.additional_data,
    doc_binary: invoice.doc_binary,
    created_at: invoice.created_at,
  };
}

export function decodeInvoice(row: Selectable<InvoiceTable>): Invoice {
  return {
    id: Number(row.id),
    invoice_number: row.invoice_number,
    item_ids: decodeJson(row.item_ids),
    shipping_amount_incl_tax: Number(row.shipping_amount_incl_tax),
    invoice_time: row.invoice_time,
    additional_data: row.additional_data,
    doc_binary: row.doc_binary,
    created_at: row.created_at,
  };
}
