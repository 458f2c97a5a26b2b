import { presentOrder } from './present.js';
import { queuesOf } from './queues.js';
import type { FulfillmentOrder, QueueName } from './types.js';

/** An order as one queue's response shows it, already serialized. */
export interface QueueDocument {
  queue: QueueName;
  /** `JSON.stringify(presentOrder(order, { queue }))`: the exact bytes a poll sends. */
  document: string;
}

/**
 * The read model of an order: one document per queue that lists it (docs/behaviour.md), written by
 * the repository in the same transaction as the order, so that a poll sends stored text instead
 * of reading, assembling and presenting the order again.
 */
export function queueDocuments(order: FulfillmentOrder): QueueDocument[] {
  return queuesOf(order).map((queue) => ({
    queue,
    document: JSON.stringify(presentOrder(order, { queue })),
  }));
}
