import type { CarrierAccount } from '@fulfil/core';

/**
 * A carrier secret, read from the environment variable the installation's carrier account names:
 * secrets never sit in a seed file, a store's settings or the database. A missing one throws;
 * dispatch records that as a permanent refusal the operator sees on the order (docs/couriers.md).
 */
export function secretFromEnvironment(
  account: CarrierAccount,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const variable = account.secret_env;
  if (!variable) throw new Error(`the carrier account of type ${account.type} lacks secret_env`);
  const value = env[variable];
  if (!value) throw new Error(`the environment variable ${variable} (secret_env) is not set`);
  return value;
}

/** Seconds or an HTTP date in `Retry-After`, as milliseconds from now; undefined when absent. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
