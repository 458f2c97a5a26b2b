import * as v from 'valibot';
import { positiveId, requiredText, STRING_LIMITS } from './fields.js';
import { TrackInput } from './requests.js';

/**
 * An operator's correction of one recorded shipment's tracks (docs/behaviour.md): the shipment's
 * id as `getOrderHistory` shows it, the tracks it should have had (all of them), and why.
 */
export const TrackCorrectionInput = v.object({
  shipment: positiveId,
  tracks: v.array(TrackInput),
  reason: requiredText(STRING_LIMITS.note),
});

export type TrackCorrectionInput = v.InferInput<typeof TrackCorrectionInput>;
export type TrackCorrection = v.InferOutput<typeof TrackCorrectionInput>;
