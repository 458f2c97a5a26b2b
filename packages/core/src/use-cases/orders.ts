import { compareRequests } from '../domain/actions/cancellation.js';
import { currentCourierState } from '../domain/actions/courier.js';
import { fromMoney } from '../domain/money.js';
import { presentOrder } from '../domain/present.js';
import type { OrderResource } from '../domain/resources.js';
import type { AuditEvent, FulfillmentOrder, Invoice } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { assertWellFormed } from '../schemas/parse.js';
import { type EngineDeps, orderNotFound, requireStore } from './deps.js';

/** An invoice as shown to operators: amounts as numbers, the document itself left out. */
export type InvoiceRecord = Omit<Invoice, 'doc_binary' | 'shipping_amount_incl_tax'> & {
  shipping_amount_incl_tax: number;
};

export interface OrderHistory {
  order: OrderResource;
  failure: FulfillmentOrder['failure'];
  /**
   * Courier dispatch state: attempts made, the last refusal and when the next attempt is due
   * while they are current (`currentCourierState`).
   */
  courier: FulfillmentOrder['courier'];
  shipments: FulfillmentOrder['shipments'];
  invoices: InvoiceRecord[];
  /** Every hold placed on it, active ones with `released_at` null. */
  holds: FulfillmentOrder['holds'];
  /** Every cancellation request made of its partner, with its answer, oldest first. */
  cancellation_requests: FulfillmentOrder['cancellation_requests'];
  audit: AuditEvent[];
}

export async function requireOrder(tx: RepositoryTx, storeCode: string, number: string) {
  assertWellFormed({ number });
  const store = await requireStore(tx, storeCode);
  const order = await tx.findOrder(store.id, number);
  if (!order) throw orderNotFound(number);
  return order;
}

/** The whole order, as the API shows it in action responses. */
export async function getOrder(
  deps: EngineDeps,
  storeCode: string,
  number: string,
): Promise<OrderResource> {
  return deps.repository.transaction(
    async (tx) => presentOrder(await requireOrder(tx, storeCode, number), 'whole'),
    'read',
  );
}

/** The order with its failure, courier state, shipments, invoices and audit trail. */
export async function getOrderHistory(
  deps: EngineDeps,
  storeCode: string,
  number: string,
): Promise<OrderHistory> {
  return deps.repository.transaction(async (tx) => {
    const order = await requireOrder(tx, storeCode, number);
    return historyOf(order, await tx.listAudit(order.id));
  }, 'read');
}

/** The order as its history shows it, with its audit trail. */
export function historyOf(order: FulfillmentOrder, audit: AuditEvent[]): OrderHistory {
  return {
    order: presentOrder(order, 'whole'),
    failure: order.failure,
    courier: currentCourierState(order),
    shipments: order.shipments,
    holds: order.holds,
    cancellation_requests: [...order.cancellation_requests].sort(compareRequests),
    invoices: order.invoices.map(({ doc_binary: _doc, shipping_amount_incl_tax, ...invoice }) => ({
      ...invoice,
      shipping_amount_incl_tax: fromMoney(shipping_amount_incl_tax),
    })),
    audit,
  };
}
