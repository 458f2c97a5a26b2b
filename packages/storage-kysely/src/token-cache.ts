import type { TokenRecord } from '@fulfil/core';

/**
 * How a repository hears that a token may have changed where it cannot see the write itself:
 * in another process, or by hand in SQL.
 */
export interface TokenWatch {
  /**
   * A value that differs from every earlier one once a token may have changed elsewhere, or
   * undefined while it cannot tell (then no kept token is served, and none is kept). When it can
   * tell again, the same value means nothing changed meanwhile: a watch that may have missed a
   * change in between (a listening connection lost) comes back with a new one. Read on every
   * lookup: it must be cheap.
   */
  version(): unknown;
  close(): Promise<void>;
}

/** Tokens kept at most: a store has a few, but the bound holds whatever their number. */
const MOST = 10_000;

/**
 * The tokens a repository has read to authenticate requests, so that a request reads no token
 * from the database while none has changed: on Postgres that is one round trip of a poll's two.
 *
 * Kept tokens are forgotten when this process writes one (`forget`, once the write committed)
 * and when the watch's version moves. A read keeps its token only if nothing was forgotten
 * since it began (`ticket`): a read that raced a write never keeps what the write replaced.
 */
export class TokenCache {
  readonly #watch: TokenWatch;
  readonly #kept = new Map<string, TokenRecord>();
  /** Moves whenever kept tokens are forgotten: a ticket of another generation keeps nothing. */
  #generation = 0;
  #version: unknown;

  constructor(watch: TokenWatch) {
    this.#watch = watch;
  }

  /** The kept token of this hash in the store of this code, if any. */
  find(hash: string, storeCode: string): TokenRecord | undefined {
    return this.ticket() === undefined ? undefined : this.#kept.get(keyOf(hash, storeCode));
  }

  /** What a read beginning now may keep its token under; undefined: it may keep none. */
  ticket(): number | undefined {
    const version = this.#watch.version();
    if (version === undefined) return undefined;
    if (version !== this.#version) {
      this.#version = version;
      this.forget();
    }
    return this.#generation;
  }

  /** Keeps a token read under `ticket`, unless tokens were forgotten since. */
  keep(ticket: number | undefined, hash: string, storeCode: string, record: TokenRecord): void {
    if (ticket === undefined || this.ticket() !== ticket) return;
    if (this.#kept.size >= MOST) this.#kept.clear();
    this.#kept.set(keyOf(hash, storeCode), record);
  }

  /** Forgets every kept token: one may have changed. */
  forget(): void {
    this.#generation += 1;
    this.#kept.clear();
  }

  close(): Promise<void> {
    this.forget();
    return this.#watch.close();
  }
}

function keyOf(hash: string, storeCode: string): string {
  return `${storeCode}\u0000${hash}`;
}
