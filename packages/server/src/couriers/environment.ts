/**
 * A carrier secret, read from the environment variable the store's settings name: secrets never
 * sit in a seed file or the database. A missing one throws; dispatch records that as a permanent
 * refusal the operator sees on the order (docs/couriers.md).
 */
export function secretFromEnvironment(
  variable: string | undefined,
  setting: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (!variable) throw new Error(`the courier settings lack ${setting}`);
  const value = env[variable];
  if (!value) throw new Error(`the environment variable ${variable} (${setting}) is not set`);
  return value;
}

/** Seconds or an HTTP date in `Retry-After`, as milliseconds from now; undefined when absent. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
