import { databaseUnavailable } from '@fulfil/core';
import type { DriverProfile } from './driver-profile.js';

/**
 * How long to wait before running a transaction again after its `attempt`-th try met a transient
 * conflict: the profile's base delay, doubled on each next attempt, with random jitter so that
 * writers that collided do not collide again.
 */
export function retryDelayMs(profile: DriverProfile, attempt: number): number {
  const backoff = profile.retryBaseDelayMs * 2 ** (attempt - 1);
  return backoff / 2 + Math.random() * backoff;
}

/**
 * Whether a transaction that failed with `error` on its `attempt`-th try may run again: the
 * database called the failure transient and attempts are left.
 */
export function mayRetry(profile: DriverProfile, error: unknown, attempt: number): boolean {
  return attempt < profile.maxAttempts && profile.isRetryable(error);
}

/** The error a failed transaction is reported with: core's `unavailable` when the database is away. */
export function reportedFailure(profile: DriverProfile, error: unknown): unknown {
  return profile.isUnavailable(error) ? databaseUnavailable(error) : error;
}
