import { fieldError } from '../domain/errors.js';
import type { Timestamp } from '../domain/timestamp.js';
import type { DeadlinePollQuery, RepositoryTx } from '../ports/repository.js';

/**
 * Queue GETs with `include=fulfill_by` and `sort=fulfill_by` (docs/deadlines.md): extensions
 * (docs/polling.md) that a caller who sends neither never sees.
 */

export interface DeadlineParams {
  include: 'fulfill_by' | undefined;
  sort: 'id' | 'fulfill_by' | undefined;
}

/** Whether a queue GET asks for deadlines at all. */
export function asksForDeadlines({ include, sort }: DeadlineParams): boolean {
  return include !== undefined || sort === 'fulfill_by';
}

/**
 * The stored document with `fulfill_by` added as its last field, or as it is when the order has
 * none (absent optional fields are omitted) or the caller did not ask.
 */
export function withFulfillBy(
  document: string,
  fulfillBy: Timestamp | null | undefined,
  include: DeadlineParams['include'],
): string {
  if (include === undefined || fulfillBy == null) return document;
  return `${document.slice(0, -1)},"fulfill_by":${JSON.stringify(fulfillBy)}}`;
}

/** Entries in deadline order: the earliest first, those without one last, ties by id. */
export function byDeadline<E extends { order_id: number; fulfill_by?: Timestamp | null }>(
  entries: readonly E[],
): E[] {
  const key = (entry: E) => entry.fulfill_by ?? '\uffff';
  return [...entries].sort((a, b) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.order_id - b.order_id,
  );
}

/** A page or `after` page in the asked order, its documents as asked. */
export async function deadlinePage(
  tx: RepositoryTx,
  query: Omit<DeadlinePollQuery, 'sort'>,
  params: DeadlineParams,
): Promise<string[]> {
  const entries = await tx.pollWithDeadlines({ ...query, sort: params.sort ?? 'id' });
  if (entries === null) {
    throw fieldError(
      'invalid_request',
      'Sorted by fulfill_by, "%fieldName" must name an order of the store: pass the id of the last order of the previous page.',
      'after',
      String(query.after),
    );
  }
  return entries.map((entry) => withFulfillBy(entry.document, entry.fulfill_by, params.include));
}
