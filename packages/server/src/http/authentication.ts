import { DomainError, type Principal } from '@fulfil/core';
import { type AuthThrottle, throttledFailure } from './auth-throttle.js';
import { clientAddress } from './client-address.js';
import type { Metrics } from './metrics.js';
import type { Credentials } from './request-parts.js';
import type { ResponseCache } from './response-cache.js';
import type { HttpEngine, HttpRequest } from './types.js';

/** Who a `/V1` request is: its token's principal, throttled per client address on failure. */

export interface AuthenticatorDeps {
  engine: HttpEngine;
  throttle: AuthThrottle;
  cache: ResponseCache | undefined;
  now: HttpEngine['now'];
  /** Take the client's address from the proxy's `X-Forwarded-For` (`--trust-proxy`). */
  trustProxy: boolean;
  /** Counts each failed authentication in the metrics. */
  observeAuthFailure: Metrics['observeAuthFailure'] | undefined;
}

export type Authenticate = (
  request: HttpRequest,
  storeCode: string,
  credentials: Credentials,
  cached?: { stamp: string; identity: string },
) => Promise<Principal>;

export function createAuthenticator({
  engine,
  throttle,
  cache,
  now,
  trustProxy,
  observeAuthFailure,
}: AuthenticatorDeps): Authenticate {
  /**
   * The principal of the request's token. A failure counts against the client's address, and
   * once the address is throttled it is answered 429 instead of 401; success never is. With a
   * change stamp, a principal authenticated under the same stamp is taken from the cache,
   * unless its token has expired since: then the engine refuses it as before.
   */
  async function authenticate(
    request: HttpRequest,
    storeCode: string,
    credentials: Credentials,
    cached?: { stamp: string; identity: string },
  ): Promise<Principal> {
    if (cache && cached && now) {
      const principal = cache.principal(cached.stamp, cached.identity);
      const expiresAt = principal?.expires_at;
      if (principal && (expiresAt === null || (expiresAt !== undefined && expiresAt > now()))) {
        return principal;
      }
    }
    const principal = await authenticateAnew(request, storeCode, credentials);
    // Successes only: a refusal is never kept, so it is decided afresh (and throttled) each time.
    if (cache && cached && principal.expires_at !== undefined) {
      cache.keepPrincipal(cached.stamp, cached.identity, principal);
    }
    return principal;
  }

  async function authenticateAnew(
    request: HttpRequest,
    storeCode: string,
    credentials: Credentials,
  ): Promise<Principal> {
    try {
      if (credentials.malformed) {
        throw new DomainError(
          'unauthenticated',
          'The Authorization header must read "Bearer <token>".',
        );
      }
      return await engine.authenticate(storeCode, credentials.secret);
    } catch (error) {
      throw throttledFailure(throttle, clientAddress(request, trustProxy), error, (status) =>
        observeAuthFailure?.('api', status),
      );
    }
  }

  return authenticate;
}
