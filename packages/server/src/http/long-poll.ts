import { HttpError } from './errors.js';

/** How long polls are held (docs/polling.md); `serve --max-wait` and friends set them. */
export interface LongPollLimits {
  /** The longest a request is held, whatever its `wait` says; 0 turns waiting off. */
  maxWaitMs: number;
  /** Waits end up to this fraction early, at random, so that waiters do not return in step. */
  jitter: number;
  /** Requests one token may have waiting at once. */
  perToken: number;
  /** Requests the process may have waiting at once. */
  total: number;
}

/**
 * 25 s: under the idle timeouts of common load balancers and gateways (30 s and up), so a held
 * request is answered before one of them cuts it.
 */
export const DEFAULT_LONG_POLL_LIMITS: LongPollLimits = {
  maxWaitMs: 25_000,
  jitter: 0.1,
  perToken: 10,
  total: 10_000,
};

/** Seconds a 429 over a waiter cap tells the client to wait. */
const RETRY_AFTER_SECONDS = 1;

/** While a change has committed that no read can serve yet, the first look again is after this. */
const PENDING_FIRST_MS = 10;
const PENDING_MOST_MS = 1_000;

/** What one look at the queue found. */
export interface Look<T> {
  result: T;
  /** Something the caller has not seen: answer now. */
  ready: boolean;
  /** A change committed that the look could not serve yet: look again soon, unasked. */
  pending: boolean;
  /** The store the look read, for telling which changes concern it; null: any. */
  storeId: number | null;
}

/** Subscribes to the repository's commits (`Repository.onQueueChange`). */
export type ChangeSource = (listener: (storeId: number | null) => void) => () => void;

function overCap(what: string): HttpError {
  const seconds = String(RETRY_AFTER_SECONDS);
  return new HttpError(
    429,
    `Too many long polls are waiting ${what}: retry in %fieldValue seconds, or poll without "wait".`,
    [{ fieldName: 'Retry-After', fieldValue: seconds }],
    { 'retry-after': seconds },
  );
}

/**
 * The long polls of one server process. A waiter looks at its queue, and while it finds nothing
 * new, waits for a commit (of this process or another, through the change source), the end of
 * its wait, or the shutdown, then looks again; between looks it holds no database connection.
 * It subscribes before its first look, so a commit between a look and the wait is never lost.
 */
export class LongPolls {
  readonly #limits: LongPollLimits;
  readonly #changes: ChangeSource | undefined;
  readonly #perToken = new Map<string, number>();
  readonly #releases = new Set<() => void>();
  #waiting = 0;
  #closed = false;

  constructor(limits: LongPollLimits, changes: ChangeSource | undefined) {
    this.#limits = limits;
    this.#changes = changes;
  }

  /** How many requests are held now. */
  get waiting(): number {
    return this.#waiting;
  }

  /** How long a request that asks for `seconds` is held at most, before the jitter. */
  holdMs(seconds: number): number {
    return this.#closed ? 0 : Math.min(seconds * 1000, this.#limits.maxWaitMs);
  }

  /**
   * Looks until a look is ready or the wait ends, and answers the last look. Over a cap: 429
   * before the first look.
   */
  async hold<T>(token: string, seconds: number, look: () => Promise<Look<T>>): Promise<T> {
    const holdMs = this.holdMs(seconds);
    if (holdMs <= 0) return (await look()).result;
    if (this.#waiting >= this.#limits.total) throw overCap('on this server');
    const mine = this.#perToken.get(token) ?? 0;
    if (mine >= this.#limits.perToken) throw overCap('for this token');
    this.#waiting += 1;
    this.#perToken.set(token, mine + 1);

    let wake: (() => void) | undefined;
    let changed = false;
    let storeId: number | null = null;
    const signal = () => {
      changed = true;
      wake?.();
    };
    const unsubscribe = this.#changes?.((store) => {
      if (store === null || storeId === null || store === storeId) signal();
    });
    let ended = false;
    const end = () => {
      ended = true;
      wake?.();
    };
    this.#releases.add(end);
    const jittered = holdMs * (1 - Math.random() * this.#limits.jitter);
    const deadline = setTimeout(end, jittered);
    let pendingMs = PENDING_FIRST_MS;
    try {
      for (;;) {
        changed = false;
        const found = await look();
        storeId = found.storeId;
        if (found.ready || ended || this.#closed) return found.result;
        if (changed) continue;
        await new Promise<void>((resolve) => {
          wake = resolve;
          if (found.pending) {
            setTimeout(resolve, pendingMs).unref();
            pendingMs = Math.min(pendingMs * 2, PENDING_MOST_MS);
          }
        });
        wake = undefined;
      }
    } finally {
      clearTimeout(deadline);
      this.#releases.delete(end);
      unsubscribe?.();
      this.#waiting -= 1;
      const left = (this.#perToken.get(token) ?? 1) - 1;
      if (left > 0) this.#perToken.set(token, left);
      else this.#perToken.delete(token);
    }
  }

  /** Ends every wait now (each answers what its last look found) and holds no new ones. */
  close(): void {
    this.#closed = true;
    for (const release of [...this.#releases]) release();
  }
}
