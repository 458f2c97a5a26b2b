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

/** The grain of the jittered end of a wait. */
const JITTER_STEP_MS = 10;

/**
 * Looks under way at once, all waiters together. A commit wakes every waiter of its store, and a
 * look past what the database's connections serve at once only waits for one, holding its
 * half-made query meanwhile; the others wait in line as their small record.
 */
const MOST_LOOKS_AT_ONCE = 16;

/** Looks kept for their key between changes, at most: a quiet store's followers, not a leak. */
const MOST_KEPT_LOOKS = 1_000;

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

/** Subscribes to the repository's token changes (`Repository.onTokenChange`). */
export type TokenChangeSource = (listener: () => void) => () => void;

/** Where the long polls hear of changes, and whom they tell of a refusal. */
export interface LongPollSources {
  /** Commits that may have changed a queue: waiters look again. */
  queues?: ChangeSource | undefined;
  /** Commits that may have changed a token: waiters check their token again. */
  tokens?: TokenChangeSource | undefined;
  /** A wait refused over a cap: `token` (per token) or `server` (in all). */
  onRefused?: (cap: WaiterCap) => void;
}

/** The caps a wait can be refused over. */
export type WaiterCap = 'token' | 'server';

/**
 * The token a held request was authenticated by. The request answers what it found only while
 * the token is still valid: it is checked again before every answer, whenever tokens change, and
 * when it expires.
 */
export interface HeldToken {
  /** What the per-token cap counts by: the token's store and name. */
  readonly key: string;
  /** The token itself (its store and secret's hash): waiters of one identity share a check. */
  readonly identity: string;
  /** Resolves while the token is valid; rejects with the error to answer (401) once it is not. */
  check(): Promise<void>;
  /** Milliseconds from now until the token expires; undefined when it never does. */
  readonly expiresInMs: number | undefined;
}

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
 * The answer of a wait whose client closed its connection: nobody reads it, but the log line
 * and the metrics say what became of the request (499, as proxies write it).
 */
export function clientClosed(): HttpError {
  return new HttpError(499, 'The client closed the connection before the answer.');
}

/** One held request: what it needs between looks, and nothing of the request itself. */
interface Waiter<T> {
  readonly token: HeldToken;
  readonly look: () => Promise<Look<T>>;
  resolve(result: T): void;
  reject(error: unknown): void;
  /** The store of its last look; null until then (any change concerns it). */
  storeId: number | null;
  /** The last look's answer: what the wait answers when it ends. */
  last: Look<T> | undefined;
  looking: boolean;
  /** In line for a look: a change meanwhile needs no other. */
  queued: boolean;
  /** A change came while it looked: look again as soon as this look ends. */
  changed: boolean;
  ended: boolean;
  /** Its token is being checked before it answers: nothing else moves it meanwhile. */
  answering: boolean;
  /** What it answers instead of its look once the look under way ends (its token refused). */
  refusal: { error: unknown } | undefined;
  pendingMs: number;
  deadline: NodeJS.Timeout | undefined;
  pendingRetry: NodeJS.Timeout | undefined;
  /** The client's connection, while the waiter listens for its close. */
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** Waiters of one key look alike: one look serves all of them (`hold`'s `share`). */
  readonly share: string | undefined;
}

/** A look under way that waiters of its key join instead of looking themselves. */
interface SharedLook {
  /** The number of changes heard when it started: only waiters woken before may join it. */
  readonly startedAt: number;
  readonly joined: Waiter<unknown>[];
}

/**
 * The long polls of one server process. A waiter looks at its queue, and while it finds nothing
 * new, waits for a commit (of this process or another, through the change source), the end of
 * its wait, or the shutdown, then looks again; between looks it holds no database connection.
 * It is listed before its first look, so a commit between a look and the wait is never lost.
 *
 * A thousand waiters are a thousand idle requests: each is one small record, woken through one
 * subscription to the change source shared by all of them, and driven by callbacks rather than
 * a suspended async function, so that what a held request keeps alive stays small.
 */
export class LongPolls {
  readonly #limits: LongPollLimits;
  readonly #sources: LongPollSources;
  readonly #perToken = new Map<string, number>();
  readonly #waiters = new Set<Waiter<unknown>>();
  /** Waiters in line for a look, first in first out. */
  readonly #queue = new Set<Waiter<unknown>>();
  #looksUnderWay = 0;
  /** Changes heard so far: a shared look serves the waiters of changes up to its start. */
  #changes = 0;
  readonly #shared = new Map<string, SharedLook>();
  /** The last look of each key since the last change: still what a look would read. */
  readonly #kept = new Map<string, Look<unknown>>();
  #unsubscribe: (() => void) | undefined;
  #unsubscribeTokens: (() => void) | undefined;
  #closed = false;

  constructor(limits: LongPollLimits, sources: LongPollSources = {}) {
    this.#limits = limits;
    this.#sources = sources;
  }

  /** How many requests are held now. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /** How long a request that asks for `seconds` is held at most, before the jitter. */
  holdMs(seconds: number): number {
    return this.#closed ? 0 : Math.min(seconds * 1000, this.#limits.maxWaitMs);
  }

  /**
   * Looks until a look is ready or the wait ends, and answers the last look once its token has
   * passed a check; a token refused meanwhile (revoked, expired) is the answer instead. Over a
   * cap: 429 before the first look. When `signal` aborts (the client closed its connection), the
   * wait ends at once with {@link clientClosed} and its slot is free. Waiters given the same
   * `share` (their looks would read the same thing: one store, scope, route and query) share a
   * look: after a commit, a thousand followers of one feed cost one read, not a thousand.
   */
  hold<T>(
    token: HeldToken,
    seconds: number,
    look: () => Promise<Look<T>>,
    signal?: AbortSignal,
    share?: string,
  ): Promise<T> {
    const holdMs = this.holdMs(seconds);
    if (holdMs <= 0) return look().then((found) => found.result);
    if (signal?.aborted) return Promise.reject(clientClosed());
    if (this.#waiters.size >= this.#limits.total) return this.#refuse('server');
    const mine = this.#perToken.get(token.key) ?? 0;
    if (mine >= this.#limits.perToken) return this.#refuse('token');
    this.#perToken.set(token.key, mine + 1);
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        token,
        look,
        resolve,
        reject,
        storeId: null,
        last: undefined,
        looking: false,
        queued: false,
        changed: false,
        ended: false,
        answering: false,
        refusal: undefined,
        pendingMs: PENDING_FIRST_MS,
        deadline: undefined,
        pendingRetry: undefined,
        signal,
        onAbort: undefined,
        share,
      };
      this.#waiters.add(waiter);
      // Before the first look: a commit during it makes the waiter look again.
      if (this.#waiters.size === 1) {
        this.#unsubscribe = this.#sources.queues?.(this.#onChange);
        this.#unsubscribeTokens = this.#sources.tokens?.(this.#onTokenChange);
      }
      // The wait ends when its token expires, if that comes first: the check then refuses it.
      const endsIn = Math.min(
        this.#jittered(holdMs),
        token.expiresInMs ?? Number.POSITIVE_INFINITY,
      );
      waiter.deadline = setTimeout(this.#end, Math.max(1, endsIn), waiter);
      if (signal) {
        waiter.onAbort = () => this.#abandon(waiter);
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#look(waiter);
    });
  }

  #refuse(cap: WaiterCap): Promise<never> {
    this.#sources.onRefused?.(cap);
    return Promise.reject(overCap(cap === 'server' ? 'on this server' : 'for this token'));
  }

  /**
   * `holdMs` less up to the jitter, in whole steps of {@link JITTER_STEP_MS}: node keeps one list
   * per distinct delay, so that a thousand waiters share a few hundred lists, not one each.
   */
  #jittered(holdMs: number): number {
    const jittered = holdMs * (1 - Math.random() * this.#limits.jitter);
    return Math.max(1, Math.round(jittered / JITTER_STEP_MS) * JITTER_STEP_MS);
  }

  /** Ends every wait now (each answers what its last look found) and holds no new ones. */
  close(): void {
    this.#closed = true;
    for (const waiter of [...this.#waiters]) this.#end(waiter);
  }

  // Arrow functions: handed to timers and to the change source without a closure per waiter.

  readonly #onChange = (store: number | null): void => {
    this.#changes += 1;
    this.#kept.clear();
    for (const waiter of this.#waiters) {
      if (store === null || waiter.storeId === null || store === waiter.storeId) {
        this.#wake(waiter);
      }
    }
  };

  /** Every token held is checked again, once per token however many wait on it. */
  readonly #onTokenChange = (): void => {
    const checks = new Map<string, Promise<void>>();
    for (const waiter of this.#waiters) {
      if (waiter.answering || waiter.refusal) continue;
      const identity = waiter.token.identity;
      let check = checks.get(identity);
      if (!check) {
        check = waiter.token.check();
        checks.set(identity, check);
      }
      check.catch((error: unknown) => this.#refused(waiter, error));
    }
  };

  readonly #wake = (waiter: Waiter<unknown>): void => {
    if (waiter.answering || waiter.refusal) return;
    if (waiter.looking) waiter.changed = true;
    else if (!waiter.queued) this.#look(waiter);
  };

  readonly #end = (waiter: Waiter<unknown>): void => {
    waiter.ended = true;
    // A look under way answers when it ends; the first look always does.
    if (!waiter.looking && !waiter.answering && waiter.last) this.#answer(waiter, waiter.last);
  };

  /** Its token was refused: the waiter answers that, now or when its look ends. */
  #refused(waiter: Waiter<unknown>, error: unknown): void {
    if (waiter.answering || waiter.refusal || !this.#waiters.has(waiter)) return;
    waiter.refusal = { error };
    if (!waiter.looking) this.#fail(waiter, error);
  }

  /** The client went away: the slot is free now, and the waiter looks no more. */
  #abandon(waiter: Waiter<unknown>): void {
    if (!this.#waiters.has(waiter)) return;
    waiter.refusal = { error: clientClosed() };
    this.#fail(waiter, waiter.refusal.error);
  }

  #look(waiter: Waiter<unknown>): void {
    clearTimeout(waiter.pendingRetry);
    waiter.pendingRetry = undefined;
    const kept = waiter.share === undefined ? undefined : this.#kept.get(waiter.share);
    if (kept) {
      // No change heard since that look started: a look now would read the same.
      waiter.looking = true;
      waiter.changed = false;
      queueMicrotask(() => this.#looked(waiter, kept, false));
      return;
    }
    const shared = waiter.share === undefined ? undefined : this.#shared.get(waiter.share);
    // Started after every change heard: it reads all this waiter was woken for.
    if (shared && shared.startedAt === this.#changes) {
      waiter.looking = true;
      waiter.changed = false;
      shared.joined.push(waiter);
      return;
    }
    if (this.#looksUnderWay >= MOST_LOOKS_AT_ONCE) {
      waiter.queued = true;
      this.#queue.add(waiter);
      return;
    }
    this.#looksUnderWay += 1;
    waiter.looking = true;
    waiter.changed = false;
    const mine: SharedLook = { startedAt: this.#changes, joined: [] };
    if (waiter.share !== undefined) this.#shared.set(waiter.share, mine);
    const joined = () => {
      if (waiter.share !== undefined && this.#shared.get(waiter.share) === mine) {
        this.#shared.delete(waiter.share);
      }
      return mine.joined;
    };
    waiter.look().then(
      (found) => {
        const others = joined();
        // A pending look is looked at again unasked: kept, it would answer its own retry.
        if (waiter.share !== undefined && mine.startedAt === this.#changes && !found.pending) {
          if (this.#kept.size >= MOST_KEPT_LOOKS) this.#kept.clear();
          this.#kept.set(waiter.share, found);
        }
        this.#looked(waiter, found);
        for (const other of others) this.#looked(other, found, false);
      },
      (error: unknown) => {
        const others = joined();
        this.#failed(waiter, error);
        for (const other of others) this.#failed(other, error, false);
      },
    );
  }

  /** A look has ended: the first waiter in line takes its place. */
  #lookEnded(waiter: Waiter<unknown>): void {
    waiter.looking = false;
    this.#looksUnderWay -= 1;
    const next = this.#queue.values().next();
    if (next.done) return;
    this.#queue.delete(next.value);
    next.value.queued = false;
    this.#look(next.value);
  }

  /** `ownLook`: the look was the waiter's own, holding a slot; false when it joined another's. */
  #looked(waiter: Waiter<unknown>, found: Look<unknown>, ownLook = true): void {
    if (ownLook) this.#lookEnded(waiter);
    else waiter.looking = false;
    if (waiter.refusal) {
      this.#fail(waiter, waiter.refusal.error);
      return;
    }
    waiter.last = found;
    waiter.storeId = found.storeId;
    if (found.ready || waiter.ended || this.#closed) this.#answer(waiter, found);
    else if (waiter.changed) this.#look(waiter);
    else if (found.pending) {
      waiter.pendingRetry = setTimeout(this.#wake, waiter.pendingMs, waiter);
      waiter.pendingRetry.unref();
      waiter.pendingMs = Math.min(waiter.pendingMs * 2, PENDING_MOST_MS);
    }
  }

  #failed(waiter: Waiter<unknown>, error: unknown, ownLook = true): void {
    if (ownLook) this.#lookEnded(waiter);
    else waiter.looking = false;
    this.#fail(waiter, waiter.refusal?.error ?? error);
  }

  /** Answers `found` if the token still passes its check; its refusal otherwise. */
  #answer(waiter: Waiter<unknown>, found: Look<unknown>): void {
    waiter.answering = true;
    clearTimeout(waiter.deadline);
    clearTimeout(waiter.pendingRetry);
    waiter.token.check().then(
      () => {
        if (!this.#release(waiter)) return;
        waiter.resolve(found.result);
      },
      (error: unknown) => this.#fail(waiter, error),
    );
  }

  #fail(waiter: Waiter<unknown>, error: unknown): void {
    if (this.#release(waiter)) waiter.reject(error);
  }

  /** Takes the waiter off every list, once: false when it was already. */
  #release(waiter: Waiter<unknown>): boolean {
    clearTimeout(waiter.deadline);
    clearTimeout(waiter.pendingRetry);
    if (waiter.onAbort) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.onAbort = undefined;
    }
    if (waiter.queued) {
      waiter.queued = false;
      this.#queue.delete(waiter);
    }
    if (!this.#waiters.delete(waiter)) return false;
    if (this.#waiters.size === 0) {
      this.#unsubscribe?.();
      this.#unsubscribe = undefined;
      this.#unsubscribeTokens?.();
      this.#unsubscribeTokens = undefined;
    }
    const key = waiter.token.key;
    const left = (this.#perToken.get(key) ?? 1) - 1;
    if (left > 0) this.#perToken.set(key, left);
    else this.#perToken.delete(key);
    return true;
  }
}
