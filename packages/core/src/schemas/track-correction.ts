import * as v from 'valibot';
import type { TrackCorrection } from '../domain/actions/correct-tracks.js';
import { positiveId, requiredText, STRING_LIMITS } from './fields.js';
import { TrackInput } from './requests.js';
import { shapeOf } from './shape.js';

/**
 * An operator's correction of one recorded shipment's tracks (docs/behaviour.md): the shipment's
 * id as `getOrderHistory` shows it, the tracks it should have had (all of them), and why.
 */
export const TrackCorrectionInput = shapeOf<TrackCorrection>()(
  v.object({
    shipment: positiveId,
    tracks: v.array(TrackInput),
    reason: requiredText(STRING_LIMITS.note),
  }),
);

export type TrackCorrectionInput = v.InferInput<typeof TrackCorrectionInput>;
