import { routingSnapshot, type StockHolding } from '../domain/routing/build-snapshot.js';
import type { RoutingDecision } from '../domain/routing/explanation.js';
import { localDay } from '../domain/routing/local-day.js';
import { type RoutingSettings, routingSettings } from '../domain/routing/rules.js';
import type { Destination, RoutingLine, RoutingSnapshot } from '../domain/routing/snapshot.js';
import { byPriority, type RoutingContext } from '../domain/routing.js';
import { safetyStockOf } from '../domain/safety-stock.js';
import type { ShippingAddress } from '../domain/sales-order.js';
import type { StockDelta, Store, Warehouse } from '../domain/types.js';
import type { Locate } from '../ports/locate.js';
import type { RepositoryTx } from '../ports/repository.js';
import type { EngineDeps } from './deps.js';
import { locateDestination } from './locate-destination.js';

const stockKey = (warehouse: string, sku: string) => `${warehouse}\u0000${sku}`;

/**
 * What routing reads of a store inside one transaction (docs/routing.md): its settings, every
 * warehouse, the stock of the skus met so far, and what the transaction itself has reserved
 * since. Intake reads it once per transaction, however many orders it routes; reroute and the
 * preview once per call. Every decision is made on `snapshot`, the one builder of them all.
 */
export class RoutingFacts {
  readonly store: Store;
  readonly settings: RoutingSettings;
  /** Every warehouse of the store, by code. */
  readonly warehouses: readonly Warehouse[];
  /** The active ones, highest priority first: what a custom router is given. */
  readonly active: readonly Warehouse[];
  readonly #tx: RepositoryTx;
  readonly #byCode: Map<string, Warehouse>;
  readonly #holdings = new Map<string, StockHolding>();
  readonly #loadedSkus = new Set<string>();
  readonly #routedToday = new Map<string, number>();

  /** Each warehouse with a daily capacity, its local day now. */
  readonly #days = new Map<string, string>();
  /** Fulfillment orders this transaction routed to each warehouse, not yet counted in storage. */
  readonly #pending = new Map<string, number>();

  /** Whether the stock rows read stay locked until the transaction ends (see `read`). */
  readonly #lockStock: boolean;

  private constructor(
    tx: RepositoryTx,
    store: Store,
    warehouses: readonly Warehouse[],
    lockStock: boolean,
  ) {
    this.#tx = tx;
    this.#lockStock = lockStock;
    this.store = store;
    this.settings = routingSettings(store.settings);
    this.warehouses = warehouses;
    this.active = byPriority(warehouses);
    this.#byCode = new Map(warehouses.map((warehouse) => [warehouse.code, warehouse]));
  }

  /**
   * Reads the store's warehouses, and the daily counts of those with a capacity, at `at`. The
   * stock it reads later stays locked until the transaction ends, so that what a decision
   * promises is still there when the transaction reserves it (docs/behaviour.md, Stock); a
   * preview, which reserves nothing, reads without locks (`lockStock: false`).
   */
  static async read(
    tx: RepositoryTx,
    store: Store,
    at: Date,
    options: { lockStock?: boolean } = {},
  ): Promise<RoutingFacts> {
    const facts = new RoutingFacts(
      tx,
      store,
      await tx.listWarehouses(store.id),
      options.lockStock ?? true,
    );
    const limited = facts.warehouses.filter((warehouse) => warehouse.daily_capacity != null);
    const keys = limited.map((warehouse) => ({
      warehouse_code: warehouse.code,
      day: localDay(at, warehouse.timezone),
    }));
    for (const key of keys) facts.#days.set(key.warehouse_code, key.day);
    const routed = await tx.routedOn(store.id, keys);
    for (const [index, key] of keys.entries())
      facts.#routedToday.set(key.warehouse_code, routed[index] ?? 0);
    return facts;
  }

  warehouse(code: string): Warehouse | undefined {
    return this.#byCode.get(code);
  }

  /** Reads (and, but in a preview, locks) the stock of the skus not read yet, all warehouses at once. */
  async loadStock(skus: readonly string[]): Promise<void> {
    // Sorted: every transaction locks the rows of a sku in one order, and cannot deadlock.
    const missing = [...new Set(skus)].filter((sku) => !this.#loadedSkus.has(sku)).sort();
    if (missing.length === 0) return;
    const levels = await this.#tx.listStock({
      store_id: this.store.id,
      warehouses: null,
      skus: missing,
      lock: this.#lockStock,
    });
    for (const level of levels)
      this.#holdings.set(stockKey(level.warehouse_code, level.sku), {
        unreserved: level.on_hand - level.reserved,
        safety_stock: safetyStockOf(level, this.#byCode.get(level.warehouse_code)),
      });
    for (const sku of missing) this.#loadedSkus.add(sku);
  }

  /** The stock of a sku at a warehouse, as this transaction has left it so far. */
  holding(warehouse: Pick<Warehouse, 'code' | 'safety_stock'>, sku: string): StockHolding {
    return (
      this.#holdings.get(stockKey(warehouse.code, sku)) ?? {
        unreserved: 0,
        safety_stock: safetyStockOf(undefined, warehouse),
      }
    );
  }

  /** Counts in stock changes this transaction makes, so later decisions in it see them. */
  apply(deltas: readonly StockDelta[]): void {
    for (const delta of deltas) {
      const warehouse = this.#byCode.get(delta.warehouse_code) ?? {
        code: delta.warehouse_code,
      };
      const before = this.holding(warehouse, delta.sku);
      this.#holdings.set(stockKey(delta.warehouse_code, delta.sku), {
        unreserved: before.unreserved + delta.on_hand - delta.reserved,
        safety_stock: before.safety_stock,
      });
    }
  }

  /** Fulfillment orders routed to the warehouse so far in its current local day. */
  routedToday(warehouse: Warehouse): number {
    return this.#routedToday.get(warehouse.code) ?? 0;
  }

  /**
   * Takes one fulfillment order for each of `codes` into this transaction's own count of the
   * day (what later decisions in it see), to be written by `writeCounts` at its end.
   */
  route(codes: readonly string[]): void {
    for (const code of new Set(codes)) {
      if (!this.#days.has(code)) continue;
      this.#routedToday.set(code, (this.#routedToday.get(code) ?? 0) + 1);
      this.#pending.set(code, (this.#pending.get(code) ?? 0) + 1);
    }
  }

  /**
   * Writes the counts `route` took, one conditional statement per warehouse, in code order (two
   * transactions never wait on each other's counts in a cycle), last thing in the transaction
   * so that a count's row is held only until the commit. With `enforce` (the `capacity` rule
   * blocks), a count that would pass a capacity is refused: the warehouse filled up since the
   * transaction read its count, and its code is returned for the caller to roll back and decide
   * again (the refusal waited for the transaction that filled it: the next read sees it full).
   * Null when every count was written.
   */
  async writeCounts(enforce: boolean): Promise<string | null> {
    const pending = [...this.#pending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.#pending.clear();
    for (const [code, by] of pending) {
      const capacity = this.#byCode.get(code)?.daily_capacity ?? null;
      const after = await this.#tx.countRouted(this.store.id, {
        warehouse_code: code,
        day: this.#days.get(code) as string,
        by,
        limit: enforce ? capacity : null,
      });
      if (after === null) return code;
    }
    return null;
  }

  /**
   * Counts one fulfillment order routed today to each of `codes` that has a daily capacity, one
   * conditional statement each, in code order (so that two transactions never wait on each
   * other's counts in a cycle). With `enforce` (the `capacity` rule blocks), a count that would
   * pass the capacity is refused: the counts made before it are taken back, the warehouse is
   * known full from now on, and its code is returned, for the caller to decide again. Null when
   * every count was made.
   */
  async countRouted(codes: readonly string[], enforce: boolean): Promise<string | null> {
    const counted: string[] = [];
    for (const code of [...new Set(codes)].sort()) {
      const day = this.#days.get(code);
      const capacity = this.#byCode.get(code)?.daily_capacity;
      if (day === undefined || capacity == null) continue;
      const limit = enforce ? capacity : null;
      const after = await this.#tx.countRouted(this.store.id, {
        warehouse_code: code,
        day,
        by: 1,
        limit,
      });
      if (after !== null) {
        this.#routedToday.set(code, after);
        counted.push(code);
        continue;
      }
      // Another transaction took the last slot since this one read the count.
      this.#routedToday.set(code, capacity);
      for (const taken of counted) {
        const back = await this.#tx.countRouted(this.store.id, {
          warehouse_code: taken,
          day: this.#days.get(taken) as string,
          by: -1,
          limit: null,
        });
        this.#routedToday.set(taken, back ?? 0);
      }
      return code;
    }
    return null;
  }

  /** The context a custom router decides on: active warehouses and what each may promise. */
  context(): RoutingContext {
    return {
      warehouses: this.active,
      available: (code, sku) => {
        const { unreserved, safety_stock } = this.holding(this.#byCode.get(code) ?? { code }, sku);
        return unreserved - safety_stock;
      },
    };
  }

  /**
   * Where the address is, as far as the rules need: its country always (the `market` rule), its
   * point from its own coordinates, else, only when the rules sort by `distance`, from `locate`
   * (so a store that never sorts by distance never pays for a lookup).
   */
  async destination(address: ShippingAddress, locate: Locate | null): Promise<Destination> {
    return locateDestination(address, this.settings.routing.includes('distance') ? locate : null);
  }

  snapshot(args: {
    lines: readonly RoutingLine[];
    pinned: string | null;
    destination: Destination;
    short_lines: RoutingSnapshot['short_lines'];
  }): RoutingSnapshot {
    return routingSnapshot({
      ...args,
      warehouses: this.warehouses,
      holding: (warehouse, sku) => this.holding(warehouse, sku),
      routedToday: (warehouse) => this.routedToday(warehouse),
      settings: this.settings,
    });
  }
}

/**
 * Decides on the facts and counts the decision's fulfillment orders against the daily
 * capacities at once (rerouting, inside an action's transaction, which cannot run again); when a warehouse filled up meanwhile (the `capacity` rule refuses the count),
 * decides again with it full, so no warehouse ever takes more than its capacity. A decision
 * that leaves a line of an intake unrouted is not counted: nothing will be opened for it.
 */
export async function decideCounted(
  deps: Pick<EngineDeps, 'decide'>,
  facts: RoutingFacts,
  args: Parameters<RoutingFacts['snapshot']>[0],
  /** Warehouses the caller opened an order at already, which the decision joins, uncounted. */
  open: ReadonlySet<string> = new Set(),
): Promise<RoutingDecision> {
  const enforce = facts.settings.routing.includes('capacity');
  for (;;) {
    const decision = deps.decide(facts.snapshot(args));
    if (decision.lines.some((line) => line.parts.length === 0 && args.short_lines === 'route'))
      return decision;
    const full = await facts.countRouted(
      decision.assignments
        .map((assignment) => assignment.warehouse_code)
        .filter((code) => !open.has(code)),
      enforce,
    );
    if (full === null) return decision;
  }
}
