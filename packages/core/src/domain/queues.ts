import { ACTIVE_QUEUES, isLive } from './item-stage.js';
import type { FulfillmentOrder, Item, QueueName } from './types.js';

/**
 * The queues that list an order (docs/behaviour.md): a failed order only the failed queue, any other
 * order every active queue in whose stage at least one live item sits.
 */
export function queuesOf(order: Pick<FulfillmentOrder, 'failure' | 'items'>): QueueName[] {
  if (order.failure) return ['failed'];
  return ACTIVE_QUEUES.filter((queue) => order.items.some((item) => item.status === queue));
}

/** The items a queue response shows: those in the queue's stage; all live ones for failed. */
export function itemsInQueue(items: readonly Item[], queue: QueueName): Item[] {
  return queue === 'failed' ? items.filter(isLive) : items.filter((item) => item.status === queue);
}

/** docs/behaviour.md: prices and amounts are hidden from the partner's first look and from failed. */
export function queueShowsPrices(queue: QueueName): boolean {
  return queue !== 'pending_accept' && queue !== 'failed';
}
