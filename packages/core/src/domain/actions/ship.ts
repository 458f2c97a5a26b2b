import { fieldError } from '../errors.js';
import type { FulfillmentOrder, StockDelta, Track } from '../types.js';
import { rejectedByShipment } from './cancellation.js';
import { assertInFlow, selectItems } from './item-selection.js';
import { type ActionContext, type ActionOutcome, touch, unchanged } from './outcome.js';

/** A shipment once parsed: its lines and its tracks, as a list and (the contract's) as one pair. */
export interface ParsedShipment {
  order_id: string;
  items: { item_id: number; qty?: number }[];
  carrier_tracking_number?: string;
  carrier_title?: string;
  tracks?: { carrier_code: string; title: string; track_number: string }[];
}

/** The request's tracks, plus `carrier_tracking_number` + `carrier_title` as one more (docs/behaviour.md). */
export function tracksOf(
  input: Pick<ParsedShipment, 'tracks' | 'carrier_tracking_number' | 'carrier_title'>,
): Track[] {
  const tracks = [...(input.tracks ?? [])];
  if (input.carrier_tracking_number) {
    const title = input.carrier_title ?? '';
    tracks.push({ carrier_code: title, title, track_number: input.carrier_tracking_number });
  }
  return tracks;
}

/** Whether two track lists name the same tracks, in any order. */
export function sameTracks(a: readonly Track[], b: readonly Track[]): boolean {
  const keys = (tracks: readonly Track[]) =>
    tracks
      .map((track) => JSON.stringify([track.carrier_code, track.title, track.track_number]))
      .sort();
  const [left, right] = [keys(a), keys(b)];
  return left.length === right.length && left.every((key, index) => key === right[index]);
}

/**
 * A repeated ship must name the tracks recorded for its items: other tracks contradict what was
 * applied, as an invoice under another number does. Correcting them is an operator's action.
 */
function assertRecordedTracks(
  order: FulfillmentOrder,
  applied: readonly { item: { id: number } }[],
  tracks: readonly Track[],
): void {
  for (const { item } of applied) {
    const recorded = order.shipments.find((shipment) =>
      shipment.items.some((entry) => entry.item_id === item.id),
    );
    if (!recorded || sameTracks(recorded.tracks, tracks)) continue;
    const shown = recorded.tracks.map((track) => track.track_number).join(', ') || '(none)';
    throw fieldError(
      'conflicts_with_applied',
      `Item ${item.id} was already shipped with tracks %fieldValue; a track is corrected by an operator, not by shipping again.`,
      'shipment.tracks',
      shown,
    );
  }
}

/**
 * POST ship: the listed lines left the warehouse. One shipment is recorded with its tracks; on
 * hand drops and the reservation is released at each line's source warehouse.
 */
export function ship(
  order: FulfillmentOrder,
  input: ParsedShipment,
  context: ActionContext,
): ActionOutcome {
  assertInFlow(order, 'shipment');
  const selection = selectItems(order, input.items, 'ship', 'shipment', context.settings);
  const tracks = tracksOf(input);
  assertRecordedTracks(order, selection.applied, tracks);
  if (selection.pending.length === 0) return unchanged(order);

  const shipped = new Set(selection.pending.map(({ item }) => item.id));
  const stock: StockDelta[] = selection.pending.map(({ item }) => ({
    warehouse_code: item.warehouse_code,
    sku: item.sku,
    on_hand: -item.qty,
    reserved: -item.qty,
  }));
  const items = order.items.map((item) =>
    shipped.has(item.id) ? { ...item, status: 'pending_invoice' as const } : item,
  );
  const shipment = {
    id: 0,
    items: selection.pending.map(({ item }) => ({ item_id: item.id, qty: item.qty })),
    tracks,
    created_at: context.now,
  };
  const stillToShip = items.some((item) => item.status === 'pending_shipment');
  const courier = stillToShip ? order.courier : { ...order.courier, next_attempt_at: null };
  // The goods left: a request to cancel them can only be refused now, in this same transaction.
  const requests = rejectedByShipment(order, shipped, context.now);
  const details: Record<string, unknown> = { items: shipment.items, tracks: shipment.tracks };
  if (requests.rejected !== null) {
    details.cancellation_rejected = requests.rejected;
    details.cancellation_refused = requests.refused;
    if (requests.still_requested.length > 0) {
      details.cancellation_still_requested = requests.still_requested;
    }
  }
  return {
    order: touch(
      {
        ...order,
        items,
        courier,
        shipments: [...order.shipments, shipment],
        cancellation_requests: requests.requests,
        shipped_at: context.now,
      },
      context.now,
    ),
    changed: true,
    stock,
    rejected: [],
    details,
  };
}
