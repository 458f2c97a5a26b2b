import { encodeCursor, positionAt } from '../domain/change-cursor.js';
import type { FeedName } from '../domain/feeds.js';
import { PAGE_SIZE } from '../domain/paging.js';
import type { FeedEntry, RepositoryTx } from '../ports/repository.js';
import { type EngineDeps, requireStore } from './deps.js';
import {
  assertServable,
  boundedAfterPage,
  changesPage,
  type QueuePage,
  readPaging,
} from './poll.js';
import type { Principal } from './tokens.js';

/**
 * The documents of a feed's entries, one per entry in their order, read in the same
 * transaction: each feed says how its resources are shown. An entry whose resource is gone is
 * null, and left out of the page.
 */
export type FeedPresenter = (
  tx: RepositoryTx,
  storeId: number,
  entries: readonly FeedEntry[],
) => Promise<(string | null)[]>;

const shown = (documents: readonly (string | null)[]): string[] =>
  documents.filter((text): text is string => text !== null);

/**
 * A GET of a feed (docs/polling.md), paged and followed exactly as a queue is: `page` and
 * `date`, `after=<id>`, `since=<cursor>`, within the actor's warehouses; every answer carries
 * the cursor of what it saw. One read transaction: the horizon first, so that the entries and
 * the documents, read after it in the same snapshot, show at least what the cursor says. The
 * caller has authorized the actor.
 */
export async function pollFeedPage(
  deps: EngineDeps,
  actor: Principal,
  feed: FeedName,
  query: unknown,
  presenter: FeedPresenter,
): Promise<QueuePage> {
  const { page, date, after, since, from } = readPaging(query);
  return deps.repository.transaction(async (tx) => {
    const storeId = actor.store_id ?? (await requireStore(tx, actor.store_code)).id;
    const horizon = await tx.changeHorizon();
    if (from === null) {
      const entries = await tx.pollFeed({
        store_id: storeId,
        feed,
        page: after === undefined ? page : 1,
        page_size: PAGE_SIZE,
        since: date ?? null,
        warehouses: actor.warehouses,
        after: after ?? null,
      });
      return {
        documents: boundedAfterPage(shown(await presenter(tx, storeId, entries)), after),
        cursor: encodeCursor(positionAt(horizon)),
        pending: false,
        store_id: storeId,
      };
    }
    assertServable(from, horizon, since);
    const entries = await tx.pollFeedChanges({
      store_id: storeId,
      feed,
      page_size: PAGE_SIZE,
      warehouses: actor.warehouses,
      after: from,
    });
    // Shown before the page is cut: a feed's documents are made here, and their size decides.
    const documents = await presenter(tx, storeId, entries);
    const { served, cursor, pending } = changesPage(
      entries.map((entry) => ({ ...entry, order_id: entry.entry_id })),
      from,
      horizon,
      (_, index) => documents[index]?.length ?? 0,
    );
    return {
      documents: shown(documents.slice(0, served.length)),
      cursor,
      pending,
      store_id: storeId,
    };
  }, 'read');
}
