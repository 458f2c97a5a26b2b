import type { CourierLabel } from '../domain/courier-labels.js';
import { DomainError, fieldError } from '../domain/errors.js';
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

/**
 * One live label of the order, with its document, for an operator of the admin API to view or
 * download; a label of another order, or one that no longer prints, is refused.
 */
export async function labelDocumentFor(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
  labelId: string,
): Promise<CourierLabel & { document: string; document_format: string | null }> {
  requireRole(operator, 'viewer', storeCode);
  const id = /^[1-9][0-9]{0,15}$/.test(labelId) ? Number(labelId) : Number.NaN;
  const label = (await listOrderLabels(deps, storeCode, number)).find((row) => row.id === id);
  if (!label) {
    throw fieldError('not_found', `Order ${number} has no label %fieldValue.`, 'label', labelId);
  }
  if (label.status !== 'live') {
    throw new DomainError(
      'wrong_stage',
      `Label ${label.reference} is ${label.status}: only a live label prints.`,
    );
  }
  if (label.document === null) {
    throw new DomainError(
      'not_found',
      `Label ${label.reference} has no document here: its carrier keeps it at its document_url.`,
    );
  }
  return { ...label, document: label.document };
}
