import type { IssuedLabel } from '../ports/courier.js';
import { carrierWords } from './carrier-codes.js';
import { formatTimestamp, parseTimestamp, type Timestamp } from './timestamp.js';
import type { FulfillmentOrder, Item } from './types.js';

/**
 * The labels of courier shipments (docs/couriers.md), one row per parcel, and the pure decisions
 * about them.
 *
 * - `pending`: a dispatcher claimed the parcel and may have asked the carrier for its label; the
 *   next attempt looks the reference up before it creates anything;
 * - `live`: the carrier issued it; it prints, and ships with the order;
 * - `voiding`: to be voided by the dispatcher (the order was canceled, abandoned or failed its
 *   shipment); without `carrier_label_id` the dispatcher first looks the reference up;
 * - `void_failed`: a void was refused or went unanswered; retried with backoff;
 * - `voided`: void at the carrier, or never issued.
 */
export type LabelStatus = 'pending' | 'live' | 'voiding' | 'void_failed' | 'voided';

export interface CourierLabel {
  /** 0 until the repository stores it. */
  id: number;
  order_id: number;
  /** `<order>/shipment-<n>/<parcel>`: what the carrier knows the label by. */
  reference: string;
  /** The order's shipment this label belongs to (1-based, as in the reference). */
  shipment_number: number;
  parcel_index: number;
  parcel_count: number;
  /** The courier type that issued it. */
  carrier: string;
  /** The carrier that carries the parcel, as it named it when it issued the label; null when it did not say. */
  carrier_code: string | null;
  carrier_label_id: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  document: string | null;
  document_format: string | null;
  document_url: string | null;
  status: LabelStatus;
  void_attempts: number;
  /** When the dispatcher may next try to void it; null unless voiding or void_failed. */
  next_void_at: Timestamp | null;
  /** The carrier's last refusal, `kind: [code] message`, bounded. */
  last_error: string | null;
  created_at: Timestamp;
  voided_at: Timestamp | null;
}

/**
 * The label reference of one parcel: `<order>/shipment-<n>/<parcel>`, then `-<generation>` from
 * the second label of that parcel on (after the first was voided).
 */
export function labelReference(
  orderNumber: string,
  shipment: number,
  parcel: number,
  generation = 1,
): string {
  const suffix = generation > 1 ? `-${generation}` : '';
  return `${orderNumber}/shipment-${shipment}/${parcel}${suffix}`;
}

/** The number of the shipment the courier books next. */
export function nextShipmentNumber(order: FulfillmentOrder): number {
  return order.shipments.length + 1;
}

/** The parcels of the order's next courier shipment: one per line awaiting shipment. */
export function courierParcels(order: FulfillmentOrder): Item[] {
  return order.items.filter((item) => item.status === 'pending_shipment');
}

export function later(now: Timestamp, ms: number): Timestamp {
  return formatTimestamp(new Date((parseTimestamp(now) as Date).getTime() + ms));
}

/** A new `pending` row: the parcel is claimed, and a label may be asked for from now on. */
export function pendingLabel(
  order: FulfillmentOrder,
  carrier: string,
  parcel: number,
  count: number,
  now: Timestamp,
  generation = 1,
): CourierLabel {
  const shipment = nextShipmentNumber(order);
  return {
    id: 0,
    order_id: order.id,
    reference: labelReference(order.fulfillment_order_number, shipment, parcel, generation),
    shipment_number: shipment,
    parcel_index: parcel,
    parcel_count: count,
    carrier,
    carrier_code: null,
    carrier_label_id: null,
    tracking_number: null,
    tracking_url: null,
    document: null,
    document_format: null,
    document_url: null,
    status: 'pending',
    void_attempts: 0,
    next_void_at: null,
    last_error: null,
    created_at: now,
    voided_at: null,
  };
}

/** The row once the carrier issued its label. */
export function issuedLabel(row: CourierLabel, label: IssuedLabel): CourierLabel {
  return {
    ...row,
    status: 'live',
    carrier_code: carrierWords(label.carrier_code),
    carrier_label_id: label.carrier_label_id,
    tracking_number: label.tracking_number,
    tracking_url: label.tracking_url,
    document: label.document,
    document_format: label.document_format,
    document_url: label.document_url,
  };
}

/** Whether the row may stand for a label at the carrier that nobody voided yet. */
export function mayBeLive(row: CourierLabel): boolean {
  return row.status === 'pending' || row.status === 'live';
}

/**
 * Hands every label of the order's unshipped shipment that may be live to the void queue: a
 * canceled or abandoned order, or a shipment that failed for good, keeps none (labels of shipments
 * already recorded travel with their parcels). A live label is due at once; a `pending` row
 * becomes a look-up-and-void, due once a claim that may be under way
 * (`order.courier.next_attempt_at`, when in the future) has run out: a call still in flight has
 * landed or been given up by then.
 */
export function queueVoids(
  labels: readonly CourierLabel[],
  order: FulfillmentOrder,
  now: Timestamp,
): CourierLabel[] {
  const claimEnd = order.courier.next_attempt_at;
  const due = claimEnd && claimEnd > now ? claimEnd : now;
  return labels
    .filter((row) => mayBeLive(row) && row.shipment_number > order.shipments.length)
    .map((row) => ({
      ...row,
      status: 'voiding' as const,
      next_void_at: row.status === 'pending' ? due : now,
    }));
}

/** Labels a shipped shipment keeps: the live ones, parcel by parcel. */
export function liveLabels(labels: readonly CourierLabel[]): CourierLabel[] {
  return labels.filter((row) => row.status === 'live');
}
