import { openRequest } from './actions/cancellation.js';
import { isHeld } from './actions/holds.js';
import { ACTIVE_QUEUES, isLive } from './item-stage.js';
import type { FulfillmentOrder, Item, QueueName } from './types.js';

/**
 * The queues that list an order (docs/behaviour.md): a failed order only the failed queue, a held
 * one none, any other order every active queue in whose stage at least one live item sits, and
 * pending_cancellation while a cancellation request waits for its partner's answer.
 */
export function queuesOf(
  order: Pick<FulfillmentOrder, 'failure' | 'items' | 'holds' | 'cancellation_requests'>,
): QueueName[] {
  if (order.failure) return ['failed'];
  if (isHeld(order)) return [];
  const active: QueueName[] = ACTIVE_QUEUES.filter((queue) =>
    order.items.some((item) => item.status === queue),
  );
  return openRequest(order) ? [...active, 'pending_cancellation'] : active;
}

/**
 * The items a queue response shows: those in the queue's stage; all live ones for failed; the
 * requested ones for pending_cancellation.
 */
export function itemsInQueue(
  order: Pick<FulfillmentOrder, 'items' | 'cancellation_requests'>,
  queue: QueueName,
): Item[] {
  const { items } = order;
  if (queue === 'failed') return items.filter(isLive);
  if (queue === 'pending_cancellation') {
    const requested = new Set(openRequest(order)?.item_ids ?? []);
    return items.filter((item) => requested.has(item.id));
  }
  return items.filter((item) => item.status === queue);
}

/** docs/behaviour.md: prices and amounts are hidden from the partner's first look and from failed. */
export function queueShowsPrices(queue: QueueName): boolean {
  return queue !== 'pending_accept' && queue !== 'failed';
}
