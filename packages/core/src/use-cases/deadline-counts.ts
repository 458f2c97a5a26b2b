import {
  DEADLINE_STATUSES,
  type DeadlineStatus,
  deadlineClockOf,
  shipmentWindowStart,
} from '../domain/deadline.js';
import type { Store } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import type { EngineDeps } from './deps.js';
import { now } from './deps.js';

/**
 * Orders by deadline status (docs/deadlines.md) for the dashboard and the metrics: every order
 * not shipped that has a deadline, and those shipped in the last 30 days (met, missed).
 */

export interface WarehouseDeadlines {
  warehouse_code: string;
  counts: Record<DeadlineStatus, number>;
}

const zeros = (): Record<DeadlineStatus, number> =>
  Object.fromEntries(DEADLINE_STATUSES.map((status) => [status, 0])) as Record<
    DeadlineStatus,
    number
  >;

/** One store's counts per warehouse at `at`, warehouses in code order. */
export async function storeDeadlines(
  tx: RepositoryTx,
  store: Store,
  at: string,
): Promise<WarehouseDeadlines[]> {
  const rows = await tx.countByDeadline(store.id, {
    ...deadlineClockOf(store.settings, at),
    shipped_since: shipmentWindowStart(at),
  });
  const byWarehouse = new Map<string, Record<DeadlineStatus, number>>();
  for (const row of rows) {
    const counts = byWarehouse.get(row.warehouse_code) ?? zeros();
    counts[row.status] += row.orders;
    byWarehouse.set(row.warehouse_code, counts);
  }
  return [...byWarehouse]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([warehouse_code, counts]) => ({ warehouse_code, counts }));
}

/** What `/metrics` shows of deadlines. */
export interface DeadlineMetrics {
  /** Per store and warehouse, every status (zeros included). */
  by_status: {
    store_code: string;
    warehouse_code: string;
    status: DeadlineStatus;
    orders: number;
  }[];
  /** Per warehouse code: the share of the orders shipped in the last 30 days that were late. */
  late_ratio: { warehouse_code: string; shipped: number; late: number; ratio: number }[];
}

export function deadlineMetrics(deps: EngineDeps): Promise<DeadlineMetrics> {
  return deps.repository.transaction(async (tx) => {
    const at = now(deps);
    const by_status: DeadlineMetrics['by_status'] = [];
    for (const store of await tx.listStores()) {
      for (const { warehouse_code, counts } of await storeDeadlines(tx, store, at)) {
        for (const status of DEADLINE_STATUSES) {
          by_status.push({
            store_code: store.code,
            warehouse_code,
            status,
            orders: counts[status],
          });
        }
      }
    }
    const late_ratio = (await tx.lateShipments(shipmentWindowStart(at))).map((row) => ({
      ...row,
      ratio: row.shipped === 0 ? 0 : row.late / row.shipped,
    }));
    return { by_status, late_ratio };
  }, 'read');
}
