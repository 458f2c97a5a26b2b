import { attentionCutoff, attentionHours } from '../domain/attention.js';
import { QUEUES } from '../domain/item-stage.js';
import { operatorSees } from '../domain/operator.js';
import type { QueueName } from '../domain/types.js';
import { requireRole } from './admin-access.js';
import { COUNT_CAP } from './admin-orders.js';
import { type WaitingSummary, waitingSummary } from './admin-waiting.js';
import { storeDeadlines, type WarehouseDeadlines } from './deadline-counts.js';
import { type EngineDeps, now } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';

/**
 * The dashboard of the admin API (docs/admin-api.md): how full each queue is, since when, and
 * how many of its orders have waited longer than the store allows.
 */

export interface WarehouseDepth {
  warehouse_code: string;
  orders: number;
  oldest_at: string | null;
}

/**
 * The orders that have waited in a queue longer than the store allows: `orders` of them (at
 * most 10,000, then `capped`), every one created before `since`, so that the order search
 * `queue` + `created_to=since` lists exactly them.
 */
export interface QueueAttention {
  after_hours: number;
  since: string;
  orders: number;
  capped: boolean;
}

export interface StoreDashboard extends WaitingSummary {
  store_code: string;
  queues: {
    queue: QueueName;
    orders: number;
    oldest_at: string | null;
    by_warehouse: WarehouseDepth[];
    /** Null for the failed queue (every order there needs a person) and a threshold turned off. */
    attention: QueueAttention | null;
  }[];
  failed: { open: number; abandoned: number };
  courier: { shipped: number; retrying: number; failed: number };
  /**
   * Orders by deadline status per warehouse (docs/deadlines.md): each not shipped that has a
   * deadline, and those shipped in the last 30 days. The order search `deadline=overdue` +
   * `warehouse` lists the overdue ones.
   */
  deadlines: WarehouseDeadlines[];
}

const earliest = (a: string | null, b: string | null): string | null =>
  a === null ? b : b === null ? a : a < b ? a : b;

/**
 * Every store the operator sees, each queue with its depth per warehouse and the creation time
 * of its oldest order: read from the queue entries (the read model), never from every order.
 */
export async function dashboard(
  deps: EngineDeps,
  operator: OperatorPrincipal,
): Promise<{ stores: StoreDashboard[] }> {
  requireRole(operator, 'viewer');
  return deps.repository.transaction(async (tx) => {
    const stores = (await tx.listStores()).filter((store) => operatorSees(operator, store.code));
    const out: StoreDashboard[] = [];
    const at = now(deps);
    for (const store of stores) {
      const depths = await tx.queueDepthsByWarehouse(store.id);
      const health = await tx.storeHealth(store.id);
      const thresholds = attentionHours(store.settings);
      const attention = async (queue: QueueName): Promise<QueueAttention | null> => {
        // Unanswered cancellation requests are counted from each request (`waitingSummary`).
        const hours =
          queue === 'failed' || queue === 'pending_cancellation' ? null : thresholds[queue];
        if (hours === null) return null;
        const since = attentionCutoff(at, hours);
        const count = await tx.countOrders(store.id, { queue, created_to: since }, COUNT_CAP + 1);
        return {
          after_hours: hours,
          since,
          orders: Math.min(count, COUNT_CAP),
          capped: count > COUNT_CAP,
        };
      };
      const waiting = new Map<QueueName, QueueAttention | null>();
      for (const queue of QUEUES) waiting.set(queue, await attention(queue));
      out.push({
        store_code: store.code,
        queues: QUEUES.map((queue) => {
          const by_warehouse = depths
            .filter((depth) => depth.queue === queue)
            .map(({ warehouse_code, orders, oldest_at }) => ({ warehouse_code, orders, oldest_at }))
            .sort((a, b) => (a.warehouse_code < b.warehouse_code ? -1 : 1));
          return {
            queue,
            orders: by_warehouse.reduce((sum, depth) => sum + depth.orders, 0),
            oldest_at: by_warehouse.reduce<string | null>(
              (at, depth) => earliest(at, depth.oldest_at),
              null,
            ),
            by_warehouse,
            attention: waiting.get(queue) ?? null,
          };
        }),
        failed: { open: health.failed_open, abandoned: health.failed_abandoned },
        courier: {
          shipped: health.courier_shipped,
          retrying: health.courier_retrying,
          failed: health.courier_failed,
        },
        deadlines: await storeDeadlines(tx, store, at),
        ...(await waitingSummary(tx, store, at)),
      });
    }
    return { stores: out };
  }, 'read');
}
