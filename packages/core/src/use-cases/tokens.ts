import * as v from 'valibot';
import {
  type ApiAction,
  type RolePreset,
  resolveAcl,
  resourceOf,
  STORE_WIDE_ACTIONS,
  unknownResourceMessage,
  unknownResources,
} from '../domain/acl.js';
import { DomainError, fieldError } from '../domain/errors.js';
import type { Timestamp } from '../domain/timestamp.js';
import { generateTokenSecret, hashTokenSecret, sameHash } from '../domain/token-secret.js';
import type { Actor, Store, TokenRecord } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { storeCode as storeCodeSchema, TokenInput, type TokenSpec } from '../schemas/operator.js';
import { assertWellFormed, parseWith } from '../schemas/parse.js';
import { isWellFormed } from '../schemas/well-formed.js';
import { type EngineDeps, now, operatorActor, requireStore } from './deps.js';

/** An authenticated caller: an actor plus the resources its token grants. */
export interface Principal extends Actor {
  resources: readonly string[];
  /**
   * When the token stops working (null: never), so that a cached principal can still be refused
   * once it has passed. Absent when unknown: such a principal is never cached.
   */
  expires_at?: Timestamp | null;
  /** The id of the store, when the principal comes from a token: a poll then reads no store. */
  store_id?: number;
}

/** What is shown of a token after creation: everything but the secret and its hash. */
export type TokenInfo = Omit<TokenRecord, 'hash' | 'store_id'> & { store_code: string };

export interface CreatedToken {
  /** The secret, in plain text: shown this once, never stored. */
  token: string;
  info: TokenInfo;
}

function infoOf(record: TokenRecord, storeCode: string): TokenInfo {
  const { hash: _hash, store_id: _store, ...info } = record;
  return { ...info, store_code: storeCode };
}

/**
 * Refuses a warehouse scope on a token every resource of which needs the whole store (a sales
 * channel's): each of its calls would be refused, so it is refused once, here, instead.
 */
function assertScopeUsable(resources: readonly string[], prefix: string, acl: unknown): void {
  const storeWide = new Set(STORE_WIDE_ACTIONS.map((action) => resourceOf(action, prefix)));
  if (!resources.every((resource) => storeWide.has(resource))) return;
  throw fieldError(
    'invalid_request',
    'A token of %fieldValue acts for the whole store (a sales order spans warehouses): limited to warehouses, every call it makes would be refused. Leave out warehouses.',
    'warehouses',
    typeof acl === 'string' ? acl : resources.join(', '),
  );
}

/** Issues a token within an open transaction; `createToken` and the seed loader share it. */
export async function issueToken(
  deps: EngineDeps,
  tx: RepositoryTx,
  store: Store,
  input: TokenSpec,
): Promise<CreatedToken> {
  if (input.warehouses) {
    const known = new Set((await tx.listWarehouses(store.id)).map((warehouse) => warehouse.code));
    input.warehouses.forEach((code, index) => {
      if (!known.has(code))
        throw fieldError(
          'invalid_request',
          'Warehouse %fieldValue does not exist.',
          `warehouses[${index}]`,
          code,
        );
    });
  }
  const [unknown] = unknownResources(input.acl, deps.aclPrefix);
  if (unknown) {
    throw fieldError(
      'invalid_request',
      unknownResourceMessage(deps.aclPrefix),
      `acl[${unknown.index}]`,
      unknown.resource,
    );
  }
  const resources = resolveAcl(input.acl as RolePreset | string[], deps.aclPrefix);
  if (input.warehouses) assertScopeUsable(resources, deps.aclPrefix, input.acl);
  const secret = input.token ?? generateTokenSecret();
  const record = await tx.insertToken({
    store_id: store.id,
    name: input.name,
    hash: hashTokenSecret(secret),
    resources,
    warehouses: input.warehouses,
    expires_at: input.expires_at,
    revoked_at: null,
    created_at: now(deps),
  });
  return { token: secret, info: infoOf(record, store.code) };
}

/**
 * Issues a token bound to one store, with an ACL (a role preset or resource list), an optional
 * warehouse scope and expiry. The secret is returned once and stored only as a hash.
 */
export async function createToken(
  deps: EngineDeps,
  storeCode: string,
  spec: unknown,
): Promise<CreatedToken> {
  const input = parseWith(TokenInput, spec);
  return deps.repository.transaction(async (tx) =>
    issueToken(deps, tx, await requireStore(tx, storeCode), input),
  );
}

export async function listTokens(deps: EngineDeps, storeCode: string): Promise<TokenInfo[]> {
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    return (await tx.listTokens(store.id)).map((record) => infoOf(record, store.code));
  }, 'read');
}

/** Revokes the named token; it stops working at once. Revoking twice is harmless. */
export async function revokeToken(
  deps: EngineDeps,
  storeCode: string,
  name: string,
): Promise<void> {
  assertWellFormed({ name });
  await deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    if (!(await tx.revokeToken(store.id, name, now(deps)))) {
      throw fieldError('not_found', 'Token %fieldValue does not exist.', 'name', name);
    }
  });
}

function unauthenticated(reason: string): DomainError {
  return new DomainError('unauthenticated', reason);
}

/**
 * Who holds this secret in this store (docs/behaviour.md). Missing, unknown, revoked, expired and
 * other-store tokens all fail as `unauthenticated`.
 */
export async function authenticate(
  deps: EngineDeps,
  storeCode: string,
  secret: string | null,
): Promise<Principal> {
  if (!secret)
    throw unauthenticated('An access token is required: send "Authorization: Bearer <token>".');
  // A store code no store can have (the path is the client's to write) never reaches storage.
  // Nor does a secret no token can have: hashing would write its lone surrogates as U+FFFD.
  if (!v.is(storeCodeSchema, storeCode) || !isWellFormed(secret)) {
    throw unauthenticated('The access token is not valid for this store.');
  }
  const hash = hashTokenSecret(secret);
  const at: Timestamp = now(deps);
  const record = await deps.repository.findStoreToken(hash, storeCode);
  if (!record || !sameHash(record.hash, hash)) {
    throw unauthenticated('The access token is not valid for this store.');
  }
  if (record.revoked_at !== null) throw unauthenticated('The access token was revoked.');
  if (record.expires_at !== null && record.expires_at <= at)
    throw unauthenticated('The access token has expired.');
  const principal: Principal = {
    store_code: storeCode,
    store_id: record.store_id,
    name: record.name,
    warehouses: record.warehouses,
    resources: record.resources,
    expires_at: record.expires_at,
  };
  // After the read transaction: the write it may start is a transaction of its own.
  deps.tokenUse?.note(record, at);
  return principal;
}

/**
 * The operator as a principal, for running the public actions through the library or the CLI:
 * the whole store, and explicitly every resource, so it passes the same check a token does.
 */
export function operatorPrincipal(
  deps: Pick<EngineDeps, 'aclPrefix'>,
  storeCode: string,
  name = 'operator',
): Principal {
  return { ...operatorActor(storeCode, name), resources: resolveAcl('all', deps.aclPrefix) };
}

/**
 * Throws `forbidden`, naming the resource, unless the principal's token grants the action. Every
 * public use case calls it itself; a bare `Actor` (no resource list) is granted nothing.
 */
export function authorize(
  deps: Pick<EngineDeps, 'aclPrefix'>,
  principal: Principal,
  action: ApiAction,
): void {
  const resource = resourceOf(action, deps.aclPrefix);
  if (!Array.isArray(principal.resources) || !principal.resources.includes(resource)) {
    throw new DomainError('forbidden', 'The access token is not allowed to use %resources.', [
      { resources: resource },
    ]);
  }
}
