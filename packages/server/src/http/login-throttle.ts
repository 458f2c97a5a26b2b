import {
  createFailureWindow,
  isRefusedCredential,
  TooManyFailures,
  throttleKey,
} from './auth-throttle.js';

/**
 * Failed operator logins, counted per operator name and client address together: after `limit`
 * failures of one name from one address within `windowMs`, logins of that name from that
 * address are refused with 429, before their secret is even looked at, until the window has
 * moved past the oldest failure. Nothing else is locked:
 * - bad `/V1` tokens and pages opened without a session count elsewhere (auth-throttle.ts), or
 *   not at all, and never against a login;
 * - one name guessed from many addresses locks each of those addresses out of that name, never
 *   the name itself: its operator logs in from their own address meanwhile;
 * - one address trying many names locks each of those names there, never the address: another
 *   operator behind the same address (an office, a proxy) logs in meanwhile.
 * So a valid login is refused only after failures of its own name from its own address. Operator
 * secrets are 256 random bits: the guesses that get through are no threat, and the lock is
 * there to keep a client that keeps failing from costing more than that.
 *
 * Memory is bounded as the address throttle's: at most `maxKeys` (name, address) pairs.
 */

export interface LoginThrottleOptions {
  /** Failures of one name from one address that lock that pair; default 10. */
  limit?: number;
  /** Default 10 minutes. */
  windowMs?: number;
  /** Most (name, address) pairs remembered at once; default 10,000. */
  maxKeys?: number;
  /** Milliseconds since some epoch; default `Date.now`. */
  now?: () => number;
}

export interface LoginThrottle {
  /** Whole seconds until `name` may log in from `address` again; 0 when it may now. */
  retryAfter(name: string, address: string): number;
  /** Counts one failed login of `name` from `address`. */
  fail(name: string, address: string): void;
  /** How many (name, address) pairs are remembered. */
  size(): number;
}

export function createLoginThrottle(options: LoginThrottleOptions = {}): LoginThrottle {
  const window = createFailureWindow({
    limit: options.limit ?? 10,
    windowMs: options.windowMs ?? 10 * 60_000,
    maxKeys: options.maxKeys ?? 10_000,
    ...(options.now ? { now: options.now } : {}),
  });
  const keyOf = (name: string, address: string) => `${throttleKey(address)} ${name}`;
  return {
    retryAfter: (name, address) => window.retryAfter(keyOf(name, address)),
    fail: (name, address) => window.fail(keyOf(name, address)),
    size: window.size,
  };
}

/** The 429 of a locked (name, address) pair. */
export function tooManyLogins(retryAfterSeconds: number): TooManyFailures {
  return new TooManyFailures(
    'Too many failed logins of this operator from this address: retry in %fieldValue seconds.',
    retryAfterSeconds,
  );
}

/** The operator name a login body names, when it names one a login could have. */
export function loginName(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('name' in body)) return undefined;
  const { name } = body;
  // Longer than any name can be: the login is refused as bad input, and never counted.
  return typeof name === 'string' && name.length <= 255 ? name : undefined;
}

/**
 * Runs a login of `name` from `address`: refused with 429 while that pair is locked, counted
 * against it when its credentials are refused. Without a name or an address nothing is counted.
 */
export async function throttledLogin<T>(
  throttle: LoginThrottle,
  name: string | undefined,
  address: string | undefined,
  attempt: () => Promise<T>,
  observe?: (status: 401 | 429) => void,
): Promise<T> {
  const pair = name !== undefined && address !== undefined ? { name, address } : undefined;
  const wait = pair ? throttle.retryAfter(pair.name, pair.address) : 0;
  if (wait > 0) {
    observe?.(429);
    throw tooManyLogins(wait);
  }
  try {
    return await attempt();
  } catch (error) {
    if (isRefusedCredential(error)) {
      if (pair) throttle.fail(pair.name, pair.address);
      observe?.(401);
    }
    throw error;
  }
}
