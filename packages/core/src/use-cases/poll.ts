import {
  type ChangeHorizon,
  type ChangePosition,
  decodeCursor,
  encodeCursor,
  isServable,
  laterPosition,
  positionAt,
} from '../domain/change-cursor.js';
import { type DomainError, fieldError } from '../domain/errors.js';
import { fittingCount, PAGE_SIZE } from '../domain/paging.js';
import type { OrderResource } from '../domain/resources.js';
import type { QueueName } from '../domain/types.js';
import type { PollQuery, RepositoryTx } from '../ports/repository.js';
import { parseWith } from '../schemas/parse.js';
import { QueuePollParams } from '../schemas/requests.js';
import { type EngineDeps, requireStore } from './deps.js';
import type { DocumentCache, KeptPage } from './document-cache.js';
import {
  asksForDeadlines,
  byDeadline,
  type DeadlineParams,
  deadlinePage,
  withFulfillBy,
} from './poll-deadlines.js';
import { authorize, type Principal } from './tokens.js';

/** One answer of a queue GET (docs/polling.md). */
export interface QueuePage {
  /** The stored JSON text of each order: a response is `[` + their join by `,` + `]`. */
  documents: string[];
  /**
   * The answer's JSON array (`[` + the documents joined by `,` + `]`) as UTF-8, when the engine's
   * document cache built it: a server writes these bytes as they are. Never to be modified: the
   * cache answers the same bytes again.
   */
  json?: Uint8Array;
  /** The `Fulfil-Cursor` of the answer: `since` it, the changes after what this answer saw. */
  cursor: string;
  /**
   * Whether changes after the cursor have committed that no read could serve yet (a Postgres
   * transaction that began before them is still open): a long poll looks again soon.
   */
  pending: boolean;
  /** The store read: a long poll wakes for its changes only. */
  store_id: number;
}

/**
 * GET /V1/fulfillmentOrders/{queue}: one page of 100 orders by id, optionally only those updated
 * since `date` (inclusive), within the actor's warehouses, each showing the queue's items.
 */
export async function pollQueue(
  deps: EngineDeps,
  actor: Principal,
  queue: QueueName,
  query: unknown = {},
): Promise<OrderResource[]> {
  const documents = await pollQueueDocuments(deps, actor, queue, query);
  return documents.map((document) => JSON.parse(document) as OrderResource);
}

/** The documents of {@link pollQueuePage}'s answer. */
export async function pollQueueDocuments(
  deps: EngineDeps,
  actor: Principal,
  queue: QueueName,
  query: unknown = {},
): Promise<string[]> {
  return (await pollQueuePage(deps, actor, queue, query)).documents;
}

/**
 * A page through the document cache: its (order, change) pairs first; when the cache holds every
 * document they name, that is the page. When it holds some, only the others are read, by the
 * change each names; if one was rewritten meanwhile, or the cache holds none, the page is read
 * again with its documents. Either way the page answered is the one its versions named, and
 * what was read is kept, as of `version` when the repository gave one (read before the page).
 */
async function pageFromCache(
  tx: RepositoryTx,
  cache: DocumentCache,
  query: PollQuery,
  version: string | undefined,
): Promise<{ horizon: ChangeHorizon; page: KeptPage }> {
  const { horizon, entries } = await tx.pollVersions(query);
  cache.useEpoch(horizon.epoch);
  const key = pageKeyOf(query);
  const answer = (page: KeptPage) => {
    if (version !== undefined) cache.answered(key, version, horizon);
    return { horizon, page };
  };
  const known = cache.page(key, query.queue, entries);
  if (known) return answer(known);
  // Read after the horizon: the page is at or after the cursor it answers with.
  const missing = cache.missing(query.queue, entries);
  if (missing.length < entries.length) {
    const read = await tx.entryDocuments(query.queue, missing);
    if (read.length === missing.length) {
      cache.keep(query.queue, read);
      const completed = cache.page(key, query.queue, entries);
      if (completed) return answer(completed);
    }
  }
  return answer(cache.keepPage(key, query.queue, await tx.pollEntries(query)));
}

/** Which page a query asks for: polls that ask for the same one share its kept answer. */
function pageKeyOf(query: PollQuery): string {
  const { store_id, queue, page, after, since, warehouses } = query;
  return JSON.stringify([store_id, queue, page, after ?? null, since, warehouses]);
}

function conflict(first: string, second: string): DomainError {
  return fieldError(
    'invalid_request',
    `"%fieldName" cannot be combined with "${first}": send one way of paging.`,
    second,
  );
}

/** The paging a queue or feed GET asks for (docs/polling.md), checked. */
export interface Paging extends DeadlineParams {
  page: number;
  date: string | undefined;
  after: number | undefined;
  since: string | undefined;
  /** The position `since` names; null without `since`. */
  from: ChangePosition | null;
}

/**
 * `page` and `date` as the contract says; `after=<id>` the next 100 with a greater id;
 * `since=<cursor>` the changes after the cursor. `page` and `after` together, or `since` with any
 * of `page`, `after`, `date`, are 400.
 */
export function readPaging(query: unknown): Paging {
  const { page, date, after, since, include, sort } = parseWith(QueuePollParams, query);
  const sent = (name: string) =>
    typeof query === 'object' &&
    query !== null &&
    (query as Record<string, unknown>)[name] !== undefined;
  if (after !== undefined && sent('page')) throw conflict('page', 'after');
  if (since !== undefined) {
    for (const other of ['page', 'after', 'date']) if (sent(other)) throw conflict(other, 'since');
  }
  const from = since === undefined ? null : decodeCursor(since);
  return { page, date, after, since, from, include, sort };
}

/** A 410 for a cursor the horizon's database cannot serve (another database's, or a future one). */
export function assertServable(
  from: ChangePosition,
  horizon: ChangeHorizon,
  since: string | undefined,
): void {
  if (!isServable(from, horizon)) {
    throw fieldError(
      'cursor_expired',
      'The cursor in "%fieldName" can no longer be served: poll again without it and take the new Fulfil-Cursor.',
      'since',
      since,
    );
  }
}

/**
 * A `since` page of entries read after `from` in (change, id) order: those below the horizon,
 * and the cursor that continues after them (after the last one when the page is full, else at
 * the horizon). `pending` says some were left for a later read.
 */
export function changesPage<E extends { change: number; order_id: number }>(
  entries: readonly E[],
  from: ChangePosition,
  horizon: ChangeHorizon,
  sizeOf: (entry: E, index: number) => number,
): { served: E[]; cursor: string; pending: boolean } {
  // Entries come in change order: those a later read may still precede come last.
  const below = entries.filter((entry) => entry.change < horizon.horizon);
  // A page of large documents stops early, and continues after its last like a full one.
  const served = below.slice(0, fittingCount(below.map(sizeOf)));
  const last = served.at(-1);
  const next: ChangePosition =
    (served.length === PAGE_SIZE || served.length < below.length) && last
      ? { epoch: horizon.epoch, change: last.change, order_id: last.order_id }
      : laterPosition(from, positionAt(horizon));
  return { served, cursor: encodeCursor(next), pending: served.length < entries.length };
}

/** The documents an `after` page answers: as many as fit (`fittingCount`); a `page` page all. */
export function boundedAfterPage(documents: string[], after: number | undefined): string[] {
  if (after === undefined) return documents;
  const count = fittingCount(documents.map((text) => text.length));
  return count < documents.length ? documents.slice(0, count) : documents;
}

/**
 * A queue GET with the extensions of docs/polling.md: `page` and `date` as the contract says;
 * `after=<id>` the next 100 with a greater id; `since=<cursor>` the queue's orders changed after
 * the cursor, in change order. Every answer carries the cursor of what it saw. `page` and
 * `after` together, or `since` with any of `page`, `after`, `date`, are 400.
 */
export async function pollQueuePage(
  deps: EngineDeps,
  actor: Principal,
  queue: QueueName,
  query: unknown = {},
): Promise<QueuePage> {
  authorize(deps, actor, queue);
  const paging = readPaging(query);
  const { page, date, after, since, from } = paging;
  const pageQueryOf = (storeId: number): PollQuery => ({
    store_id: storeId,
    queue,
    page: after === undefined ? page : 1,
    page_size: PAGE_SIZE,
    since: date ?? null,
    warehouses: actor.warehouses,
    after: after ?? null,
  });
  const answer = (
    storeId: number,
    horizon: ChangeHorizon,
    all: string[],
    json?: Uint8Array,
  ): QueuePage => {
    // An `after` page of large documents stops early: the next continues after its last id.
    const documents = boundedAfterPage(all, after);
    return {
      documents,
      ...(json === undefined || documents.length < all.length ? {} : { json }),
      cursor: encodeCursor(positionAt(horizon)),
      pending: false,
      store_id: storeId,
    };
  };
  const answerKept = (storeId: number, horizon: ChangeHorizon, kept: KeptPage) =>
    answer(storeId, horizon, [...kept.texts], kept.json);
  const cache = deps.documentCache;
  // Where the repository can tell without a read that no queue entry of the store has changed
  // since a page was answered (a SQLite file), that page is the answer again, with its cursor.
  let version: string | undefined;
  const deadlines = asksForDeadlines(paging);
  if (from === null && !deadlines && cache !== undefined && actor.store_id !== undefined) {
    version = deps.repository.queueVersion?.(actor.store_id);
    const unchanged =
      version === undefined
        ? undefined
        : cache.unchanged(pageKeyOf(pageQueryOf(actor.store_id)), version);
    if (unchanged) return answerKept(actor.store_id, unchanged.horizon, unchanged.page);
  }
  // A token's principal knows its store. The horizon and the page then need no transaction:
  // read first, the horizon is no later than the page, which is all the cursor asks for.
  const mode = actor.store_id === undefined ? 'read' : 'autocommit';
  return deps.repository.transaction(async (tx) => {
    const store = { id: actor.store_id ?? (await requireStore(tx, actor.store_code)).id };
    if (from === null) {
      const pageQuery = pageQueryOf(store.id);
      if (deadlines) {
        const horizon = await tx.changeHorizon();
        return answer(store.id, horizon, await deadlinePage(tx, pageQuery, paging));
      }
      if (cache !== undefined) {
        const { horizon, page: kept } = await pageFromCache(tx, cache, pageQuery, version);
        return answerKept(store.id, horizon, kept);
      }
      // Read before the page: what the page shows is then at or after the cursor it answers with.
      const horizon = await tx.changeHorizon();
      return answer(store.id, horizon, await tx.pollDocuments(pageQuery));
    }
    const horizon = await tx.changeHorizon();
    assertServable(from, horizon, since);
    const entries = await tx.pollChanges({
      store_id: store.id,
      queue,
      page_size: PAGE_SIZE,
      warehouses: actor.warehouses,
      after: from,
    });
    const { served, cursor, pending } = changesPage(
      entries,
      from,
      horizon,
      (entry) => entry.document.length,
    );
    // Sorted by deadline, a `since` page is the same changes, the most urgent first: its cursor
    // still continues after the last change it served.
    const shown = paging.sort === 'fulfill_by' ? byDeadline(served) : served;
    return {
      documents: shown.map((entry) =>
        withFulfillBy(entry.document, entry.fulfill_by, paging.include),
      ),
      cursor,
      pending,
      store_id: store.id,
    };
  }, mode);
}
