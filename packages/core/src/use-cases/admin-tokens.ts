import { fieldError } from '../domain/errors.js';
import { formatTimestamp, parseTimestamp } from '../domain/timestamp.js';
import type { TokenRecord } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { RotateInput } from '../schemas/admin.js';
import { TokenInput } from '../schemas/operator.js';
import { parseWith } from '../schemas/parse.js';
import { readStore, requireRole, storeAuditEvent } from './admin-access.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';
import { type CreatedToken, issueToken, type TokenInfo } from './tokens.js';

/** Partner and ERP tokens through the admin API (docs/admin-api.md); secrets are shown once. */

export interface AdminTokenInfo {
  name: string;
  /** The ACL resources the token grants. */
  acl: string[];
  warehouses: string[] | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

function adminInfo(record: TokenRecord | TokenInfo): AdminTokenInfo {
  return {
    name: record.name,
    acl: record.resources,
    warehouses: record.warehouses,
    expires_at: record.expires_at,
    revoked_at: record.revoked_at,
    last_used_at: record.last_used_at ?? null,
    created_at: record.created_at,
  };
}

export async function listTokensFor(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
) {
  return readStore(deps, operator, storeCode, async (tx, store) => ({
    tokens: (await tx.listTokens(store.id)).map(adminInfo),
  }));
}

export async function createTokenFor(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  body: unknown,
): Promise<{ token: string; info: AdminTokenInfo }> {
  requireRole(operator, 'admin', storeCode);
  const input = parseWith(TokenInput, body);
  if (input.token !== undefined) {
    // Secrets are made here, never chosen through the API: a chosen one could be guessed.
    throw fieldError('invalid_request', 'A token secret cannot be chosen here.', 'token');
  }
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const created: CreatedToken = await issueToken(deps, tx, store, input);
    await tx.appendStoreAudit([
      storeAuditEvent(operator, store.id, now(deps), 'token_create', { token: input.name }),
    ]);
    return { token: created.token, info: adminInfo(created.info) };
  });
}

async function findToken(tx: RepositoryTx, storeId: number, name: string): Promise<TokenRecord> {
  const record = (await tx.listTokens(storeId)).find((token) => token.name === name);
  if (!record) throw fieldError('not_found', 'Token %fieldValue does not exist.', 'name', name);
  return record;
}

/** Revokes the token: the next `/V1` call with it is refused. Revoking twice is harmless. */
export async function revokeTokenFor(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  name: string,
): Promise<{ info: AdminTokenInfo }> {
  requireRole(operator, 'admin', storeCode);
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const at = now(deps);
    await tx.revokeToken(store.id, name, at);
    await tx.appendStoreAudit([
      storeAuditEvent(operator, store.id, at, 'token_revoke', { token: name }),
    ]);
    return { info: adminInfo(await findToken(tx, store.id, name)) };
  });
}

/**
 * Issues a new secret under the token's name, with its ACL, scope and expiry; the old secret
 * goes on working, renamed `<name>~<id>`, until the overlap ends (its `expires_at`).
 */
export async function rotateTokenFor(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  name: string,
  body: unknown,
): Promise<{ token: string; info: AdminTokenInfo }> {
  requireRole(operator, 'admin', storeCode);
  const { overlap_seconds } = parseWith(RotateInput, body);
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const old = await findToken(tx, store.id, name);
    if (old.revoked_at !== null) {
      throw fieldError(
        'wrong_stage',
        'Token %fieldValue was revoked; create a new one.',
        'name',
        name,
      );
    }
    const at = now(deps);
    const overlapEnd = formatTimestamp(
      new Date((parseTimestamp(at) as Date).getTime() + overlap_seconds * 1000),
    );
    const ends =
      old.expires_at !== null && old.expires_at < overlapEnd ? old.expires_at : overlapEnd;
    await tx.retireToken(store.id, name, `${name}~${old.id}`, ends);
    const created = await issueToken(deps, tx, store, {
      name,
      acl: old.resources,
      warehouses: old.warehouses,
      expires_at: old.expires_at,
    });
    await tx.appendStoreAudit([
      storeAuditEvent(operator, store.id, at, 'token_rotate', {
        token: name,
        old_expires_at: ends,
      }),
    ]);
    return { token: created.token, info: adminInfo(created.info) };
  });
}
