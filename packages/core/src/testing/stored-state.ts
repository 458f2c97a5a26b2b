import { findInvariantViolations, type InvariantViolation } from '../domain/invariants.js';
import type { FulfillmentOrder, StockLevel } from '../domain/types.js';
import type { Repository } from '../ports/repository.js';

export interface StoredState {
  /** The orders asked for, in the order asked, as stored (shipments, invoices, failure). */
  orders: FulfillmentOrder[];
  /** Every stock row of the store. */
  stock: StockLevel[];
  /** What `findInvariantViolations` finds in them; empty when consistent. */
  violations: InvariantViolation[];
}

/**
 * Reads a store's orders and stock through the repository in one read transaction (one
 * consistent snapshot) and checks the invariants. `orderNumbers` must name every order of the
 * store, for the reservation check sums over all of them; a number that does not exist throws.
 */
export async function readStoredState(
  repository: Repository,
  storeCode: string,
  orderNumbers: readonly string[],
): Promise<StoredState> {
  const { orders, stock } = await repository.transaction(async (tx) => {
    const store = await tx.findStore(storeCode);
    if (!store) throw new Error(`store ${storeCode} does not exist`);
    const orders: FulfillmentOrder[] = [];
    for (const number of orderNumbers) {
      const order = await tx.findOrder(store.id, number);
      if (!order) throw new Error(`order ${number} of store ${storeCode} does not exist`);
      orders.push(order);
    }
    const stock = await tx.listStock({ store_id: store.id, warehouses: null });
    return { orders, stock };
  }, 'read');
  return { orders, stock, violations: findInvariantViolations(orders, stock) };
}
