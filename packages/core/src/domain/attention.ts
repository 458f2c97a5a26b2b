import { ACTIVE_QUEUES } from './item-stage.js';
import { formatTimestamp, parseTimestamp, type Timestamp } from './timestamp.js';
import type { AttentionQueueName, StoreSettings } from './types.js';

/** Every queue a store sets a threshold for: the active ones, then the cancellation requests. */
export const ATTENTION_QUEUES = [
  ...ACTIVE_QUEUES,
  'pending_cancellation',
] as const satisfies readonly AttentionQueueName[];

/**
 * How long an order may wait in each queue before the dashboard asks a person to look at it
 * (docs/console.md): a partner accepts within a working day, a warehouse ships within two, an
 * ERP invoices within three, and a partner answers a cancellation request within half a working
 * day (the goods may leave meanwhile). A store sets its own per queue; null turns one off.
 */
export const DEFAULT_ATTENTION_HOURS: Readonly<Record<AttentionQueueName, number>> = {
  pending_accept: 24,
  pending_allocation: 24,
  pending_shipment: 48,
  pending_invoice: 72,
  pending_cancellation: 4,
};

/** The store's thresholds, every queue filled in: its own, else the default. */
export function attentionHours(settings: StoreSettings): Record<AttentionQueueName, number | null> {
  const own = settings.attention_after_hours ?? {};
  return Object.fromEntries(
    ATTENTION_QUEUES.map((queue) => [
      queue,
      own[queue] === undefined ? DEFAULT_ATTENTION_HOURS[queue] : own[queue],
    ]),
  ) as Record<AttentionQueueName, number | null>;
}

/** The creation time before which an order has waited more than `hours` at `now`. */
export function attentionCutoff(now: Timestamp, hours: number): Timestamp {
  return formatTimestamp(new Date((parseTimestamp(now) as Date).getTime() - hours * 3_600_000));
}
