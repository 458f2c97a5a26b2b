import { fieldError } from '../errors.js';
import type { FulfillmentOrder, Shipment, Track } from '../types.js';
import { sameTracks } from './ship.js';

/**
 * An operator's correction of one recorded shipment's tracks: the shipment's id, the tracks it
 * should have had (all of them), and why.
 */
export interface TrackCorrection {
  shipment: number;
  tracks: { carrier_code: string; title: string; track_number: string }[];
  reason: string;
}

/** What correcting a shipment's tracks decided: the shipment as it will be, and what it was. */
export interface TracksDecision {
  shipment: Shipment;
  before: Track[];
  /** False when the shipment has these tracks already: a repeat writes nothing. */
  changed: boolean;
}

/**
 * Replaces the tracks of one recorded shipment of the order (docs/behaviour.md): the operator's
 * way to correct a track a partner sent wrong, since shipping again with other tracks is refused.
 * The shipment's items and time stay; the order's lines and stock are untouched.
 */
export function correctTracks(
  order: FulfillmentOrder,
  correction: TrackCorrection,
): TracksDecision {
  const shipment = order.shipments.find((candidate) => candidate.id === correction.shipment);
  if (!shipment) {
    throw fieldError(
      'invalid_request',
      `Shipment %fieldValue is not a shipment of order ${order.fulfillment_order_number}.`,
      'shipment',
      correction.shipment,
    );
  }
  // A track the correction keeps as it was keeps the tracking page its courier label named.
  const tracks = correction.tracks.map((track) => {
    const kept = shipment.tracks.find(
      (known) =>
        known.carrier_code === track.carrier_code && known.track_number === track.track_number,
    );
    return kept?.tracking_url ? { ...track, tracking_url: kept.tracking_url } : track;
  });
  return {
    shipment: { ...shipment, tracks },
    before: shipment.tracks,
    changed: !sameTracks(shipment.tracks, correction.tracks),
  };
}
