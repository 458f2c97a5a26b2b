import { PAGE_SIZE } from '../domain/paging.js';
import type { StockItemResource, WarehouseResource } from '../domain/resources.js';
import { type StockView, withSafetyStock } from '../domain/safety-stock.js';
import { assertStockUnchanged, assertValidStockBatch } from '../domain/stock-batch.js';
import type { Actor, Warehouse } from '../domain/types.js';
import { assertWellFormed, parseWith } from '../schemas/parse.js';
import { PollParams, StockItemsRequest } from '../schemas/requests.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import { releaseRoutable } from './short-stock.js';
import { authorize, type Principal } from './tokens.js';

/** GET /V1/warehouses: the store's warehouses (a scoped token: its own), by code, 100 a page. */
export async function listWarehouses(
  deps: EngineDeps,
  actor: Principal,
  query: unknown = {},
): Promise<WarehouseResource[]> {
  authorize(deps, actor, 'warehouses');
  const { page } = parseWith(PollParams, query);
  const warehouses = await deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, actor.store_code);
    return tx.listWarehouses(store.id, actor.warehouses);
  }, 'read');
  return warehouses
    .slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)
    .map(({ name, code, active }: Warehouse) => ({ name, code, active }));
}

/**
 * POST /V1/stockItems: sets absolute on-hand quantities, all or nothing (docs/behaviour.md).
 * Reservations are untouched, so a sync racing an accept loses neither. Entries with
 * `change_from` are compared under their rows' locks first: a sync computed before a ship that
 * committed meanwhile is refused (409) instead of putting the shipped units back. Each set is
 * in the stock history with the on hand it replaced.
 */
export async function syncStock(
  deps: EngineDeps,
  actor: Principal,
  body: unknown,
): Promise<StockItemResource[]> {
  authorize(deps, actor, 'stock_items');
  const batch = parseWith(StockItemsRequest, body, 'invalid_stock_batch');
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, actor.store_code);
    const visible = await tx.listWarehouses(store.id, actor.warehouses);
    assertValidStockBatch(batch, new Set(visible.map((warehouse) => warehouse.code)));
    // Where writers run side by side, every row is locked, guarded or not, so that the history's
    // before figures are exact; where this transaction excludes them (SQLite), no row can change
    // meanwhile, and only the guarded ones are read, to be compared.
    const locked = await tx.lockStock(
      store.id,
      tx.writersExcluded
        ? batch.stock_items.filter((entry) => entry.change_from !== undefined)
        : batch.stock_items,
    );
    assertStockUnchanged(batch, locked);
    // The history first: its statement reads the on hand each set replaces.
    await tx.recordStockSets(store.id, batch.stock_items, {
      actor: actor.name,
      source: 'stock_items',
      request_id: actor.request_id ?? null,
      created_at: now(deps),
    });
    await tx.setOnHand(store.id, batch.stock_items);
    await releaseRoutable(
      deps,
      tx,
      store,
      batch.stock_items.map((item) => item.sku),
      now(deps),
    );
    return batch.stock_items.map(({ warehouse_code, sku, qty }) => ({ warehouse_code, sku, qty }));
  });
}

/** Stock rows with reservations, for operators. */
export async function listStock(
  deps: EngineDeps,
  actor: Actor,
  filter: { sku?: string } = {},
): Promise<StockView[]> {
  assertWellFormed(filter);
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, actor.store_code);
    const rows = await tx.listStock({
      store_id: store.id,
      warehouses: actor.warehouses,
      ...filter,
    });
    const warehouses = new Map(
      (await tx.listWarehouses(store.id)).map((warehouse) => [warehouse.code, warehouse]),
    );
    return rows.map((row) => withSafetyStock(row, warehouses.get(row.warehouse_code)));
  }, 'read');
}
