import { compareRequests } from './actions/cancellation.js';
import { isHeld } from './actions/holds.js';
import { fromMoney } from './money.js';
import { presentOrder } from './present.js';
import type { ReturnRecord } from './returns/return-record.js';
import { presentReturn } from './returns/return-view.js';
import type { SalesOrder } from './sales-order.js';
import type {
  CancellationRequestView,
  HoldResource,
  InvoiceResource,
  SalesOrderResource,
  ShipmentResource,
} from './sales-order-resource.js';
import { deriveSalesOrderStatus } from './sales-order-status.js';
import type { Timestamp } from './timestamp.js';
import { trackingUrl } from './tracking-urls.js';
import type { FulfillmentOrder, OrderHold } from './types.js';

/** A sales order as the store keeps it: what was taken in, under which number. */
export interface SalesOrderRecord {
  /** 0 until the repository stores it. */
  id: number;
  store_id: number;
  sales_order_number: string;
  sales_order_id: number;
  /**
   * The sales order as taken in, as parsed (amounts in ten-thousandths): what a repeated intake
   * is compared with. Null for one taken in before the store kept sales orders.
   */
  received: SalesOrder | null;
  created_at: Timestamp;
}

/** Everything the view of one sales order is made of. */
export interface SalesOrderParts {
  record: SalesOrderRecord;
  /** Every fulfillment order of the sales order. */
  fulfillment_orders: readonly FulfillmentOrder[];
  /** Every return of the sales order. */
  returns?: readonly ReturnRecord[];
}

function shipmentsOf(orders: readonly FulfillmentOrder[]): ShipmentResource[] {
  const shipments = orders.flatMap((order) => {
    const lines = new Map(order.items.map((item) => [item.id, item]));
    return order.shipments.map((shipment) => ({
      id: shipment.id,
      fulfillment_order_number: order.fulfillment_order_number,
      created_at: shipment.created_at,
      items: shipment.items.map(({ item_id, qty }) => ({
        item_id,
        sku: lines.get(item_id)?.sku ?? '',
        name: lines.get(item_id)?.name ?? '',
        qty,
      })),
      tracks: shipment.tracks.map((track) => {
        // The page a courier's label named, else the carrier's own tracking page.
        const url = track.tracking_url ?? trackingUrl(track.carrier_code, track.track_number);
        return url === undefined ? { ...track } : { ...track, tracking_url: url };
      }),
    }));
  });
  return shipments.sort((a, b) => a.id - b.id);
}

/**
 * The holds of the sales order: one per handle, over the fulfillment orders it was placed on;
 * active while it holds any of them, else released when the last of them was.
 */
function holdsOf(orders: readonly FulfillmentOrder[]): HoldResource[] {
  const byHandle = new Map<string, { placed: OrderHold; numbers: string[]; all: OrderHold[] }>();
  for (const order of orders) {
    for (const hold of order.holds) {
      const entry = byHandle.get(hold.handle) ?? { placed: hold, numbers: [], all: [] };
      entry.numbers.push(order.fulfillment_order_number);
      entry.all.push(hold);
      byHandle.set(hold.handle, entry);
    }
  }
  return [...byHandle.values()].map(({ placed, numbers, all }) => {
    const active = all.some((hold) => hold.released_at === null);
    const last = all.reduce((a, b) => ((b.released_at ?? '') > (a.released_at ?? '') ? b : a));
    return {
      handle: placed.handle,
      reason: placed.reason,
      ...(placed.note === null ? {} : { note: placed.note }),
      status: active ? ('active' as const) : ('released' as const),
      placed_by: placed.placed_by,
      placed_at: placed.placed_at,
      ...(active || last.released_by === null ? {} : { released_by: last.released_by }),
      ...(active || last.released_at === null ? {} : { released_at: last.released_at }),
      fulfillment_order_numbers: numbers,
    };
  });
}

function requestsOf(orders: readonly FulfillmentOrder[]): CancellationRequestView[] {
  return orders
    .flatMap((order) => {
      const lines = new Map(order.items.map((item) => [item.id, item]));
      return order.cancellation_requests.map((request) => ({
        fulfillment_order_number: order.fulfillment_order_number,
        id: request.id,
        reason: request.reason,
        status: request.status,
        items: request.item_ids.map((item_id) => ({
          item_id,
          sku: lines.get(item_id)?.sku ?? '',
          qty: lines.get(item_id)?.qty ?? 0,
        })),
        requested_by: request.requested_by,
        requested_at: request.requested_at,
        ...(request.message === null ? {} : { message: request.message }),
        ...(request.answered_by === null ? {} : { answered_by: request.answered_by }),
        ...(request.answered_at === null ? {} : { answered_at: request.answered_at }),
      }));
    })
    .sort(compareRequests);
}

function invoicesOf(orders: readonly FulfillmentOrder[]): (InvoiceResource & { id: number })[] {
  return orders
    .flatMap((order) =>
      order.invoices.map((invoice) => ({
        id: invoice.id,
        fulfillment_order_number: order.fulfillment_order_number,
        invoice_number: invoice.invoice_number,
        item_ids: [...invoice.item_ids],
        shipping_amount_incl_tax: fromMoney(invoice.shipping_amount_incl_tax),
        ...(invoice.invoice_time === null ? {} : { invoice_time: invoice.invoice_time }),
        created_at: invoice.created_at,
      })),
    )
    .sort((a, b) => a.id - b.id);
}

/**
 * The Sales order view (docs/channel-guide.md): its status over all its fulfillment orders, each
 * of them whole (amounts included), every shipment with its tracks (and the carrier's tracking
 * page where it has one), every invoice, every hold and every cancellation request with its
 * answer, every return.
 */
export function presentSalesOrder({
  record,
  fulfillment_orders,
  returns = [],
}: SalesOrderParts): SalesOrderResource {
  const orders = [...fulfillment_orders].sort((a, b) => a.id - b.id);
  // Timestamps of one format: text order is time order.
  const updated = [
    record.created_at,
    ...orders.map((order) => order.updated_at),
    ...returns.map((entry) => entry.updated_at),
  ]
    .sort()
    .at(-1);
  return {
    id: record.id,
    sales_order_number: record.sales_order_number,
    sales_order_id: record.sales_order_id,
    status: deriveSalesOrderStatus(
      orders.flatMap((order) => order.items),
      orders.filter(isHeld).length,
    ),
    created_at: record.created_at,
    updated_at: updated ?? record.created_at,
    holds: holdsOf(orders),
    fulfillment_orders: orders.map((order) => presentOrder(order, 'whole')),
    shipments: shipmentsOf(orders),
    invoices: invoicesOf(orders).map(({ id: _id, ...invoice }) => invoice),
    cancellation_requests: requestsOf(orders),
    returns: [...returns].sort((a, b) => a.id - b.id).map(presentReturn),
  };
}
