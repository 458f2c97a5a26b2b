import { parseTimestamp, type Timestamp } from '../domain/timestamp.js';
import type { TokenRecord } from '../domain/types.js';
import type { Repository } from '../ports/repository.js';

/** A token's `last_used_at` is rewritten at most this often. */
export const TOKEN_USE_RESOLUTION_MS = 60_000;

/** Tokens whose last written use is remembered at most; past it, the memory starts over. */
const REMEMBERED = 10_000;

/**
 * Records when each token was last used (docs/admin-api.md) without a write on the path of every
 * `/V1` request: a use is written only when the last one, as stored or as this process last
 * wrote it, is a minute old or more, and then in the background, after the request has its
 * answer; one write per token at a time per process. The process remembers what it wrote
 * because a token may come from the repository's memory, with the use it had when read.
 * Losing one (the process stops, the database is busy) costs a minute of precision, nothing else.
 */
export function tokenUseTracker(repository: Repository) {
  const pending = new Set<number>();
  /** The last use this process wrote (or began to write) of each token. */
  const written = new Map<number, Timestamp>();
  const minute = (at: Timestamp | null) => at?.slice(0, 16);
  return {
    note(record: TokenRecord, at: Timestamp): void {
      const wrote = written.get(record.id);
      const stored = record.last_used_at ?? null;
      // Timestamps of this format order as their text does.
      const last = wrote !== undefined && (stored === null || wrote > stored) ? wrote : stored;
      // Timestamps of one minute (`YYYY-MM-DD HH:MM`) are less than a minute apart.
      if (minute(last) === minute(at) || pending.has(record.id)) return;
      const lastTime = last ? parseTimestamp(last) : null;
      const now = parseTimestamp(at);
      if (!now) return;
      if (lastTime && now.getTime() - lastTime.getTime() < TOKEN_USE_RESOLUTION_MS) return;
      pending.add(record.id);
      if (written.size >= REMEMBERED) written.clear();
      written.set(record.id, at);
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
