import { parseTimestamp, type Timestamp } from '../domain/timestamp.js';
import type { TokenRecord } from '../domain/types.js';
import type { Repository } from '../ports/repository.js';

/** A token's `last_used_at` is rewritten at most this often. */
export const TOKEN_USE_RESOLUTION_MS = 60_000;

/**
 * Records when each token was last used (docs/admin-api.md) without a write on the path of every
 * `/V1` request: a use is written only when the stored one is a minute old or more, and then in
 * the background, after the request has its answer; one write per token at a time per process.
 * Losing one (the process stops, the database is busy) costs a minute of precision, nothing else.
 */
export function tokenUseTracker(repository: Repository) {
  const pending = new Set<number>();
  return {
    note(record: TokenRecord, at: Timestamp): void {
      // Timestamps of one minute (`YYYY-MM-DD HH:MM`) are less than a minute apart.
      if (record.last_used_at?.slice(0, 16) === at.slice(0, 16)) return;
      const last = record.last_used_at ? parseTimestamp(record.last_used_at) : null;
      const now = parseTimestamp(at);
      if (!now || pending.has(record.id)) return;
      if (last && now.getTime() - last.getTime() < TOKEN_USE_RESOLUTION_MS) return;
      pending.add(record.id);
      setImmediate(() => {
        repository
          .transaction((tx) => tx.touchToken(record.id, at))
          .catch(() => undefined)
          .finally(() => pending.delete(record.id));
      });
    },
  };
}

export type TokenUseTracker = ReturnType<typeof tokenUseTracker>;
