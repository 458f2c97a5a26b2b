import { correctTracks } from '../domain/actions/correct-tracks.js';
import { touch } from '../domain/actions/outcome.js';
import type { Actor, Shipment } from '../domain/types.js';
import { assertWellFormed, parseWith } from '../schemas/parse.js';
import { TrackCorrectionInput } from '../schemas/track-correction.js';
import { type EngineDeps, now, orderNotFound, requireStore } from './deps.js';

/**
 * An operator corrects the tracks of one recorded shipment, in one transaction, audited on the
 * order's timeline with the tracks before and after, the reason and the actor; the order's
 * `updated_at` moves. Repeating it
 * writes nothing, no audit event either. Returns the shipment as stored.
 */
export async function correctShipmentTracks(
  deps: EngineDeps,
  storeCode: string,
  number: string,
  correction: unknown,
  actor: Pick<Actor, 'name' | 'request_id'> = { name: 'operator' },
): Promise<Shipment> {
  assertWellFormed({ number });
  const input = parseWith(TrackCorrectionInput, correction);
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const order = await tx.lockOrder(store.id, number);
    if (!order) throw orderNotFound(number);
    const decision = correctTracks(order, input);
    if (!decision.changed) return decision.shipment;
    const { shipment, before } = decision;
    const at = now(deps);
    await tx.updateShipmentTracks(order.id, shipment.id, shipment.tracks);
    // The order changed (its sales order view shows tracks): its updated_at moves, as after any
    // change, so that a storefront following the feed reads the corrected track.
    const shipments = order.shipments.map((known) => (known.id === shipment.id ? shipment : known));
    await tx.saveOrder(touch({ ...order, shipments }, at));
    await tx.appendAudit([
      {
        order_id: order.id,
        at,
        actor: actor.name,
        action: 'correct_tracks',
        details: { shipment: shipment.id, before, after: shipment.tracks, reason: input.reason },
        request_id: actor.request_id ?? null,
        reason: input.reason,
      },
    ]);
    return shipment;
  });
}
