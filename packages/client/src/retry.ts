/** When and how long to wait before asking again. */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 4. */
  retries?: number;
  /** The first backoff; each retry doubles it, up to `maxDelayMs`. Default 250 ms. */
  baseDelayMs?: number;
  /** The longest wait between two attempts, Retry-After included. Default 30 s. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  retries: 4,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
};

/** 429 (throttled) and 503 (the service's database is away) pass; asking again later may work. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * "Full jitter" backoff: a random wait between 0 and base × 2^attempt (capped), so that many
 * clients that failed together do not come back together.
 */
export function backoffDelay(
  attempt: number,
  options: Required<RetryOptions>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** A Retry-After header in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (0 for the first retry): what the service asked for
 * in Retry-After, plus a little jitter; the exponential backoff when it asked for nothing.
 */
export function retryDelay(
  attempt: number,
  retryAfter: number | undefined,
  options: Required<RetryOptions>,
  random: () => number = Math.random,
): number {
  if (retryAfter === undefined) return backoffDelay(attempt, options, random);
  return Math.min(options.maxDelayMs, retryAfter + Math.floor(random() * options.baseDelayMs));
}
