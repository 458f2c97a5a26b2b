import { holdsReservation } from './item-stage.js';
import { deriveOrderStatus } from './order-status.js';
import type { FulfillmentOrder, Item, StockLevel } from './types.js';

/**
 * What must hold of a store's orders and stock at every commit, whatever crashed or raced: a
 * check that reads stored state only, for tests (crash, scale-out, contract) and diagnostics.
 */

export type InvariantRule =
  /** The stored order status is what docs/behaviour.md derives from its items. */
  | 'status_derivation'
  /** Item quantities are positive integers; item ids are unique within the order. */
  | 'item_lines'
  /** Shipments list items of their own order, each at most its ordered quantity in all. */
  | 'shipped_within_ordered'
  /** An item is shipped (pending_invoice, invoiced) exactly when shipments cover its quantity. */
  | 'stage_matches_shipments'
  /** Invoices list only shipped, invoiced items of the order, each item in one invoice only. */
  | 'invoices_cover_shipped'
  /** shipped_at / invoiced_at are set exactly when a shipment / an invoice exists. */
  | 'timestamps'
  /** No stock row reserves a negative quantity. */
  | 'reserved_non_negative'
  /** Each stock row reserves exactly the accepted, unshipped quantity of its (warehouse, sku). */
  | 'reserved_matches_orders';

export interface InvariantViolation {
  rule: InvariantRule;
  /** Where: `order 1001-1`, `order 1001-1 item 7`, `stock WH-A/SKU-1`. */
  subject: string;
  message: string;
}

const SHIPPED: ReadonlySet<Item['status']> = new Set(['pending_invoice', 'invoiced']);

const stockKey = (warehouseCode: string, sku: string): string => `${warehouseCode}/${sku}`;

/** Quantity that an order's items hold reserved, by `warehouse/sku`. */
function reservationsOf(order: FulfillmentOrder): Map<string, number> {
  const held = new Map<string, number>();
  // Abandoning frees what the order held; its items keep the stage they failed in.
  if (order.failure?.abandoned) return held;
  for (const item of order.items) {
    if (!holdsReservation(item.status)) continue;
    const key = stockKey(item.warehouse_code, item.sku);
    held.set(key, (held.get(key) ?? 0) + item.qty);
  }
  return held;
}

function orderViolations(order: FulfillmentOrder): InvariantViolation[] {
  const violations: InvariantViolation[] = [];
  const subject = `order ${order.fulfillment_order_number}`;
  const add = (rule: InvariantRule, where: string, message: string) =>
    violations.push({ rule, subject: where, message });
  const itemSubject = (id: number) => `${subject} item ${id}`;

  const derived = deriveOrderStatus(order.items, order.failure);
  if (order.status !== derived) {
    add('status_derivation', subject, `status is ${order.status}; its items make it ${derived}`);
  }

  const items = new Map<number, Item>();
  for (const item of order.items) {
    if (items.has(item.id)) add('item_lines', itemSubject(item.id), 'item id appears twice');
    items.set(item.id, item);
    if (!Number.isInteger(item.qty) || item.qty <= 0) {
      add('item_lines', itemSubject(item.id), `qty ${item.qty} is not a positive integer`);
    }
  }

  const shipped = new Map<number, number>();
  for (const shipment of order.shipments) {
    for (const line of shipment.items) {
      if (!items.has(line.item_id)) {
        add(
          'shipped_within_ordered',
          subject,
          `shipment ${shipment.id} lists item ${line.item_id} of no line of this order`,
        );
      }
      shipped.set(line.item_id, (shipped.get(line.item_id) ?? 0) + line.qty);
    }
  }
  for (const item of order.items) {
    const qty = shipped.get(item.id) ?? 0;
    if (qty > item.qty) {
      add('shipped_within_ordered', itemSubject(item.id), `shipped ${qty} of ${item.qty} ordered`);
    }
    if (SHIPPED.has(item.status) && qty < item.qty) {
      add(
        'stage_matches_shipments',
        itemSubject(item.id),
        `is ${item.status} but shipments cover ${qty} of ${item.qty}`,
      );
    }
    if (!SHIPPED.has(item.status) && qty > 0) {
      add(
        'stage_matches_shipments',
        itemSubject(item.id),
        `is ${item.status} but shipments list ${qty}`,
      );
    }
  }

  const invoiceOf = new Map<number, string>();
  const numbers = new Set<string>();
  for (const invoice of order.invoices) {
    if (numbers.has(invoice.invoice_number)) {
      add(
        'invoices_cover_shipped',
        subject,
        `invoice number ${invoice.invoice_number} is used twice`,
      );
    }
    numbers.add(invoice.invoice_number);
    for (const id of invoice.item_ids) {
      const item = items.get(id);
      if (item?.status !== 'invoiced' || item.invoice_number !== invoice.invoice_number) {
        const state = item
          ? `${item.status} under ${item.invoice_number ?? 'no invoice'}`
          : 'no line of this order';
        add(
          'invoices_cover_shipped',
          itemSubject(id),
          `invoice ${invoice.invoice_number} lists it, but it is ${state}`,
        );
      }
      const earlier = invoiceOf.get(id);
      if (earlier !== undefined) {
        add(
          'invoices_cover_shipped',
          itemSubject(id),
          `listed by invoices ${earlier} and ${invoice.invoice_number}`,
        );
      }
      invoiceOf.set(id, invoice.invoice_number);
    }
  }
  for (const item of order.items) {
    if (item.status === 'invoiced' && !invoiceOf.has(item.id)) {
      add('invoices_cover_shipped', itemSubject(item.id), 'is invoiced but no invoice lists it');
    }
  }

  if ((order.shipped_at === null) !== (order.shipments.length === 0)) {
    add(
      'timestamps',
      subject,
      `shipped_at is ${order.shipped_at} with ${order.shipments.length} shipments`,
    );
  }
  if ((order.invoiced_at === null) !== (order.invoices.length === 0)) {
    add(
      'timestamps',
      subject,
      `invoiced_at is ${order.invoiced_at} with ${order.invoices.length} invoices`,
    );
  }
  return violations;
}

/**
 * Every invariant `orders` and `stock` break, none when they are consistent. Give it all the
 * orders and all the stock rows of one store: the reservation check sums over every order.
 */
export function findInvariantViolations(
  orders: readonly FulfillmentOrder[],
  stock: readonly StockLevel[],
): InvariantViolation[] {
  const violations = orders.flatMap(orderViolations);

  const expected = new Map<string, number>();
  for (const order of orders) {
    for (const [key, qty] of reservationsOf(order)) {
      expected.set(key, (expected.get(key) ?? 0) + qty);
    }
  }
  const rows = new Map(stock.map((row) => [stockKey(row.warehouse_code, row.sku), row]));
  for (const [key, row] of rows) {
    if (row.reserved < 0) {
      violations.push({
        rule: 'reserved_non_negative',
        subject: `stock ${key}`,
        message: `reserved is ${row.reserved}`,
      });
    }
  }
  for (const key of new Set([...rows.keys(), ...expected.keys()])) {
    const reserved = rows.get(key)?.reserved ?? 0;
    const held = expected.get(key) ?? 0;
    if (reserved !== held) {
      violations.push({
        rule: 'reserved_matches_orders',
        subject: `stock ${key}`,
        message: `reserved is ${reserved}; accepted, unshipped items hold ${held}`,
      });
    }
  }
  return violations;
}
