import { DomainError, fieldError } from '../domain/errors.js';
import { type OperatorRole, operatorSees, roleAllows } from '../domain/operator.js';
import type { Timestamp } from '../domain/timestamp.js';
import type { Actor, Store } from '../domain/types.js';
import type { NewStoreAuditEvent } from '../ports/admin-repository.js';
import type { RepositoryTx } from '../ports/repository.js';
import { type EngineDeps, requireStore } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';

/**
 * What an operator may do (docs/admin-api.md): every admin use case checks it itself, so an
 * embedding app calling the engine gets the same refusals as the HTTP API.
 */
export function requireRole(
  operator: OperatorPrincipal,
  needed: OperatorRole,
  storeCode?: string,
): void {
  if (storeCode !== undefined && !operatorSees(operator, storeCode)) {
    // A store out of scope looks exactly like one that does not exist.
    throw fieldError('not_found', 'Store %fieldValue does not exist.', 'store_code', storeCode);
  }
  if (!roleAllows(operator.role, needed)) {
    throw new DomainError('forbidden', 'The operator role %fieldValue may not do this.', [
      { fieldName: 'role', fieldValue: operator.role },
    ]);
  }
}

/** Managing operators is for admins of every store only. */
export function requireGlobalAdmin(operator: OperatorPrincipal): void {
  requireRole(operator, 'admin');
  if (operator.store_code !== null) {
    throw new DomainError('forbidden', 'Only an admin of every store may manage operators.');
  }
}

/** The actor an operator acts as on a store's orders: the whole store, named, with its request. */
export function operatorActorOf(
  operator: OperatorPrincipal,
  storeCode: string,
  reason: string | null = null,
): Actor {
  return {
    store_code: storeCode,
    name: operator.name,
    warehouses: null,
    request_id: operator.request_id,
    reason,
  };
}

/** The store audit's entry of what an operator did to a store (not to one order). */
export function storeAuditEvent(
  operator: OperatorPrincipal,
  storeId: number,
  at: Timestamp,
  action: string,
  details: Record<string, unknown>,
  reason: string | null = null,
): NewStoreAuditEvent {
  return {
    store_id: storeId,
    at,
    actor: operator.name,
    action,
    reason,
    request_id: operator.request_id,
    details,
  };
}

/** A read of one store the operator may see: the role checked, then one read transaction. */
export async function readStore<T>(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  work: (tx: RepositoryTx, store: Store) => Promise<T>,
): Promise<T> {
  requireRole(operator, 'viewer', storeCode);
  return deps.repository.transaction(
    async (tx) => work(tx, await requireStore(tx, storeCode)),
    'read',
  );
}
