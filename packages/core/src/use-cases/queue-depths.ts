import { QUEUES } from '../domain/item-stage.js';
import type { QueueName } from '../domain/types.js';
import type { EngineDeps } from './deps.js';

/** How many orders one queue of one store lists. */
export interface QueueDepth {
  store_code: string;
  queue: QueueName;
  orders: number;
}

/**
 * Every queue of every store with the number of orders it lists, empty queues included (a
 * monitor must see a queue drain to 0, not vanish); ordered by store code, then queue.
 */
export function queueDepths(deps: EngineDeps): Promise<QueueDepth[]> {
  return deps.repository.transaction(async (tx) => {
    const stores = await tx.listStores();
    const counts = new Map(
      (await tx.countQueues()).map((count) => [`${count.store_id}:${count.queue}`, count.orders]),
    );
    return stores.flatMap((store) =>
      QUEUES.map((queue) => ({
        store_code: store.code,
        queue,
        orders: counts.get(`${store.id}:${queue}`) ?? 0,
      })),
    );
  }, 'read');
}
