import { PAGE_SIZE } from '../domain/paging.js';
import type { Actor, QueueName } from '../domain/types.js';
import { parseWith } from '../schemas/parse.js';
import { PollParams } from '../schemas/requests.js';
import type { OrderResource } from '../schemas/resources.js';
import { type EngineDeps, requireStore } from './deps.js';

/**
 * GET /V1/fulfillmentOrders/{queue}: one page of 100 orders by id, optionally only those updated
 * since `date` (inclusive), within the actor's warehouses, each showing the queue's items.
 */
export async function pollQueue(
  deps: EngineDeps,
  actor: Actor,
  queue: QueueName,
  query: unknown = {},
): Promise<OrderResource[]> {
  const documents = await pollQueueDocuments(deps, actor, queue, query);
  return documents.map((document) => JSON.parse(document) as OrderResource);
}

/**
 * The same page as the stored documents, JSON text each: a response is `[` + their join by
 * `,` + `]`, with nothing parsed or serialized again.
 */
export async function pollQueueDocuments(
  deps: EngineDeps,
  actor: Actor,
  queue: QueueName,
  query: unknown = {},
): Promise<string[]> {
  const { page, date } = parseWith(PollParams, query);
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, actor.store_code);
    return tx.pollDocuments({
      store_id: store.id,
      queue,
      page,
      page_size: PAGE_SIZE,
      since: date ?? null,
      warehouses: actor.warehouses,
    });
  }, 'read');
}
