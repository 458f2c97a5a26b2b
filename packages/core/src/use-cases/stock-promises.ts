import type { RoutingRecord } from '../domain/routing/record.js';
import { availableOf } from '../domain/safety-stock.js';
import type { StockLevel, Warehouse } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';

/**
 * The units an intake routed as in stock (docs/behaviour.md, Stock), checked against the stock
 * under its rows' locks just before the intake reserves them. Intake routes on the stock as it
 * read it without locks, so that intakes of the same skus hold those rows only from this check
 * to their commit (a few round trips) instead of for their whole transaction; when another
 * transaction took units meanwhile so that one promise no longer holds, the intake is run again
 * with the rows locked from its first read ({@link StockRaced}). No unit is ever promised twice.
 */
export class StockPromises {
  readonly #units = new Map<string, { warehouse_code: string; sku: string; qty: number }>();

  /** Adds what a routing decision promised: each part of a line that is not short. */
  add(record: RoutingRecord): void {
    if (record.by !== 'rules') return;
    for (const line of record.decision.lines) {
      if (line.short) continue;
      for (const part of line.parts) {
        const key = `${part.warehouse_code}\u0000${line.sku}`;
        const promised = this.#units.get(key);
        if (promised) promised.qty += part.qty;
        else
          this.#units.set(key, {
            warehouse_code: part.warehouse_code,
            sku: line.sku,
            qty: part.qty,
          });
      }
    }
  }

  /**
   * Locks the stock rows of the promised skus (every warehouse, in one statement, in the order
   * every intake locks them) and throws {@link StockRaced} when one no longer has the units
   * promised of it. Before this transaction's own reservations are written.
   */
  async confirm(
    tx: RepositoryTx,
    storeId: number,
    warehouseOf: (code: string) => Pick<Warehouse, 'safety_stock'> | undefined,
  ): Promise<void> {
    if (this.#units.size === 0) return;
    const skus = [...new Set([...this.#units.values()].map((unit) => unit.sku))].sort();
    const levels = new Map<string, StockLevel>();
    for (const level of await tx.listStock({
      store_id: storeId,
      warehouses: null,
      skus,
      lock: true,
    }))
      levels.set(`${level.warehouse_code}\u0000${level.sku}`, level);
    for (const [key, unit] of this.#units) {
      const available = availableOf(levels.get(key), warehouseOf(unit.warehouse_code));
      if (available < unit.qty) throw new StockRaced(unit.warehouse_code, unit.sku);
    }
  }
}

/**
 * Units an intake routed as in stock were taken by another transaction after it read them: the
 * intake must be rolled back and run again, reading the stock under its rows' locks.
 */
export class StockRaced extends Error {
  constructor(
    readonly warehouse_code: string,
    readonly sku: string,
  ) {
    super(`The stock of ${sku} at ${warehouse_code} was taken meanwhile.`);
  }
}
