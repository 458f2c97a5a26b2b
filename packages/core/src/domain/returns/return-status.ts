import { outstandingQty, type ReturnRecord, receivedQty, uncreditedQty } from './return-record.js';

/** The queues a return is listed in, each while it has work there. */
export const RETURN_QUEUES = ['pending_receipt', 'pending_credit'] as const;

export type ReturnQueue = (typeof RETURN_QUEUES)[number];

export type ReturnStatus = ReturnQueue | 'credited' | 'closed' | 'canceled';

export const RETURN_STATUSES = [
  ...RETURN_QUEUES,
  'credited',
  'closed',
  'canceled',
] as const satisfies readonly ReturnStatus[];

/**
 * The queues of a return: `pending_receipt` while some expected qty is neither received nor
 * declared missing, `pending_credit` while some received qty is not credited; both at once
 * after a partial receipt. A canceled return is in none.
 */
export function returnQueues(record: ReturnRecord): ReturnQueue[] {
  if (record.canceled_at !== null) return [];
  const queues: ReturnQueue[] = [];
  if (record.items.some((line) => outstandingQty(line) > 0)) queues.push('pending_receipt');
  if (record.items.some((line) => uncreditedQty(line) > 0)) queues.push('pending_credit');
  return queues;
}

/**
 * The status is the earliest queue it is in; out of both, `credited`, or `closed` when nothing
 * came back (every unit declared missing); `canceled` once an operator canceled it.
 */
export function deriveReturnStatus(record: ReturnRecord): ReturnStatus {
  if (record.canceled_at !== null) return 'canceled';
  const [first] = returnQueues(record);
  if (first) return first;
  return record.items.some((line) => receivedQty(line) > 0) ? 'credited' : 'closed';
}
