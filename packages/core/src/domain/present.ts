import { openRequest } from './actions/cancellation.js';
import { fromMoney } from './money.js';
import { itemsInQueue, queueShowsPrices } from './queues.js';
import type { ItemResource, OrderResource } from './resources.js';
import {
  type FulfillmentOrder,
  ITEM_AMOUNT_FIELDS,
  type Item,
  ORDER_AMOUNT_FIELDS,
  type QueueName,
} from './types.js';

/** How an order is being shown: in one queue's response, or whole (action responses). */
export type OrderView = { queue: QueueName } | 'whole';

function presentItem(item: Item, withPrices: boolean, withWarehouse: boolean): ItemResource {
  const resource: ItemResource = {
    id: item.id,
    status: item.status,
    name: item.name,
    sku: item.sku,
    qty: item.qty,
  };
  if (withWarehouse) resource.warehouse_code = item.warehouse_code;
  if (withPrices) {
    for (const field of ITEM_AMOUNT_FIELDS) {
      const amount = item.amounts[field];
      if (amount !== undefined) resource[field] = fromMoney(amount);
    }
  }
  return resource;
}

/**
 * The order as the API shows it: the queue's items only, prices dropped where docs/behaviour.md says,
 * item warehouses dropped in pending_invoice, absent optional fields omitted.
 */
export function presentOrder(order: FulfillmentOrder, view: OrderView): OrderResource {
  const queue = view === 'whole' ? null : view.queue;
  const withPrices = queue === null || queueShowsPrices(queue);
  const items = queue === null ? order.items : itemsInQueue(order, queue);
  const resource: OrderResource = {
    id: order.id,
    fulfillment_order_number: order.fulfillment_order_number,
    sales_order_id: order.sales_order_id,
    sales_order_number: order.sales_order_number,
    warehouse_code: order.warehouse_code,
    customer_firstname: order.customer_firstname,
    customer_lastname: order.customer_lastname,
    customer_email: order.customer_email,
    customer_is_guest: order.customer_is_guest,
    status: order.status,
    created_at: order.created_at,
    updated_at: order.updated_at,
    payment: order.payment,
    shipping: order.shipping,
    billing_address: order.billing_address,
    shipping_address: order.shipping_address,
    items: items.map((item) => presentItem(item, withPrices, queue !== 'pending_invoice')),
  };
  if (withPrices) {
    for (const field of ORDER_AMOUNT_FIELDS) {
      const amount = order.amounts[field];
      if (amount !== undefined) resource[field] = fromMoney(amount);
    }
  }
  if (order.allocated_at) resource.allocated_at = order.allocated_at;
  if (order.shipped_at) resource.shipped_at = order.shipped_at;
  if (order.invoiced_at) resource.invoiced_at = order.invoiced_at;
  const request = queue === 'pending_cancellation' ? openRequest(order) : undefined;
  if (request) {
    resource.cancellation_request = {
      id: request.id,
      requested_at: request.requested_at,
      reason: request.reason,
      items: items.map((item) => ({ item_id: item.id, sku: item.sku, qty: item.qty })),
    };
  }
  return resource;
}
