import type { ChangeHorizon } from '../domain/change-cursor.js';
import { QUEUES } from '../domain/item-stage.js';
import type { QueueName } from '../domain/types.js';
import type { ChangedEntry, EntryChange } from '../ports/repository.js';

/** A queue document as a page is built from it: its text, and the same text as UTF-8. */
export interface KeptDocument {
  text: string;
  bytes: Uint8Array;
}

interface Kept extends KeptDocument {
  change: number;
}

/** A page as answered: its entries, their texts, and the JSON array of them as UTF-8. */
export interface KeptPage {
  entries: readonly EntryChange[];
  texts: readonly string[];
  json: Uint8Array;
}

/** Pages kept at most: the pages partners poll at once, each under its own query. */
const PAGES = 256;

/** The default bound of an engine's document cache: 64 MiB of documents. */
export const DEFAULT_DOCUMENT_CACHE_BYTES = 64 * 1024 * 1024;

const encoder = new TextEncoder();
const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]
const QUEUE_INDEX = new Map<QueueName, number>(QUEUES.map((queue, index) => [queue, index]));

/** One number per (order, queue): order ids stay far below 2^53 / 8. */
function keyOf(orderId: number, queue: QueueName): number {
  return orderId * 8 + (QUEUE_INDEX.get(queue) ?? 7);
}

/**
 * The queue documents this process has read, by order, queue and the change that wrote them
 * (docs/polling.md). A stored document never changes without its change, so a poll can read a
 * page's hundred (order, change) pairs, which are small, and take the documents from here when it
 * knows every one: what it answers is exactly what the database holds, whichever process wrote
 * it. The page built from them is kept too, under its query, and answered again while its
 * entries are the same. Bounded by bytes; pages go before documents, the ones kept longest
 * first. A database whose epoch differs (a restored dump) empties it.
 */
export class DocumentCache {
  readonly #limit: number;
  readonly #kept = new Map<number, Kept>();
  readonly #pages = new Map<string, KeptPage>();
  /** What the page under a key was last answered as of (`answered`). */
  readonly #asOf = new Map<string, { version: string; horizon: ChangeHorizon }>();
  #bytes = 0;
  #epoch: string | undefined;

  /** @param limitBytes the most it holds, texts and bytes counted; 0 keeps nothing. */
  constructor(limitBytes: number) {
    this.#limit = limitBytes;
  }

  /** How much it holds now, in bytes. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Forgets every document when the database is another one than the last time asked. */
  useEpoch(epoch: string): void {
    if (epoch === this.#epoch) return;
    this.#epoch = epoch;
    this.#kept.clear();
    this.#pages.clear();
    this.#asOf.clear();
    this.#bytes = 0;
  }

  /**
   * The page of these entries: the one kept under `key` when its entries are the same, or one
   * built from kept documents; undefined unless it holds every document.
   */
  page(key: string, queue: QueueName, entries: readonly EntryChange[]): KeptPage | undefined {
    const kept = this.#pages.get(key);
    if (kept !== undefined && sameEntries(kept.entries, entries)) return kept;
    const documents = this.find(queue, entries);
    return documents && this.#keepPage(key, entries, documents);
  }

  /** Keeps the documents of these entries (read just now) and the page of them, under `key`. */
  keepPage(key: string, queue: QueueName, entries: readonly ChangedEntry[]): KeptPage {
    return this.#keepPage(key, entries, this.keep(queue, entries));
  }

  #keepPage(
    key: string,
    entries: readonly EntryChange[],
    documents: readonly KeptDocument[],
  ): KeptPage {
    const page: KeptPage = {
      entries: entries.map(({ order_id, change }) => ({ order_id, change })),
      texts: documents.map((document) => document.text),
      json: jsonArrayOf(documents),
    };
    this.#forgetPage(key);
    if (page.json.byteLength > this.#limit) return page;
    this.#pages.set(key, page);
    this.#bytes += page.json.byteLength;
    if (this.#pages.size > PAGES) this.#forgetPage(this.#pages.keys().next().value as string);
    this.#evictOver(this.#limit);
    return page;
  }

  /**
   * Records that the page kept under `key`, with this horizon, was the store's as of its queue
   * version `version` (`Repository.queueVersion`, read before the page was).
   */
  answered(key: string, version: string, horizon: ChangeHorizon): void {
    if (this.#pages.has(key)) this.#asOf.set(key, { version, horizon });
  }

  /** The page kept under `key` and its horizon, if it was answered as of queue version `version`. */
  unchanged(key: string, version: string): { page: KeptPage; horizon: ChangeHorizon } | undefined {
    const asOf = this.#asOf.get(key);
    const page = this.#pages.get(key);
    return asOf?.version === version && page ? { page, horizon: asOf.horizon } : undefined;
  }

  #forgetPage(key: string): void {
    const held = this.#pages.get(key);
    if (held === undefined) return;
    this.#pages.delete(key);
    this.#asOf.delete(key);
    this.#bytes -= held.json.byteLength;
  }

  /** The documents of these entries, in their order; undefined unless it holds every one. */
  find(queue: QueueName, entries: readonly EntryChange[]): KeptDocument[] | undefined {
    const found: KeptDocument[] = new Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as EntryChange;
      const kept = this.#kept.get(keyOf(entry.order_id, queue));
      if (kept === undefined || kept.change !== entry.change) return undefined;
      found[i] = kept;
    }
    return found;
  }

  /** Those of these entries whose document it does not hold under the change they name. */
  missing(queue: QueueName, entries: readonly EntryChange[]): EntryChange[] {
    return entries.filter(
      (entry) => this.#kept.get(keyOf(entry.order_id, queue))?.change !== entry.change,
    );
  }

  /** Keeps the documents of these entries (read just now) and returns them, in their order. */
  keep(queue: QueueName, entries: readonly ChangedEntry[]): KeptDocument[] {
    return entries.map((entry) => {
      const key = keyOf(entry.order_id, queue);
      const held = this.#kept.get(key);
      if (held !== undefined && held.change === entry.change) return held;
      const kept: Kept = {
        change: entry.change,
        text: entry.document,
        bytes: encoder.encode(entry.document),
      };
      this.#forget(key);
      const size = sizeOf(kept);
      if (size > this.#limit) return kept;
      this.#kept.set(key, kept);
      this.#bytes += size;
      this.#evictOver(this.#limit);
      return kept;
    });
  }

  #forget(key: number): void {
    const held = this.#kept.get(key);
    if (held === undefined) return;
    this.#kept.delete(key);
    this.#bytes -= sizeOf(held);
  }

  #evictOver(limit: number): void {
    for (const [key] of this.#pages) {
      if (this.#bytes <= limit) return;
      this.#forgetPage(key);
    }
    for (const [key] of this.#kept) {
      if (this.#bytes <= limit) return;
      this.#forget(key);
    }
  }
}

function sameEntries(a: readonly EntryChange[], b: readonly EntryChange[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as EntryChange;
    const y = b[i] as EntryChange;
    if (x.order_id !== y.order_id || x.change !== y.change) return false;
  }
  return true;
}

/** `[` + the documents joined by `,` + `]`, as UTF-8: each one's bytes copied once. */
function jsonArrayOf(documents: readonly KeptDocument[]): Uint8Array {
  // `[` before the first document and `,` before each other one, then `]`.
  let length = Math.max(documents.length, 1) + 1;
  for (const document of documents) length += document.bytes.byteLength;
  const json = new Uint8Array(length);
  let at = 0;
  documents.forEach((document, index) => {
    json[at++] = index === 0 ? OPEN : COMMA;
    json.set(document.bytes, at);
    at += document.bytes.byteLength;
  });
  if (documents.length === 0) json[at++] = OPEN;
  json[at] = CLOSE;
  return json;
}

/** What a kept document costs: its UTF-16 text and its bytes. */
function sizeOf(kept: KeptDocument): number {
  return kept.text.length * 2 + kept.bytes.byteLength;
}
