import type { HeldOrder, RequestedLine, RequestedOrder } from '../ports/admin-repository.js';
import { openRequest } from './actions/cancellation.js';
import { activeHolds } from './actions/holds.js';
import { parseTimestamp, type Timestamp } from './timestamp.js';
import type { CancellationReason, HoldReason, OrderStatus } from './types.js';

/**
 * What waits on a person or a partner outside the queues (docs/admin-api.md): the open holds and
 * the unanswered cancellation requests, one row each, oldest first.
 */

export interface OpenHold {
  fulfillment_order_number: string;
  sales_order_number: string;
  warehouse_code: string;
  status: OrderStatus;
  handle: string;
  reason: HoldReason;
  note: string | null;
  placed_by: string;
  placed_at: Timestamp;
}

export interface OpenCancellationRequest {
  /** 1, 2, … within its fulfillment order, as the partner answers it. */
  id: number;
  fulfillment_order_number: string;
  sales_order_number: string;
  warehouse_code: string;
  reason: CancellationReason;
  lines: RequestedLine[];
  requested_by: string;
  requested_at: Timestamp;
}

const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** By the key's parts in turn (bytewise): its moment first, so the oldest comes first. */
function oldestFirst<T>(key: (row: T) => [Timestamp, string, string | number]) {
  return (a: T, b: T) => {
    const [x, y] = [key(a), key(b)];
    return compare(x[0], y[0]) || compare(x[1], y[1]) || compare(x[2], y[2]);
  };
}

/** Every active hold of the orders, one row each, oldest placed first. */
export function openHolds(orders: readonly HeldOrder[]): OpenHold[] {
  return orders
    .flatMap((order) =>
      activeHolds(order).map((hold) => ({
        fulfillment_order_number: order.fulfillment_order_number,
        sales_order_number: order.sales_order_number,
        warehouse_code: order.warehouse_code,
        status: order.status,
        handle: hold.handle,
        reason: hold.reason,
        note: hold.note,
        placed_by: hold.placed_by,
        placed_at: hold.placed_at,
      })),
    )
    .sort(oldestFirst((row) => [row.placed_at, row.fulfillment_order_number, row.handle]));
}

/** The open request of each order, oldest first. */
export function openCancellationRequests(
  orders: readonly RequestedOrder[],
): OpenCancellationRequest[] {
  return orders
    .flatMap((order) => {
      const request = openRequest(order);
      if (!request) return [];
      return [
        {
          id: request.id,
          fulfillment_order_number: order.fulfillment_order_number,
          sales_order_number: order.sales_order_number,
          warehouse_code: order.warehouse_code,
          reason: request.reason,
          lines: order.lines,
          requested_by: request.requested_by,
          requested_at: request.requested_at,
        },
      ];
    })
    .sort(oldestFirst((row) => [row.requested_at, row.fulfillment_order_number, row.id]));
}

/** The age buckets of the metrics, as label values: upper bounds in hours, then the rest. */
export const AGE_BUCKETS = ['under_1h', '1h_to_4h', '4h_to_24h', 'over_24h'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];

const BUCKET_HOURS: readonly [number, AgeBucket][] = [
  [1, 'under_1h'],
  [4, '1h_to_4h'],
  [24, '4h_to_24h'],
];

/** The bucket of something waiting since `since` at `now`. */
export function ageBucket(since: Timestamp, now: Timestamp): AgeBucket {
  const hours =
    ((parseTimestamp(now)?.getTime() ?? 0) - (parseTimestamp(since)?.getTime() ?? 0)) / 3_600_000;
  return BUCKET_HOURS.find(([below]) => hours < below)?.[1] ?? 'over_24h';
}

/** How many of the moments fall in each bucket at `now`, every bucket present. */
export function countByAge(
  moments: readonly Timestamp[],
  now: Timestamp,
): Record<AgeBucket, number> {
  const counts = Object.fromEntries(AGE_BUCKETS.map((bucket) => [bucket, 0])) as Record<
    AgeBucket,
    number
  >;
  for (const at of moments) counts[ageBucket(at, now)] += 1;
  return counts;
}
