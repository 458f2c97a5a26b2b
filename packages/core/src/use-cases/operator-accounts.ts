import { DomainError, fieldError } from '../domain/errors.js';
import {
  type OperatorInfo,
  type OperatorRecord,
  type OperatorRole,
  operatorInfo,
} from '../domain/operator.js';
import { formatTimestamp } from '../domain/timestamp.js';
import { generateTokenSecret, hashTokenSecret, sameHash } from '../domain/token-secret.js';
import { LoginInput, OperatorInput } from '../schemas/admin.js';
import { parseWith } from '../schemas/parse.js';
import { type EngineDeps, now, requireStore } from './deps.js';

/** Operators and their sessions (docs/admin-api.md): who may use the admin API. */

/** How long a session lasts after its login, unless the engine is told otherwise. */
export const SESSION_HOURS = 12;

/** Who acts through the admin API: an operator, and the request it acts by. */
export interface OperatorPrincipal {
  name: string;
  role: OperatorRole;
  store_code: string | null;
  /** The request's id (HTTP `X-Request-Id`), recorded with every change; null: none. */
  request_id: string | null;
}

export interface CreatedOperator {
  /** The secret, in plain text: shown this once, never stored. */
  secret: string;
  operator: OperatorInfo;
}

export async function createOperator(deps: EngineDeps, spec: unknown): Promise<CreatedOperator> {
  const input = parseWith(OperatorInput, spec);
  const secret = generateTokenSecret();
  return deps.repository.transaction(async (tx) => {
    if (input.store_code !== null) await requireStore(tx, input.store_code);
    const record = await tx.insertOperator({
      name: input.name,
      role: input.role,
      store_code: input.store_code,
      hash: hashTokenSecret(secret),
      created_at: now(deps),
      revoked_at: null,
    });
    return { secret, operator: operatorInfo(record) };
  });
}

export async function listOperators(deps: EngineDeps): Promise<OperatorInfo[]> {
  return deps.repository.transaction(
    async (tx) => (await tx.listOperators()).map(operatorInfo),
    'read',
  );
}

/** Revokes the operator and ends its sessions, at once and everywhere. Harmless when repeated. */
export async function revokeOperator(deps: EngineDeps, name: string): Promise<OperatorInfo> {
  return deps.repository.transaction(async (tx) => {
    if (!(await tx.revokeOperator(name, now(deps)))) {
      throw fieldError('not_found', 'Operator %fieldValue does not exist.', 'name', name);
    }
    return operatorInfo((await tx.findOperator(name)) as OperatorRecord);
  });
}

function unauthenticated(message = 'The operator credentials are not valid.'): DomainError {
  return new DomainError('unauthenticated', message);
}

function principalOf(record: OperatorRecord, requestId: string | null): OperatorPrincipal {
  if (record.revoked_at !== null) throw unauthenticated('The operator was revoked.');
  return {
    name: record.name,
    role: record.role,
    store_code: record.store_code,
    request_id: requestId,
  };
}

/** The operator holding this secret (`Authorization: Bearer`), or `unauthenticated`. */
export async function authenticateOperator(
  deps: EngineDeps,
  secret: string,
  requestId: string | null = null,
): Promise<OperatorPrincipal> {
  const hash = hashTokenSecret(secret);
  const record = await deps.repository.transaction((tx) => tx.findOperatorByHash(hash), 'read');
  if (!record || !sameHash(record.hash, hash)) throw unauthenticated();
  return principalOf(record, requestId);
}

/**
 * Opens a session for the operator; answers the session's secret (the cookie) once. The sessions
 * of anyone that have expired by now are deleted in the same transaction.
 */
export async function login(
  deps: EngineDeps,
  credentials: unknown,
  requestId: string | null = null,
): Promise<{ session: string; operator: OperatorPrincipal }> {
  const input = parseWith(LoginInput, credentials);
  const session = generateTokenSecret();
  return deps.repository.transaction(async (tx) => {
    const record = await tx.findOperator(input.name);
    if (!record || !sameHash(record.hash, hashTokenSecret(input.secret))) throw unauthenticated();
    const operator = principalOf(record, requestId);
    const at = deps.clock.now();
    await tx.deleteExpiredSessions(formatTimestamp(at));
    await tx.insertSession({
      hash: hashTokenSecret(session),
      operator_id: record.id,
      created_at: formatTimestamp(at),
      expires_at: formatTimestamp(new Date(at.getTime() + sessionMs(deps))),
    });
    return { session, operator };
  });
}

/** How long a session lasts, in milliseconds: the engine's `sessionHours`. */
export function sessionMs(deps: Pick<EngineDeps, 'sessionHours'>): number {
  return (deps.sessionHours ?? SESSION_HOURS) * 3_600_000;
}

/** Deletes every session that has expired by now, whoever's; answers how many. */
export async function deleteExpiredSessions(deps: EngineDeps): Promise<number> {
  return deps.repository.transaction((tx) => tx.deleteExpiredSessions(now(deps)));
}

/** The operator of a live session, or `unauthenticated`. */
export async function sessionOperator(
  deps: EngineDeps,
  session: string,
  requestId: string | null = null,
): Promise<OperatorPrincipal> {
  const found = await deps.repository.transaction(
    (tx) => tx.findSession(hashTokenSecret(session)),
    'read',
  );
  if (!found || found.expires_at <= now(deps)) throw unauthenticated('The session has ended.');
  return principalOf(found.operator, requestId);
}

export async function logout(deps: EngineDeps, session: string): Promise<void> {
  return deps.repository.transaction((tx) => tx.deleteSession(hashTokenSecret(session)));
}
