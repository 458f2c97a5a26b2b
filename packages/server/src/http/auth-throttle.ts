import { isDomainError } from '@fulfil/core';
import { HttpError } from './errors.js';

/**
 * Failed authentications per client address: after `limit` failures within
 * `windowMs`, further failures from that address are answered 429 until the window has moved
 * past the oldest of them. Only failures are counted and only failures are refused: a request
 * with a valid token is served from any address, a throttled one included, so clients sharing
 * an address (a NAT, a proxy) never lose service through someone else's bad tokens.
 *
 * Memory is bounded: at most `maxAddresses` addresses with at most `limit` timestamps each; when
 * full, addresses whose failures are all past the window go first, then the least recently
 * failing one.
 */

export interface AuthThrottleOptions {
  /** Failures within the window that start the throttle; default 20. */
  limit?: number;
  /** Default 10 s. */
  windowMs?: number;
  /** Most addresses remembered at once; default 10,000. */
  maxAddresses?: number;
  /** Milliseconds since some epoch; default `Date.now`. */
  now?: () => number;
}

export interface AuthThrottle {
  /** Whole seconds until `address` is no longer throttled; 0 when it is not. */
  retryAfter(address: string): number;
  /** Counts one failed authentication from `address`. */
  fail(address: string): void;
  /** How many addresses are remembered. */
  size(): number;
}

/** Failures counted by key in a sliding window: what every throttle of failures is made of. */
export interface FailureWindow {
  /** Whole seconds until `key` has fewer than the limit of failures in the window; 0: now. */
  retryAfter(key: string): number;
  fail(key: string): void;
  size(): number;
}

export interface FailureWindowOptions {
  limit: number;
  windowMs: number;
  /** Most keys remembered at once. */
  maxKeys: number;
  now?: () => number;
}

/**
 * The key an address is counted under: IPv4 as it is (an IPv4-mapped IPv6 address too), IPv6 by
 * its /64 network, since one host commonly holds a whole /64.
 */
export function throttleKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.toLowerCase().split('%')[0]?.split('::') ?? [];
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

export function createFailureWindow(options: FailureWindowOptions): FailureWindow {
  const { limit, windowMs, maxKeys } = options;
  const now = options.now ?? Date.now;
  /** Failure times per key, oldest first, the last `limit` only; in order of the latest failure. */
  const failures = new Map<string, number[]>();

  const makeRoom = (at: number) => {
    for (const [key, times] of failures) {
      if ((times[times.length - 1] as number) <= at - windowMs) failures.delete(key);
    }
    // Still full: the least recently failing key goes.
    while (failures.size >= maxKeys) {
      const oldest = failures.keys().next().value as string;
      failures.delete(oldest);
    }
  };

  return {
    retryAfter(key) {
      const times = failures.get(key);
      if (!times || times.length < limit) return 0;
      const clears = (times[0] as number) + windowMs - now();
      return clears > 0 ? Math.ceil(clears / 1000) : 0;
    },
    fail(key) {
      const at = now();
      const times = failures.get(key) ?? [];
      failures.delete(key);
      if (failures.size >= maxKeys) makeRoom(at);
      times.push(at);
      if (times.length > limit) times.shift();
      failures.set(key, times);
    },
    size: () => failures.size,
  };
}

export function createAuthThrottle(options: AuthThrottleOptions = {}): AuthThrottle {
  const window = createFailureWindow({
    limit: options.limit ?? 20,
    windowMs: options.windowMs ?? 10_000,
    maxKeys: options.maxAddresses ?? 10_000,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    retryAfter: (address) => window.retryAfter(throttleKey(address)),
    fail: (address) => window.fail(throttleKey(address)),
    size: window.size,
  };
}

/** A 429 of a throttle of failures, told apart from other 429s (the waiter caps') by its class. */
export class TooManyFailures extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    const seconds = String(retryAfterSeconds);
    super(429, message, [{ fieldName: 'Retry-After', fieldValue: seconds }], {
      'retry-after': seconds,
    });
  }
}

/** The 429 of a throttled address. */
export function tooManyFailures(retryAfterSeconds: number): TooManyFailures {
  return new TooManyFailures(
    'Too many failed authentications from this address: retry in %fieldValue seconds.',
    retryAfterSeconds,
  );
}

/** Where a credential was refused: a `/V1` token, an operator secret, or a login. */
export type AuthSurface = 'api' | 'admin' | 'login';

/** Told of each failed authentication that is counted, with the status it is answered with. */
export type AuthFailureObserver = (surface: AuthSurface, status: 401 | 429) => void;

/** Whether `error` is a refused credential (401), as opposed to a fault or bad input. */
export function isRefusedCredential(error: unknown): boolean {
  return isDomainError(error) && error.code === 'unauthenticated';
}

/**
 * What a failed authentication from `address` is answered with: counted against the address,
 * the error itself, or 429 once the address is throttled. Anything but a refused credential
 * (a fault, bad input) passes through uncounted; a request without an address is not throttled.
 */
export function throttledFailure(
  throttle: AuthThrottle,
  address: string | undefined,
  error: unknown,
  observe?: (status: 401 | 429) => void,
): unknown {
  if (!isRefusedCredential(error)) return error;
  let answer = error;
  if (address !== undefined) {
    const throttled = throttle.retryAfter(address) > 0;
    throttle.fail(address);
    if (throttled) answer = tooManyFailures(throttle.retryAfter(address));
  }
  observe?.(answer === error ? 401 : 429);
  return answer;
}
