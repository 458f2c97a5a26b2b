import { formatTimestamp, hashTokenSecret, type Principal, parseTimestamp } from '@fulfil/core';
import type { HeldToken } from './long-poll.js';
import type { HttpEngine } from './types.js';

/**
 * The token of a long poll about to be held, as the wait checks it again: by authenticating its
 * secret anew, which reads the token as the repository has last heard of it (revoked, expired,
 * or still good), never a kept answer.
 */
export function heldToken(
  engine: Pick<HttpEngine, 'authenticate' | 'now'>,
  storeCode: string,
  secret: string,
  principal: Principal,
): HeldToken {
  return {
    key: `${storeCode}\u0000${principal.name}`,
    identity: `${storeCode}\u0000${hashTokenSecret(secret)}`,
    check: async () => {
      await engine.authenticate(storeCode, secret);
    },
    expiresInMs: millisecondsUntil(principal.expires_at, engine.now?.()),
  };
}

/** From `now` (the engine's clock; default the system's) to `expiresAt`; undefined: never. */
function millisecondsUntil(
  expiresAt: string | null | undefined,
  now = formatTimestamp(new Date()),
): number | undefined {
  if (expiresAt === null || expiresAt === undefined) return undefined;
  const end = parseTimestamp(expiresAt);
  const start = parseTimestamp(now);
  return end && start ? end.getTime() - start.getTime() : undefined;
}
