import { setTimeout as sleep } from 'node:timers/promises';
import { databaseUnavailable } from '@fulfil/core';
import type { DriverProfile } from './driver-profile.js';
import { isOlderWriterRefusal } from './writer-generation.js';

/**
 * How long to wait before running a transaction again after its `attempt`-th try failed with
 * `error`, or undefined when it may not run again: the database did not call the failure
 * transient, or no attempt is left, or (with `profile.retryForMs`) no time, counted from
 * `conflictSince`, the `performance.now()` of its first transient failure. The delay is the
 * profile's base delay, doubled on each next attempt up to its cap, with random jitter so that
 * writers that collided do not collide again; the last one ends at the time limit.
 */
export function retryDelayMs(
  profile: DriverProfile,
  error: unknown,
  attempt: number,
  conflictSince: number,
): number | undefined {
  if (attempt >= profile.maxAttempts || !profile.isRetryable(error)) return undefined;
  const backoff = Math.min(
    profile.retryBaseDelayMs * 2 ** (attempt - 1),
    profile.retryMaxDelayMs ?? Number.POSITIVE_INFINITY,
  );
  const delay = backoff / 2 + Math.random() * backoff;
  if (profile.retryForMs === undefined) return delay;
  const left = conflictSince + profile.retryForMs - performance.now();
  return left > 0 ? Math.min(delay, left) : undefined;
}

/**
 * Runs `run` until it resolves, or rejects with a failure that {@link retryDelayMs} gives no
 * further try (or after `retryable` says no more), sleeping each delay on a timer meanwhile:
 * the event loop serves other work. Rethrows the last failure as it is.
 */
export async function withRetries<T>(
  profile: DriverProfile,
  run: () => Promise<T>,
  retryable: () => boolean = () => true,
): Promise<T> {
  let conflictSince: number | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      conflictSince ??= performance.now();
      const delay = retryable() ? retryDelayMs(profile, error, attempt, conflictSince) : undefined;
      if (delay === undefined) throw error;
      await sleep(delay);
    }
  }
}

/**
 * The error a failed transaction is reported with: core's `unavailable` when the database is
 * away, or refuses this process's writes because a newer release migrated it (its `cause`, which
 * a server logs, says to stop this process; a client's retry may reach one that is current).
 */
export function reportedFailure(profile: DriverProfile, error: unknown): unknown {
  return profile.isUnavailable(error) || isOlderWriterRefusal(error)
    ? databaseUnavailable(error)
    : error;
}
