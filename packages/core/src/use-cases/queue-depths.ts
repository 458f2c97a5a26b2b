import { QUEUES } from '../domain/item-stage.js';
import { RETURN_STATUSES, type ReturnStatus } from '../domain/returns/return-status.js';
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

/** How many returns of one store are in one status. */
export interface ReturnCount {
  store_code: string;
  status: ReturnStatus;
  returns: number;
}

/**
 * Every status of every store's returns with how many are in it, zeros included (a monitor must
 * see returns leave pending_receipt, not vanish); ordered by store code, then status.
 */
export function returnCounts(deps: EngineDeps): Promise<ReturnCount[]> {
  return deps.repository.transaction(async (tx) => {
    const stores = await tx.listStores();
    const counts = new Map(
      (await tx.countReturns()).map((count) => [`${count.store_id}:${count.status}`, count]),
    );
    return stores.flatMap((store) =>
      RETURN_STATUSES.map((status) => ({
        store_code: store.code,
        status,
        returns: counts.get(`${store.id}:${status}`)?.returns ?? 0,
      })),
    );
  }, 'read');
}
