import {
  callDeadlineMs,
  claimCourierAttempt,
  courierFailed,
  courierShipped,
  isClaimHeld,
  isCourierDue,
} from '../domain/actions/courier.js';
import { appendAll } from '../domain/append-all.js';
import { courierTrack } from '../domain/carrier-codes.js';
import {
  type CourierLabel,
  courierParcels,
  issuedLabel,
  liveLabels,
  mayBeLive,
  nextShipmentNumber,
  pendingLabel,
  queueVoids,
} from '../domain/courier-labels.js';
import { presentOrder } from '../domain/present.js';
import type { FulfillmentOrder, Store, Track } from '../domain/types.js';
import type { CourierFailure, IssuedLabel } from '../ports/courier.js';
import type { RepositoryTx } from '../ports/repository.js';
import { openCourierSession } from './courier-calls.js';
import { dispatchVoids } from './courier-voids.js';
import type { EngineDeps } from './deps.js';
import { now } from './deps.js';

export interface DispatchReport {
  shipped: string[];
  retrying: string[];
  failed: string[];
  /** Orders whose labels the dispatcher voided in this round. */
  voided: string[];
  /** Orders with a label whose void failed in this round (retried later). */
  void_failed: string[];
}

interface Claim {
  store: Store;
  order: FulfillmentOrder;
  /** The rows of the shipment's parcels, by parcel index. */
  parcels: CourierLabel[];
  /** References a call of an earlier attempt may have created a label for: looked up first. */
  lookUp: Set<string>;
}

/** What one attempt came to: the labels obtained, and the failure that stopped it, if any. */
interface Attempt {
  issued: Map<string, IssuedLabel>;
  /** Live labels found under a reference beyond the one adopted: duplicates, to void. */
  extra: Map<string, IssuedLabel[]>;
  failure: CourierFailure | null;
  /** References for which the carrier may hold a label Fulfil has not recorded. */
  uncertain: Set<string>;
}

/**
 * Claims one due order under its lock, and marks each of its parcels without a label `pending`
 * before any carrier call: a dispatcher that dies mid-call leaves them so, and the next attempt
 * looks them up before it creates anything. Null when another dispatcher got there first or the
 * order is no longer due.
 */
async function claim(deps: EngineDeps, orderId: number): Promise<Claim | null> {
  return deps.repository.transaction(async (tx) => {
    const order = await tx.lockOrderById(orderId);
    const at = now(deps);
    if (!order || !isCourierDue(order, at)) return null;
    const store = await tx.findStoreById(order.store_id);
    if (!store) return null;
    const shipment = nextShipmentNumber(order);
    const all = (await tx.listLabels(order.id)).filter((row) => row.shipment_number === shipment);
    const rows = all.filter(mayBeLive);
    const count = courierParcels(order).length;
    const lookUp = new Set(rows.filter((row) => row.status === 'pending').map((r) => r.reference));
    const missing = [];
    for (let index = 1; index <= count; index++) {
      if (!rows.some((row) => row.parcel_index === index))
        missing.push(
          pendingLabel(
            order,
            store.settings.courier.type,
            index,
            count,
            at,
            generation(all, index),
          ),
        );
    }
    const added = await tx.saveLabels(missing);
    const parcels = [...rows, ...added].sort((a, b) => a.parcel_index - b.parcel_index);
    const claimed = claimCourierAttempt(order, at, deps.courierPolicy.lease_ms);
    return { store, order: await tx.saveOrder(claimed), parcels, lookUp };
  });
}

/**
 * A parcel whose labels were voided is booked under a new reference, so that a look-up meant for
 * the voided one never finds (and voids) the new label.
 */
function generation(rows: readonly CourierLabel[], parcel: number): number {
  return 1 + rows.filter((row) => row.parcel_index === parcel).length;
}

/**
 * Asks the carrier for every parcel's label, in order, stopping at the first refusal. A parcel
 * some earlier call may have bought a label for is looked up first and, when found, adopted.
 */
async function attempt(deps: EngineDeps, { store, order, parcels, lookUp }: Claim) {
  const result: Attempt = {
    issued: new Map(),
    extra: new Map(),
    failure: null,
    uncertain: new Set(lookUp),
  };
  const session = openCourierSession(deps, store, callDeadlineMs(deps.courierPolicy));
  const shown = presentOrder(order, 'whole');
  const items = shown.items.filter((item) => item.status === 'pending_shipment');
  try {
    for (const row of parcels) {
      if (row.status === 'live') continue;
      const { reference } = row;
      if (lookUp.has(reference)) {
        const found = await session.call('find', (c, o) => c.findShipment(reference, o));
        if (found.kind !== 'ok') {
          result.failure = found;
          break;
        }
        result.uncertain.delete(reference);
        const [label, ...extra] = found.labels;
        if (extra.length) result.extra.set(reference, extra);
        if (label) {
          result.issued.set(reference, label);
          continue;
        }
      }
      const parcel = {
        index: row.parcel_index,
        count: row.parcel_count,
        items: items.filter((_, index) => index === row.parcel_index - 1),
      };
      const created = await session.call('create', (c, o) =>
        c.createShipment({ reference, order: shown, parcel }, o),
      );
      if (created.kind === 'ok') {
        result.issued.set(reference, created.label);
        continue;
      }
      if (created.kind === 'unknown') result.uncertain.add(reference);
      result.failure = created;
      break;
    }
  } finally {
    session.close();
  }
  return result;
}

type Settled = 'shipped' | 'retrying' | 'failed';

/**
 * Records the attempt under the lock again; ignores it when the claim no longer holds (an operator
 * canceled or failed the order meanwhile, or the lease ran out and another dispatcher took over):
 * the `pending` rows stay, so whoever comes next looks the labels up.
 */
async function settle(deps: EngineDeps, claimed: Claim, result: Attempt): Promise<Settled | null> {
  return deps.repository.transaction(async (tx) => {
    const order = await tx.lockOrderById(claimed.order.id);
    if (!order || !isClaimHeld(order, claimed.order)) return null;
    const at = now(deps);
    const { store } = claimed;
    const rows = await recordLabels(tx, claimed, result, at);
    const policy = { ...deps.courierPolicy, max_attempts: store.settings.courier.max_attempts };
    const outcome = result.failure
      ? courierFailed(order, result.failure, at, policy)
      : courierShipped(order, tracksOf(store, rows), { now: at, settings: store.settings });
    if (!outcome.changed) return null;
    if (outcome.order.failure) {
      // Failed for good: no parcel of this shipment keeps a label (all or nothing).
      await tx.saveLabels(queueVoids(rows, outcome.order, at));
    }
    await tx.saveOrder(outcome.order);
    await tx.adjustStock(store.id, outcome.stock);
    const settled: Settled = result.failure
      ? outcome.order.failure
        ? 'failed'
        : 'retrying'
      : 'shipped';
    const action = { shipped: 'ship', failed: 'fail', retrying: 'courier_retry' }[settled];
    await tx.appendAudit([
      { order_id: order.id, at, actor: 'courier', action, details: outcome.details },
    ]);
    return settled;
  });
}

/**
 * Writes what the carrier answered into the parcels' rows: issued labels go live, duplicates
 * found under a reference go to the void queue; a parcel's `pending` row is dropped when the
 * carrier surely holds no label for it (never asked, or refused outright), and stays when it may.
 */
async function recordLabels(
  tx: RepositoryTx,
  claimed: Claim,
  result: Attempt,
  at: string,
): Promise<CourierLabel[]> {
  const { parcels } = claimed;
  const rows = parcels.map((row) => {
    const label = result.issued.get(row.reference);
    return label && row.status === 'pending' ? issuedLabel(row, label) : row;
  });
  const dropped = rows.filter(
    (row) => row.status === 'pending' && !result.uncertain.has(row.reference),
  );
  const kept = rows.filter((row) => !dropped.includes(row));
  const duplicates = kept.flatMap((row) =>
    (result.extra.get(row.reference) ?? []).map((label) => ({
      ...issuedLabel({ ...row, id: 0, created_at: at }, label),
      status: 'voiding' as const,
      next_void_at: at,
    })),
  );
  await tx.saveLabels([...kept.filter((row) => !parcels.includes(row)), ...duplicates]);
  await tx.deleteLabels(
    claimed.order.id,
    dropped.map((row) => row.id),
  );
  return kept;
}

/** The shipment's tracks: one per live label, naming the carrier as it named itself. */
function tracksOf(store: Store, rows: readonly CourierLabel[]): Track[] {
  const { account, type } = store.settings.courier;
  return liveLabels(rows).map((row) => courierTrack(row, account ?? type));
}

/**
 * One round of courier dispatch: every order of a courier warehouse that waits in
 * pending_shipment is booked with the store's courier, one label per parcel; failures retry with
 * backoff and, after `max_attempts`, go to the failed queue (stage shipment) with their labels
 * voided. Then the round works the void queue. Safe to run in every worker at once.
 */
export async function dispatchCourier(deps: EngineDeps, limit = 50): Promise<DispatchReport> {
  const report: DispatchReport = {
    shipped: [],
    retrying: [],
    failed: [],
    voided: [],
    void_failed: [],
  };
  const due = await deps.repository.transaction(
    (tx) => tx.listCourierDue(now(deps), limit),
    'read',
  );
  for (const orderId of due) {
    const claimed = await claim(deps, orderId);
    if (!claimed) continue;
    const settled = await settle(deps, claimed, await attempt(deps, claimed));
    if (settled) report[settled].push(claimed.order.fulfillment_order_number);
  }
  const voids = await dispatchVoids(deps, limit);
  appendAll(report.voided, voids.voided);
  appendAll(report.void_failed, voids.void_failed);
  return report;
}
