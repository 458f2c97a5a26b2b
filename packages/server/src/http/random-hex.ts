import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let used = POOL_BYTES;

/**
 * `bytes` random bytes as hex (request ids, report ids), taken from a pool the system's generator
 * refills 4 KiB at a time: one call to it per few hundred ids instead of one per request.
 */
export function randomHex(bytes: number): string {
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const text = pool.toString('hex', used, used + bytes);
  used += bytes;
  return text;
}
