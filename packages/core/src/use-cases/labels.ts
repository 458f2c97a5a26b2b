import type { CourierLabel } from '../domain/courier-labels.js';
import { requireRole } from './admin-access.js';
import type { EngineDeps } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';
import { requireOrder } from './orders.js';

/**
 * The order's labels as stored (docs/couriers.md): printing one again reads it from here and never
 * calls the carrier, so it never buys a second label. `live` labels print; the others tell the
 * operator what was voided, what is being voided, and which void failed.
 */
export async function listOrderLabels(
  deps: EngineDeps,
  storeCode: string,
  number: string,
): Promise<CourierLabel[]> {
  return deps.repository.transaction(async (tx) => {
    const order = await requireOrder(tx, storeCode, number);
    return tx.listLabels(order.id);
  }, 'read');
}

/** The order's live labels, with their documents, for printing again. */
export async function reprintLabels(
  deps: EngineDeps,
  storeCode: string,
  number: string,
): Promise<CourierLabel[]> {
  return (await listOrderLabels(deps, storeCode, number)).filter((row) => row.status === 'live');
}

/** The order's labels for an operator of the admin API: a viewer of the store may read them. */
export async function labelsFor(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
): Promise<{ labels: CourierLabel[] }> {
  requireRole(operator, 'viewer', storeCode);
  return { labels: await listOrderLabels(deps, storeCode, number) };
}
