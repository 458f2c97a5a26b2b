import {
  claimCourierAttempt,
  courierFailed,
  courierShipmentKey,
  courierShipped,
  isClaimHeld,
  isCourierDue,
} from '../domain/actions/courier.js';
import { presentOrder } from '../domain/present.js';
import type { FulfillmentOrder, Store } from '../domain/types.js';
import type { CourierResult } from '../ports/courier.js';
import type { EngineDeps } from './deps.js';
import { now } from './deps.js';

export interface DispatchReport {
  shipped: string[];
  retrying: string[];
  failed: string[];
}

interface Claim {
  store: Store;
  order: FulfillmentOrder;
}

/**
 * Claims one due order under its lock. Returns null when another dispatcher got there first or the
 * order is no longer due: that is what keeps two workers from shipping one order twice.
 */
async function claim(deps: EngineDeps, orderId: number): Promise<Claim | null> {
  return deps.repository.transaction(async (tx) => {
    const order = await tx.lockOrderById(orderId);
    const at = now(deps);
    if (!order || !isCourierDue(order, at)) return null;
    const store = await tx.findStoreById(order.store_id);
    if (!store) return null;
    const claimed = claimCourierAttempt(order, at, deps.courierPolicy.lease_ms);
    return { store, order: await tx.saveOrder(claimed) };
  });
}

async function callCourier(deps: EngineDeps, { store, order }: Claim): Promise<CourierResult> {
  const factory = deps.couriers[store.settings.courier.type];
  if (!factory)
    return {
      ok: false,
      error: `no courier of type "${store.settings.courier.type}" is configured`,
    };
  const shown = presentOrder(order, 'whole');
  const items = shown.items.filter((item) => item.status === 'pending_shipment');
  try {
    return await factory(store.settings.courier).ship({
      order: shown,
      items,
      idempotency_key: courierShipmentKey(order),
    });
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

type Settled = keyof DispatchReport;

/**
 * Records what the courier answered, under the lock again; ignores it when the claim no longer
 * holds (an operator canceled or failed the order meanwhile, or the lease ran out and another
 * dispatcher took over).
 */
async function settle(
  deps: EngineDeps,
  { store, order: claimed }: Claim,
  result: CourierResult,
): Promise<Settled | null> {
  return deps.repository.transaction(async (tx) => {
    const order = await tx.lockOrderById(claimed.id);
    if (!order || !isClaimHeld(order, claimed)) return null;
    const at = now(deps);
    const policy = { ...deps.courierPolicy, max_attempts: store.settings.courier.max_attempts };
    const outcome = result.ok
      ? courierShipped(order, result.tracks, { now: at, settings: store.settings })
      : courierFailed(order, result.error, at, policy);
    if (!outcome.changed) return null;
    await tx.saveOrder(outcome.order);
    await tx.adjustStock(store.id, outcome.stock);
    const settled: Settled = result.ok ? 'shipped' : outcome.order.failure ? 'failed' : 'retrying';
    const action = { shipped: 'ship', failed: 'fail', retrying: 'courier_retry' }[settled];
    await tx.appendAudit([
      { order_id: order.id, at, actor: 'courier', action, details: outcome.details },
    ]);
    return settled;
  });
}

/**
 * One round of courier dispatch: every order of a courier warehouse that waits in
 * pending_shipment is booked with the store's courier; failures retry with backoff and, after
 * `max_attempts`, go to the failed queue (stage shipment). Safe to run in every worker at once.
 */
export async function dispatchCourier(deps: EngineDeps, limit = 50): Promise<DispatchReport> {
  const report: DispatchReport = { shipped: [], retrying: [], failed: [] };
  const due = await deps.repository.transaction(
    (tx) => tx.listCourierDue(now(deps), limit),
    'read',
  );
  for (const orderId of due) {
    const claimed = await claim(deps, orderId);
    if (!claimed) continue;
    const settled = await settle(deps, claimed, await callCourier(deps, claimed));
    if (settled) report[settled].push(claimed.order.fulfillment_order_number);
  }
  return report;
}
