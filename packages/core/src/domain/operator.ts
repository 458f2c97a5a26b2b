import type { Timestamp } from './timestamp.js';

/**
 * Operators (docs/admin-api.md): the people who run the service, apart from the partner and ERP
 * tokens of `/V1`. Each role may do what the one before it may, and more.
 */
export const OPERATOR_ROLES = ['viewer', 'operator', 'admin'] as const;

export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what `needed` may. */
export function roleAllows(role: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);
}

export interface OperatorRecord {
  id: number;
  name: string;
  role: OperatorRole;
  /** The one store the operator may see; null: every store. */
  store_code: string | null;
  /** SHA-256 of the secret, hex; the secret itself is never stored. */
  hash: string;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

/** What is shown of an operator: everything but its hash. */
export type OperatorInfo = Omit<OperatorRecord, 'id' | 'hash'>;

export function operatorInfo(record: OperatorRecord): OperatorInfo {
  const { id: _id, hash: _hash, ...info } = record;
  return info;
}

/** Whether the operator's store scope covers the store. */
export function operatorSees(operator: Pick<OperatorRecord, 'store_code'>, store: string): boolean {
  return operator.store_code === null || operator.store_code === store;
}
