import { QUEUES } from '../domain/item-stage.js';
import type { QueueName } from '../domain/types.js';
import type { EngineDeps } from './deps.js';

/** How many orders one queue of one store lists. */
export interface QueueDepth {
  store_code: string;
  queue: QueueName;
  /**
   * Orders the queue lists. For `failed`, the open failures only: abandoned orders stay listed
   * for good, and a monitor must see the queue drain once every failure is dealt with.
   */
  orders: number;
  /** `failed` only: the abandoned orders it lists besides. */
  abandoned?: number;
}

/**
 * Every queue of every store with the number of orders it lists, empty queues included (a
 * monitor must see a queue drain to 0, not vanish); ordered by store code, then queue.
 */
export function queueDepths(deps: EngineDeps): Promise<QueueDepth[]> {
  return deps.repository.transaction(async (tx) => {
    const stores = await tx.listStores();
    const counts = new Map(
      (await tx.countQueues()).map((count) => [`${count.store_id}:${count.queue}`, count]),
    );
    return stores.flatMap((store) =>
      QUEUES.map((queue): QueueDepth => {
        const count = counts.get(`${store.id}:${queue}`);
        const orders = count?.orders ?? 0;
        if (queue !== 'failed') return { store_code: store.code, queue, orders };
        const abandoned = count?.abandoned ?? 0;
        return { store_code: store.code, queue, orders: orders - abandoned, abandoned };
      }),
    );
  }, 'read');
}
