import { type OrderResource, presentOrder } from '../domain/present.js';
import type { AuditEvent, FulfillmentOrder } from '../domain/types.js';
import { type EngineDeps, orderNotFound, requireStore } from './deps.js';

export interface OrderHistory {
  order: OrderResource;
  failure: FulfillmentOrder['failure'];
  shipments: FulfillmentOrder['shipments'];
  invoices: Omit<FulfillmentOrder['invoices'][number], 'doc_binary'>[];
  audit: AuditEvent[];
}

/** The whole order as stored, for operators and embedding apps. */
export async function getOrder(
  deps: EngineDeps,
  storeCode: string,
  number: string,
): Promise<FulfillmentOrder> {
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const order = await tx.findOrder(store.id, number);
    if (!order) throw orderNotFound(number);
    return order;
  }, 'read');
}

/** The order with its shipments, invoices and audit trail: who did what, when. */
export async function getOrderHistory(
  deps: EngineDeps,
  storeCode: string,
  number: string,
): Promise<OrderHistory> {
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const order = await tx.findOrder(store.id, number);
    if (!order) throw orderNotFound(number);
    return {
      order: presentOrder(order, 'whole'),
      failure: order.failure,
      shipments: order.shipments,
      invoices: order.invoices.map(({ doc_binary: _doc, ...invoice }) => invoice),
      audit: await tx.listAudit(order.id),
    };
  }, 'read');
}
