import type { SalesOrderIntake } from '@fulfil/core';
import { SalesOrderResourceSchema } from '@fulfil/core';
import * as v from 'valibot';
import { describeError, HTTP_STATUS_OF_ERROR } from './errors.js';
import { ErrorBodySchema } from './openapi/resources.js';

/** The answer of a batch intake (docs/channel-guide.md): one entry per sales order, in order. */

export const SalesOrderBatchEntrySchema = v.object({
  sales_order_number: v.pipe(
    v.nullable(v.string()),
    v.description('The number sent; null when the entry had none.'),
  ),
  status: v.pipe(
    v.picklist([201, 200, 409, 400]),
    v.description(
      '201 taken in now; 200 taken in before with the same content; 409 taken in with other content; 400 invalid or not routable.',
    ),
  ),
  sales_order: v.pipe(
    v.optional(SalesOrderResourceSchema),
    v.description('The Sales order view, on 201 and 200.'),
  ),
  error: v.pipe(v.optional(ErrorBodySchema), v.description('The error body, on 409 and 400.')),
});

export type SalesOrderBatchEntry = v.InferOutput<typeof SalesOrderBatchEntrySchema>;

/** The answer of a hold (docs/channel-guide.md). */
export const HoldAnswerSchema = v.object({
  handle: v.string(),
  held: v.pipe(v.array(v.string()), v.description('The fulfillment orders the hold holds.')),
  not_held: v.pipe(
    v.array(v.object({ fulfillment_order_number: v.string(), why: v.string() })),
    v.description('The others, each with why: its status (past allocation, or done) or `failed`.'),
  ),
  sales_order: SalesOrderResourceSchema,
});

export type HoldAnswer = v.InferOutput<typeof HoldAnswerSchema>;

/** What one sales order of a batch came to, as its entry of the answer. */
export function batchEntryOf(intake: SalesOrderIntake): SalesOrderBatchEntry {
  const { sales_order_number } = intake;
  if (intake.outcome !== 'refused') {
    const status = intake.outcome === 'created' ? 201 : 200;
    return { sales_order_number, status, sales_order: intake.sales_order };
  }
  // The error table says the status, the error path the body, as for any other error.
  const { body } = describeError(intake.error, {
    debug: false,
    reportId: () => '',
    tokenSent: true,
    malformedCredentials: false,
  });
  const status = HTTP_STATUS_OF_ERROR[intake.error.code] === 409 ? 409 : 400;
  return { sales_order_number, status, error: body };
}
