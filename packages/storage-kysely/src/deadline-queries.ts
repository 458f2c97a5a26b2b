import type { DeadlineClock, DeadlineCount, DeadlineStatus, LateShipments } from '@fulfil/core';
import { type Kysely, sql } from 'kysely';
import type { Database } from './database.js';
import { hasDeadline, open, shipped, statusCase } from './deadline-sql.js';
import { ReturnQueries } from './return-queries.js';
import type { TransactionResources } from './transaction-resources.js';

/**
 * The orders shipped since `since` per warehouse, and how many of them late: a range of the
 * shipped orders in migration 0032's partial index of `shipped_at`.
 */
export function lateShipmentsQuery(db: Kysely<Database>, since: string) {
  return db
    .selectFrom('fulfillment_orders')
    .select([
      'warehouse_code',
      (eb) => eb.fn.countAll<number>().as('shipped'),
      sql<number>`sum(case when shipped_at > fulfill_by then 1 else 0 end)`.as('late'),
    ])
    .where(hasDeadline)
    .where(shipped)
    .where('shipped_at', '>=', since)
    .groupBy('warehouse_code')
    .orderBy('warehouse_code');
}

/**
 * The repository's deadline reads on the transaction's connection. StockQueries extends
 * it.
 */
export class DeadlineQueries extends ReturnQueries {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>, resources: TransactionResources) {
    super(db, resources);
    this.#db = db;
  }

  /**
   * Two reads, each a range of an index rather than a walk over every order: the orders still
   * to ship (the partial index of migration 0030) and those shipped since `shipped_since`.
   */
  async countByDeadline(
    storeId: number,
    clock: DeadlineClock & { shipped_since: string },
  ): Promise<DeadlineCount[]> {
    const deadline = statusCase(clock);
    const counts = new Map<string, DeadlineCount>();
    for (const part of [
      open,
      sql<boolean>`(${shipped} and shipped_at >= ${clock.shipped_since})`,
    ]) {
      const rows = await this.#db
        .selectFrom((db) =>
          db
            .selectFrom('fulfillment_orders')
            .select(['warehouse_code', deadline.as('deadline')])
            .where('store_id', '=', storeId)
            .where(hasDeadline)
            .where(part)
            .as('orders'),
        )
        .select(['warehouse_code', 'deadline', (eb) => eb.fn.countAll<number>().as('orders')])
        .where('deadline', 'is not', null)
        .groupBy(['warehouse_code', 'deadline'])
        .execute();
      for (const row of rows) {
        const key = `${row.warehouse_code} ${row.deadline}`;
        const count = counts.get(key) ?? {
          warehouse_code: row.warehouse_code,
          status: row.deadline as DeadlineStatus,
          orders: 0,
        };
        count.orders += Number(row.orders);
        counts.set(key, count);
      }
    }
    return [...counts.values()].sort((a, b) =>
      a.warehouse_code === b.warehouse_code
        ? a.status.localeCompare(b.status)
        : a.warehouse_code.localeCompare(b.warehouse_code),
    );
  }

  async lateShipments(since: string): Promise<LateShipments[]> {
    const rows = await lateShipmentsQuery(this.#db, since).execute();
    return rows.map((row) => ({
      warehouse_code: row.warehouse_code,
      shipped: Number(row.shipped),
      late: Number(row.late),
    }));
  }
}
