import { FulfilApiError } from './errors.js';
import type { AbortSignalLike } from './fetch-like.js';
import type { PollOptions } from './poll-options.js';

/** One answer of a queue or feed: what it holds, and the `Fulfil-Cursor` it carried. */
export interface WatchedPage<T> {
  orders: T[];
  cursor: string | undefined;
}

/** How `watch()` follows a queue (docs/polling.md). */
export interface WatchOptions {
  /**
   * A cursor kept from an earlier watch (see `onCursor`): it resumes there. Without one, the
   * watch first yields every order in the queue, then what changes.
   */
  cursor?: string;
  /** Seconds each long poll may be held; default 20. 0: short polls only. */
  wait?: number;
  /**
   * After a poll that came back empty at once (long polling off, or a service without it), the
   * next one waits this long, doubling up to `idleMaxMs`; data sets it back. Default 5 s.
   */
  idleMinMs?: number;
  /** Default 60 s. */
  idleMaxMs?: number;
  /** The longest wait after failures (network, 5xx, 429) before trying again; default 30 s. */
  errorMaxMs?: number;
  /**
   * Called with the cursor of what the loop has taken so far, once the orders before it were
   * yielded and the loop asked for more: persist it to resume after a restart.
   */
  onCursor?: (cursor: string) => void;
  /** Ends the watch: the loop returns. */
  signal?: AbortSignalLike;
  /** Replaceable in tests. */
  now?: () => number;
}

/** What the client hands the watch: its sleep, and a pass over the whole queue by `after`. */
export interface WatchDeps<T> extends WatchOptions {
  sleep: (ms: number) => Promise<void>;
  startOver: (pass: { signal?: AbortSignalLike }) => AsyncIterable<WatchedPage<T>>;
}

const DEFAULT_WAIT_SECONDS = 20;

/**
 * The loop of `watch()`: long polls `since` the cursor; a 410 (the cursor can no longer be
 * served) starts over by itself; failures back off and resume from the same cursor, so no
 * change is lost and one may come twice (after a restart, what followed the last persisted
 * cursor). Errors that retrying cannot mend (400, 401, 403, 404) end the loop by throwing.
 */
export async function* watchQueue<T>(
  poll: (params: PollOptions) => Promise<WatchedPage<T>>,
  options: WatchDeps<T>,
): AsyncGenerator<T, void, undefined> {
  const { sleep, signal, onCursor } = options;
  const now = options.now ?? Date.now;
  const wait = options.wait ?? DEFAULT_WAIT_SECONDS;
  const idleMin = options.idleMinMs ?? 5_000;
  const idleMax = options.idleMaxMs ?? 60_000;
  const errorMax = options.errorMaxMs ?? 30_000;
  let cursor = options.cursor;
  let idle = idleMin;
  let failures = 0;
  const advance = (next: string | undefined) => {
    if (next === undefined || next === cursor) return;
    cursor = next;
    onCursor?.(next);
  };

  while (!signal?.aborted) {
    try {
      if (cursor === undefined) {
        // The cursor of the pass's first page: what changes during the pass comes again after.
        let first: string | undefined;
        for await (const page of options.startOver(signal ? { signal } : {})) {
          first ??= page.cursor;
          yield* page.orders;
        }
        if (first === undefined) throw new Error('fulfil: the service sends no Fulfil-Cursor');
        advance(first);
        continue;
      }
      const started = now();
      const page = await poll({
        since: cursor,
        ...(wait > 0 ? { wait } : {}),
        ...(signal ? { signal } : {}),
      });
      failures = 0;
      if (page.orders.length > 0) {
        yield* page.orders;
        advance(page.cursor);
        idle = idleMin;
        continue;
      }
      advance(page.cursor);
      // An empty answer well before the wait was up: the service did not hold it.
      const held = wait > 0 && now() - started >= wait * 500;
      if (!held) {
        await sleep(idle);
        idle = Math.min(idle * 2, idleMax);
      }
    } catch (error) {
      if (signal?.aborted) return;
      if (error instanceof FulfilApiError && error.status === 410) {
        cursor = undefined;
        continue;
      }
      const mendable =
        !(error instanceof FulfilApiError) || error.status === 429 || error.status >= 500;
      if (!mendable) throw error;
      failures += 1;
      await sleep(Math.min(500 * 2 ** failures, errorMax));
    }
  }
}

/**
 * A pass over everything a queue or feed holds, page after page by id (`after`), for a watch to
 * start over from: the pages it reads, until an empty one.
 */
export function passByAfter<T extends { id: number }>(
  read: (params: PollOptions) => Promise<WatchedPage<T>>,
): WatchDeps<T>['startOver'] {
  return async function* (pass) {
    for (let after = 0; ; ) {
      const page = await read({ after, ...pass });
      const last = page.orders.at(-1);
      yield page;
      if (!last || last.id <= after) return;
      after = last.id;
    }
  };
}
