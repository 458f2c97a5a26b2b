import * as v from 'valibot';
import type { OperatorDecision } from '../domain/actions/interventions.js';
import { touch, unchanged } from '../domain/actions/outcome.js';
import { bulkBody } from '../schemas/admin.js';
import { fulfillByInput } from '../schemas/calendar.js';
import { note } from '../schemas/fields.js';
import { parseWith } from '../schemas/parse.js';
import { requireRole } from './admin-access.js';
import { type BulkResult, bulkDecide, decideAs } from './admin-interventions.js';
import type { OrderDetail } from './admin-orders.js';
import type { EngineDeps } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';

/**
 * An operator changes `fulfill_by` (docs/deadlines.md): of one order or of every order a filter
 * selects, always with a reason, each change on the order's timeline (`change_fulfill_by`, with
 * the deadline before and after).
 */

const reason = v.pipe(note, v.trim(), v.minLength(1, 'must say why the deadline changes'));

export const FulfillByInput = v.object({ fulfill_by: fulfillByInput, reason });
export const BulkFulfillByInput = bulkBody({
  dry_run: v.boolean(),
  fulfill_by: fulfillByInput,
  reason,
});

/** Sets the order's deadline; an order that has it already is left as it is. */
function setFulfillBy(to: string): OperatorDecision {
  return (order, at) =>
    (order.fulfill_by ?? null) === to
      ? unchanged(order)
      : {
          order: touch({ ...order, fulfill_by: to }, at),
          changed: true,
          stock: [],
          rejected: [],
          details: { fulfill_by: to, before: order.fulfill_by ?? null },
        };
}

export async function changeFulfillBy(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
  body: unknown,
): Promise<OrderDetail> {
  requireRole(operator, 'operator', storeCode);
  const input = parseWith(FulfillByInput, body);
  return decideAs(
    deps,
    operator,
    storeCode,
    number,
    'change_fulfill_by',
    setFulfillBy(input.fulfill_by),
    input.reason,
  );
}

export async function bulkChangeFulfillBy(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  body: unknown,
): Promise<BulkResult> {
  requireRole(operator, 'operator', storeCode);
  const input = parseWith(BulkFulfillByInput, body);
  return bulkDecide(
    deps,
    operator,
    storeCode,
    input,
    'change_fulfill_by',
    setFulfillBy(input.fulfill_by),
  );
}
