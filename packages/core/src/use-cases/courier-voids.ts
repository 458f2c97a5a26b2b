import { callDeadlineMs } from '../domain/actions/courier.js';
import { type CourierLabel, issuedLabel, later } from '../domain/courier-labels.js';
import type { FulfillmentOrder, Store } from '../domain/types.js';
import {
  boundCarrierText,
  type CourierFailure,
  carrierDetails,
  describeCourierFailure,
  type IssuedLabel,
} from '../ports/courier.js';
import { STRING_LIMITS } from '../schemas/fields.js';
import { type CourierSession, openCourierSession } from './courier-calls.js';
import type { EngineDeps } from './deps.js';
import { now } from './deps.js';

/**
 * The void queue (docs/couriers.md): labels of canceled or abandoned orders and of shipments that
 * failed for good, voided by the dispatcher outside any transaction (canceling is one database
 * transaction, which must not wait on a carrier). A void that fails is retried with backoff, and
 * shows on the order's timeline and, for a failed order, in its failure reason.
 */

/** The longest wait between two attempts at one void. */
const MAX_VOID_BACKOFF_MS = 3_600_000;

interface VoidClaim {
  store: Store;
  order: FulfillmentOrder;
  rows: CourierLabel[];
}

/** What voiding one row came to: the labels found under its reference, or a failure. */
type VoidResult =
  | { row: CourierLabel; ok: true; found: IssuedLabel[] }
  | { row: CourierLabel; ok: false; failure: CourierFailure };

const isVoidDue = (row: CourierLabel, at: string) =>
  (row.status === 'voiding' || row.status === 'void_failed') &&
  row.next_void_at !== null &&
  row.next_void_at <= at;

/** Claims the order's due voids: pushes them past the lease, as courier dispatch claims orders. */
async function claimVoids(deps: EngineDeps, orderId: number): Promise<VoidClaim | null> {
  return deps.repository.transaction(async (tx) => {
    const order = await tx.lockOrderById(orderId);
    const at = now(deps);
    if (!order) return null;
    const due = (await tx.listLabels(order.id)).filter((row) => isVoidDue(row, at));
    const store = await tx.findStoreById(order.store_id);
    if (!store || due.length === 0) return null;
    const leased = due.map((row) => ({
      ...row,
      next_void_at: later(at, deps.courierPolicy.lease_ms),
    }));
    return { store, order, rows: await tx.saveLabels(leased) };
  });
}

/** Voids one row's label; a row without a carrier id is looked up first (a call may have landed). */
async function voidRow(session: CourierSession, row: CourierLabel): Promise<VoidResult> {
  let labels: IssuedLabel[] = [];
  if (row.carrier_label_id === null) {
    const found = await session.call('find', (c, o) => c.findShipment(row.reference, o));
    if (found.kind !== 'ok') return { row, ok: false, failure: found };
    labels = found.labels;
  }
  const ids =
    row.carrier_label_id === null ? labels.map((l) => l.carrier_label_id) : [row.carrier_label_id];
  for (const id of ids) {
    const voided = await session.call('void', (c, o) => c.voidLabel(id, o));
    if (voided.kind !== 'ok') return { row, ok: false, failure: voided };
  }
  return { row, ok: true, found: labels };
}

/** The row as the void left it. */
function afterVoid(deps: EngineDeps, result: VoidResult, at: string): CourierLabel[] {
  const { row } = result;
  if (!result.ok) {
    const attempts = row.void_attempts + 1;
    const wait = Math.min(
      deps.courierPolicy.retry_base_ms * 2 ** (attempts - 1),
      MAX_VOID_BACKOFF_MS,
    );
    return [
      {
        ...row,
        status: 'void_failed',
        void_attempts: attempts,
        last_error: describeCourierFailure(result.failure),
        next_void_at: later(at, wait),
      },
    ];
  }
  const voided = { status: 'voided' as const, next_void_at: null, voided_at: at };
  const [first, ...more] = result.found;
  // A label found by look-up is recorded on its row, so the operator sees what was voided.
  return [
    { ...(first ? issuedLabel(row, first) : row), ...voided },
    ...more.map((label) => ({ ...issuedLabel({ ...row, id: 0 }, label), ...voided })),
  ];
}

/** Records the voids under the order's lock, unless another dispatcher took them over meanwhile. */
async function settleVoids(
  deps: EngineDeps,
  claim: VoidClaim,
  results: VoidResult[],
): Promise<'voided' | 'void_failed' | null> {
  return deps.repository.transaction(async (tx) => {
    const order = await tx.lockOrderById(claim.order.id);
    if (!order) return null;
    const at = now(deps);
    const current = await tx.listLabels(order.id);
    const held = results.filter(({ row }) =>
      current.some(
        (c) => c.id === row.id && c.next_void_at === row.next_void_at && c.status === row.status,
      ),
    );
    if (held.length === 0) return null;
    await tx.saveLabels(held.flatMap((result) => afterVoid(deps, result, at)));
    const failed = held.filter((result) => !result.ok);
    const events = held.map((result) => ({
      order_id: order.id,
      at,
      actor: 'courier',
      action: result.ok ? 'label_void' : 'label_void_failed',
      details: result.ok
        ? {
            reference: result.row.reference,
            labels: result.row.carrier_label_id
              ? [result.row.carrier_label_id]
              : result.found.map((label) => label.carrier_label_id),
          }
        : {
            reference: result.row.reference,
            error: describeCourierFailure(result.failure),
            carrier: carrierDetails(result.failure),
          },
    }));
    await tx.appendAudit(events);
    const first = failed[0];
    if (first && !first.ok && order.failure && first.row.void_attempts === 0) {
      const note = `; label ${first.row.reference} could not be voided: ${describeCourierFailure(first.failure)}`;
      await tx.saveOrder({
        ...order,
        failure: {
          ...order.failure,
          reason: boundCarrierText(order.failure.reason + note, STRING_LIMITS.note),
        },
        updated_at: at,
      });
    }
    return failed.length ? 'void_failed' : 'voided';
  });
}

/** Works the void queue: every due void of up to `limit` orders. */
export async function dispatchVoids(deps: EngineDeps, limit: number) {
  const report = { voided: [] as string[], void_failed: [] as string[] };
  const due = await deps.repository.transaction(
    (tx) => tx.listLabelVoidsDue(now(deps), limit),
    'read',
  );
  for (const orderId of due) {
    const claim = await claimVoids(deps, orderId);
    if (!claim) continue;
    const session = openCourierSession(deps, claim.store, callDeadlineMs(deps.courierPolicy));
    const results: VoidResult[] = [];
    try {
      for (const row of claim.rows) results.push(await voidRow(session, row));
    } finally {
      session.close();
    }
    const settled = await settleVoids(deps, claim, results);
    if (settled) report[settled].push(claim.order.fulfillment_order_number);
  }
  return report;
}
