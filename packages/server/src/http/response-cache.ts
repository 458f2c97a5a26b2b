import type { Principal } from '@fulfil/core';
import type { HttpResponse } from './types.js';

/** How much the response cache of one server process may hold. */
export interface ResponseCacheLimits {
  /** Finished responses kept at most (and as many principals); 0 turns the cache off. */
  entries: number;
  /** Bytes of response bodies kept at most. */
  bytes: number;
}

/**
 * A page of 100 orders is about 110 KB of JSON (160 KB of XML): the default keeps a few hundred
 * distinct pages (token × queue × page × format) in at most 64 MiB.
 */
export const DEFAULT_RESPONSE_CACHE_LIMITS: ResponseCacheLimits = {
  entries: 1_000,
  bytes: 64 * 1024 * 1024,
};

/** A response as kept: its body already the bytes written to the socket. */
export type CachedResponse = HttpResponse & { body: Buffer };

/**
 * Finished queue poll responses and successful authentications, valid only while the
 * repository's change stamp (`Repository.changeStamp`) stays what it was when they were read.
 *
 * Every lookup and every keep names the stamp its caller read before reading the database. A
 * stamp other than the current one empties the cache and becomes current; an entry is kept only
 * under the current stamp. Since an entry was read after its stamp, and the stamp never returns
 * once anything commits, an entry is served only while nothing has committed since it was
 * read. Stamps read concurrently may arrive out of order; that only empties the cache more
 * often than needed.
 *
 * Bounded by entries and by bytes; past either, the least recently used entries go first.
 */
export class ResponseCache {
  readonly #limits: ResponseCacheLimits;
  #stamp: string | undefined;
  readonly #responses = new Map<string, CachedResponse>();
  readonly #principals = new Map<string, Principal>();
  #bytes = 0;

  constructor(limits: ResponseCacheLimits = DEFAULT_RESPONSE_CACHE_LIMITS) {
    this.#limits = limits;
  }

  /** How many responses and bytes are kept now, for tests and metrics. */
  get size(): { responses: number; principals: number; bytes: number } {
    return {
      responses: this.#responses.size,
      principals: this.#principals.size,
      bytes: this.#bytes,
    };
  }

  /** The principal kept for `key` under `stamp`, if any. */
  principal(stamp: string, key: string): Principal | undefined {
    this.#enter(stamp);
    return this.#principals.get(key);
  }

  keepPrincipal(stamp: string, key: string, principal: Principal): void {
    if (stamp !== this.#stamp || this.#limits.entries <= 0) return;
    this.#principals.delete(key);
    this.#principals.set(key, principal);
    if (this.#principals.size > this.#limits.entries) {
      this.#principals.delete(this.#principals.keys().next().value as string);
    }
  }

  /** The response kept for `key` under `stamp`, if any; it becomes the most recently used. */
  response(stamp: string, key: string): CachedResponse | undefined {
    this.#enter(stamp);
    const found = this.#responses.get(key);
    if (found) {
      this.#responses.delete(key);
      this.#responses.set(key, found);
    }
    return found;
  }

  /** Keeps `response` under `stamp` when that is still the current stamp; returns it as kept. */
  keepResponse(stamp: string, key: string, response: HttpResponse): CachedResponse {
    const body = typeof response.body === 'string' ? Buffer.from(response.body) : response.body;
    const kept: CachedResponse = { ...response, body };
    const { entries, bytes } = this.#limits;
    if (stamp !== this.#stamp || entries <= 0 || body.length > bytes) return kept;
    this.#forget(key);
    this.#responses.set(key, kept);
    this.#bytes += body.length;
    for (const oldest of this.#responses.keys()) {
      if (this.#responses.size <= entries && this.#bytes <= bytes) break;
      this.#forget(oldest);
    }
    return kept;
  }

  #forget(key: string): void {
    const found = this.#responses.get(key);
    if (!found) return;
    this.#responses.delete(key);
    this.#bytes -= found.body.length;
  }

  #enter(stamp: string): void {
    if (stamp === this.#stamp) return;
    this.#stamp = stamp;
    this.#responses.clear();
    this.#principals.clear();
    this.#bytes = 0;
  }
}
