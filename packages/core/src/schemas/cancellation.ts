import * as v from 'valibot';
import { CANCELLATION_REASONS, HOLD_REASONS } from '../domain/types.js';
import { code, note, orderId, positiveId, requiredText, STRING_LIMITS } from './fields.js';

/**
 * Request bodies of holds and cancellations (docs/channel-guide.md, docs/partner-guide.md): a
 * sales channel's on a sales order, the partner's answers on a fulfillment order.
 */

const salesOrderNumber = requiredText(STRING_LIMITS.sales_order_number);

/** A hold as an operator places it on the sales order its path names (admin API). */
export const HoldFields = v.object({
  handle: code,
  reason: v.picklist(HOLD_REASONS),
  note: v.optional(note),
});

export const ReleaseFields = v.object({ handle: code });

export const CancellationFields = v.object({
  reason: v.picklist(CANCELLATION_REASONS),
  items: v.optional(
    v.pipe(
      v.array(v.object({ fulfillment_order_number: code, item_id: positiveId })),
      v.minLength(1, 'must list at least one item, or be left out to cancel the whole order'),
      v.check(
        (items) => new Set(items.map((item) => item.item_id)).size === items.length,
        'must not list an item twice',
      ),
    ),
  ),
});

export const HoldRequest = v.object({
  hold: v.object({ sales_order_number: salesOrderNumber, ...HoldFields.entries }),
});

export const ReleaseRequest = v.object({
  release: v.object({ sales_order_number: salesOrderNumber, ...ReleaseFields.entries }),
});

export const CancellationRequestBody = v.object({
  cancellation: v.object({ sales_order_number: salesOrderNumber, ...CancellationFields.entries }),
});

export const AcceptCancellationRequest = v.object({
  cancellation: v.object({ order_id: orderId, message: v.optional(note) }),
});

export const RejectCancellationRequest = v.object({
  cancellation: v.object({ order_id: orderId, message: requiredText(STRING_LIMITS.note) }),
});

export type ParsedHold = v.InferOutput<typeof HoldRequest>['hold'];
export type ParsedRelease = v.InferOutput<typeof ReleaseRequest>['release'];
export type ParsedCancellation = v.InferOutput<typeof CancellationRequestBody>['cancellation'];

export type HoldInput = v.InferInput<typeof HoldRequest>;
export type ReleaseInput = v.InferInput<typeof ReleaseRequest>;
export type CancellationInput = v.InferInput<typeof CancellationRequestBody>;
export type AcceptCancellationInput = v.InferInput<typeof AcceptCancellationRequest>;
export type RejectCancellationInput = v.InferInput<typeof RejectCancellationRequest>;
export type HoldFieldsInput = v.InferInput<typeof HoldFields>;
export type ReleaseFieldsInput = v.InferInput<typeof ReleaseFields>;
export type CancellationFieldsInput = v.InferInput<typeof CancellationFields>;
