import {
  applies,
  OPERATOR_DECISIONS,
  type OperatorDecision,
} from '../domain/actions/interventions.js';
import { fail } from '../domain/actions/operator.js';
import { touch, unchanged } from '../domain/actions/outcome.js';
import { deadlineClockOf } from '../domain/deadline.js';
import { fieldError, isDomainError, renderMessage } from '../domain/errors.js';
import type { OrderFilter } from '../ports/admin-repository.js';
import {
  AllowPartialInput,
  type BulkAction,
  BulkInput,
  FailInput,
  ReasonInput,
} from '../schemas/admin.js';
import { parseWith } from '../schemas/parse.js';
import { operatorActorOf, requireRole } from './admin-access.js';
import { COUNT_CAP, type OrderDetail, orderDetail, resolveFilter } from './admin-orders.js';
import { cancelByNumber } from './cancellations.js';
import { correctShipmentTracks } from './correct-tracks.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import { holdByNumber, releaseByNumber } from './holds.js';
import { interveneAs, type StillApplies } from './operator.js';
import type { OperatorPrincipal } from './operator-accounts.js';

/** Interventions through the admin API (docs/admin-api.md), one audited transaction each. */

type Decide = OperatorDecision;

const DECISIONS: Record<BulkAction, Decide> = OPERATOR_DECISIONS;

/**
 * An intervention on one order, named for its timeline; answers the order as it now stands.
 * Its callers check the operator's role before they parse the body, so that a viewer is
 * answered 403 before any 400: the check is theirs alone.
 */
export async function decideAs(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
  action: string,
  decide: Decide,
  reason: string | null,
): Promise<OrderDetail> {
  await interveneAs(deps, operatorActorOf(operator, storeCode, reason), number, action, decide);
  return orderDetail(deps, operator, storeCode, number);
}

export async function adminFail(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
  body: unknown,
): Promise<OrderDetail> {
  requireRole(operator, 'operator', storeCode);
  const input = parseWith(FailInput, body);
  return decideAs(
    deps,
    operator,
    storeCode,
    number,
    'fail',
    (order, at) => fail(order, input.reason, at, input.stage),
    input.reason,
  );
}

/** Requeue, abandon or cancel one order. */
export async function adminIntervene(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
  action: BulkAction,
  body: unknown,
): Promise<OrderDetail> {
  requireRole(operator, 'operator', storeCode);
  const { reason = null } = parseWith(ReasonInput, body ?? {});
  return decideAs(deps, operator, storeCode, number, action, DECISIONS[action], reason);
}

/** The per-order partials override: true or false, or null to follow the store settings. */
export async function allowPartial(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
  body: unknown,
): Promise<OrderDetail> {
  requireRole(operator, 'operator', storeCode);
  const { allow, reason = null } = parseWith(AllowPartialInput, body);
  return decideAs(
    deps,
    operator,
    storeCode,
    number,
    'allow_partial',
    (order, at) =>
      order.allow_partial === allow
        ? unchanged(order)
        : {
            order: touch({ ...order, allow_partial: allow }, at),
            changed: true,
            stock: [],
            rejected: [],
            details: { allow_partial: allow, before: order.allow_partial },
          },
    reason,
  );
}

/** Replaces the tracks of one recorded shipment (correct-tracks.ts), as the operator. */
export async function adminCorrectTracks(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
  body: unknown,
): Promise<OrderDetail> {
  requireRole(operator, 'operator', storeCode);
  await correctShipmentTracks(deps, storeCode, number, body, operatorActorOf(operator, storeCode));
  return orderDetail(deps, operator, storeCode, number);
}

export type BulkOutcome =
  | { order: string; outcome: 'done' }
  | { order: string; outcome: 'skipped' | 'failed'; reason: string };

/**
 * A dry run: `count` orders the action would act on now, of the `selected` ones the filter
 * selects; the others would be skipped.
 */
export type BulkCount = { count: number; selected: number };

export type BulkResult = BulkCount | { results: BulkOutcome[] };

/**
 * A bulk intervention over a filter, never over a page: the filter is resolved to at most
 * 10,000 orders (more is refused), a dry run counts those the action applies to exactly (the
 * action's own decision answers, in one read), a run acts on each in its own transaction. Each
 * order is acted on only if, locked in that transaction, it still matches the filter: one that
 * left it meanwhile (a partner accepted it) is skipped with that reason, as is one the action no
 * longer applies to, so a repeated bulk changes nothing more.
 */
export async function bulkIntervene(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  action: BulkAction,
  body: unknown,
): Promise<BulkResult> {
  requireRole(operator, 'operator', storeCode);
  const input = parseWith(BulkInput, body);
  return bulkDecide(deps, operator, storeCode, input, action, DECISIONS[action]);
}

/** {@link bulkIntervene}'s run of one decision, named `action` on each timeline. */
export async function bulkDecide(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  input: {
    filter?: Record<string, unknown> | undefined;
    orders?: readonly string[] | undefined;
    dry_run: boolean;
    reason?: string | null | undefined;
  },
  action: string,
  decide: Decide,
): Promise<BulkResult> {
  const { filter: raw, orders } = input;
  if ((raw === undefined) === (orders === undefined)) {
    throw fieldError(
      'invalid_request',
      'Give the orders by a filter or by a list (orders), one of the two.',
      'filter',
      raw === undefined ? 'neither' : 'both',
    );
  }
  // A list names its orders: none can leave it, so only the action's own decision skips one.
  const filter: OrderFilter | null = raw
    ? Object.fromEntries(
        Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''),
      )
    : null;
  const { numbers, count } = await deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    // A deadline status is read at the bulk's start, in the resolve and in each order's check.
    if (filter?.deadline) filter.deadline_clock = deadlineClockOf(store.settings, now(deps));
    const numbers = filter
      ? await resolveFilter(tx, store.id, filter, COUNT_CAP)
      : [...new Set(orders)];
    if (numbers.length > COUNT_CAP) {
      throw fieldError(
        'invalid_request',
        'The filter selects more than %fieldValue orders: narrow it.',
        'filter',
        String(COUNT_CAP),
      );
    }
    if (!input.dry_run) return { numbers, count: 0 };
    const at = now(deps);
    let count = 0;
    for (const number of numbers) {
      const order = await tx.findOrder(store.id, number);
      if (order && applies(decide, order, at)) count++;
    }
    return { numbers, count };
  }, 'read');
  if (input.dry_run) return { count, selected: numbers.length };
  const actor = operatorActorOf(operator, storeCode, input.reason ?? null);
  const stillMatches: StillApplies | undefined = filter
    ? (tx, order) => tx.orderMatches(order.store_id, order.id, filter)
    : undefined;
  const results: BulkOutcome[] = [];
  for (const number of numbers) {
    try {
      const { changed, applies } = await interveneAs(
        deps,
        actor,
        number,
        action,
        decide,
        stillMatches,
      );
      results.push(
        changed
          ? { order: number, outcome: 'done' }
          : {
              order: number,
              outcome: 'skipped',
              reason: applies
                ? `Already ${action === 'cancel' ? 'canceled' : 'done'}.`
                : 'No longer matches the filter.',
            },
      );
    } catch (error) {
      // One order's failure (the database gone a moment included) never stops the others; the
      // bulk may be repeated for them.
      const known = isDomainError(error);
      const skipped = known && (error.code === 'wrong_stage' || error.code === 'not_found');
      results.push({
        order: number,
        outcome: skipped ? 'skipped' : 'failed',
        reason: known ? renderMessage(error.message, error.parameters) : 'Internal error.',
      });
    }
  }
  return { results };
}

/** What an operator does to a whole sales order, by the rules a sales channel's request follows. */
const SALES_ORDER_ACTIONS = {
  hold: holdByNumber,
  release: releaseByNumber,
  cancel: cancelByNumber,
} as const;

export type SalesOrderAction = keyof typeof SALES_ORDER_ACTIONS;

/** Holds, releases or cancels the sales order `number` as the operator, named on its timeline. */
export async function adminSalesOrderAction(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
  action: SalesOrderAction,
  body: unknown,
) {
  requireRole(operator, 'operator', storeCode);
  return SALES_ORDER_ACTIONS[action](deps, operatorActorOf(operator, storeCode), number, body);
}
