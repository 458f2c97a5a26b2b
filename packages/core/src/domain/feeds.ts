/**
 * The change-tracked lists of resources other than the fulfillment queues (docs/polling.md): each
 * entry is one resource (its id), paged by id (`page`, `after`, `date`) and followed by change
 * (`since`, `wait`) exactly as a queue is, within a token's warehouses. A new feed is a new name
 * here; its entries are written by the repository in the transaction that changes the resource.
 */
export const FEEDS = ['sales_orders', 'returns_pending_receipt', 'returns_pending_credit'] as const;

export type FeedName = (typeof FEEDS)[number];
