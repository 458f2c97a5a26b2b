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

export function createAuthThrottle(options: AuthThrottleOptions = {}): AuthThrottle {
  const limit = options.limit ?? 20;
  const windowMs = options.windowMs ?? 10_000;
  const maxAddresses = options.maxAddresses ?? 10_000;
  const now = options.now ?? Date.now;
  /** Failure times per key, oldest first, the last `limit` only; in order of the latest failure. */
  const failures = new Map<string, number[]>();

  const makeRoom = (at: number) => {
    for (const [key, times] of failures) {
      if ((times[times.length - 1] as number) <= at - windowMs) failures.delete(key);
    }
    // Still full: the least recently failing address goes.
    while (failures.size >= maxAddresses) {
      const oldest = failures.keys().next().value as string;
      failures.delete(oldest);
    }
  };

  return {
    retryAfter(address) {
      const times = failures.get(throttleKey(address));
      if (!times || times.length < limit) return 0;
      const clears = (times[0] as number) + windowMs - now();
      return clears > 0 ? Math.ceil(clears / 1000) : 0;
    },
    fail(address) {
      const key = throttleKey(address);
      const at = now();
      const times = failures.get(key) ?? [];
      failures.delete(key);
      if (failures.size >= maxAddresses) makeRoom(at);
      times.push(at);
      if (times.length > limit) times.shift();
      failures.set(key, times);
    },
    size: () => failures.size,
  };
}

/** The 429 of a throttled address. */
export function tooManyFailures(retryAfterSeconds: number): HttpError {
  const seconds = String(retryAfterSeconds);
  return new HttpError(
    429,
    'Too many failed authentications from this address: retry in %fieldValue seconds.',
    [{ fieldName: 'Retry-After', fieldValue: seconds }],
    { 'retry-after': seconds },
  );
}
