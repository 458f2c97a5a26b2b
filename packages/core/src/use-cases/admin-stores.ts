import * as v from 'valibot';
import { attentionHours } from '../domain/attention.js';
import { fieldError, fieldErrors } from '../domain/errors.js';
import { operatorSees } from '../domain/operator.js';
import { quarantinedBy, quarantineKey } from '../domain/returns/quarantined.js';
import { type RoutingSettings, routingSettings } from '../domain/routing/rules.js';
import { type StockView, withSafetyStock } from '../domain/safety-stock.js';
import { stockChanged } from '../domain/stock-batch.js';
import type {
  AttentionQueueName,
  StockLevel,
  Store,
  StoreSettings,
  Warehouse,
} from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { ReasonInput, SetOnHandInput, StockSearchInput } from '../schemas/admin.js';
import { code } from '../schemas/fields.js';
import { parseWith } from '../schemas/parse.js';
import { readStore, requireRole, storeAuditEvent } from './admin-access.js';
import { decodeCursor, encodeCursor } from './admin-cursor.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';
import { releaseRoutable } from './short-stock.js';
import { upsertStoreWithin, upsertWarehouseWithin } from './stores.js';

/** Stores, warehouses and stock through the admin API (docs/admin-api.md). */

export interface StoreView {
  store_code: string;
  /**
   * As in effect: no currency is null, every queue's attention threshold is there, and so are
   * the routing settings.
   */
  settings: StoreSettings & {
    currency: string | null;
    attention_after_hours: Record<AttentionQueueName, number | null>;
  } & RoutingSettings;
}

const viewOf = (store: Store): StoreView => ({
  store_code: store.code,
  settings: {
    ...store.settings,
    currency: store.settings.currency ?? null,
    attention_after_hours: attentionHours(store.settings),
    ...routingSettings(store.settings),
  },
});

export async function listStoresFor(deps: EngineDeps, operator: OperatorPrincipal) {
  requireRole(operator, 'viewer');
  return deps.repository.transaction(
    async (tx) => ({
      stores: (await tx.listStores())
        .filter((store) => operatorSees(operator, store.code))
        .map(viewOf),
    }),
    'read',
  );
}

export async function storeFor(deps: EngineDeps, operator: OperatorPrincipal, storeCode: string) {
  requireRole(operator, 'viewer', storeCode);
  return deps.repository.transaction(
    async (tx) => viewOf(await requireStore(tx, storeCode)),
    'read',
  );
}

const SettingsPatch = v.object({ settings: v.record(v.string(), v.unknown()) });

/** Creates the store or patches its settings; recorded in the store's audit. */
export async function putStore(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  body: unknown,
): Promise<StoreView> {
  requireRole(operator, 'admin', storeCode);
  const { settings } = parseWith(SettingsPatch, body);
  return deps.repository.transaction(async (tx) => {
    const store = await upsertStoreWithin(deps, tx, storeCode, settings);
    await tx.appendStoreAudit([
      storeAuditEvent(operator, store.id, now(deps), 'store_settings', {
        settings: store.settings,
      }),
    ]);
    return viewOf(store);
  });
}

/** A warehouse as the admin API shows it: every attribute, the ones it lacks as null. */
const warehouseView = ({ store_id: _store, ...warehouse }: Warehouse) => ({
  ...warehouse,
  // Routing (docs/routing.md).
  latitude: warehouse.latitude ?? null,
  longitude: warehouse.longitude ?? null,
  countries: warehouse.countries ?? null,
  daily_capacity: warehouse.daily_capacity ?? null,
  safety_stock: warehouse.safety_stock ?? 0,
  // Its calendar (docs/deadlines.md); null: the store's.
  processing_days: warehouse.processing_days ?? null,
  working_days: warehouse.working_days ?? null,
  holidays: warehouse.holidays ?? null,
  cutoff: warehouse.cutoff ?? null,
  timezone: warehouse.timezone ?? null,
});

export async function warehousesFor(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
) {
  return readStore(deps, operator, storeCode, async (tx, store) => ({
    warehouses: (await tx.listWarehouses(store.id)).map(warehouseView),
  }));
}

export async function putWarehouse(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  warehouseCode: string,
  body: unknown,
) {
  requireRole(operator, 'admin', storeCode);
  const spec = parseWith(v.record(v.string(), v.unknown()), body ?? {});
  return deps.repository.transaction(async (tx) => {
    const warehouse = await upsertWarehouseWithin(tx, storeCode, { ...spec, code: warehouseCode });
    await tx.appendStoreAudit([
      storeAuditEvent(
        operator,
        warehouse.store_id,
        now(deps),
        'warehouse',
        warehouseView(warehouse),
      ),
    ]);
    return warehouseView(warehouse);
  });
}

export interface StockRow extends StockView {
  /** Returned goods counted apart from on hand (docs/admin-api.md): never available. */
  quarantined: number;
}

const stockRow = (
  level: StockLevel,
  warehouses: ReadonlyMap<string, Warehouse>,
  quarantined: ReadonlyMap<string, number> = new Map(),
): StockRow => ({
  ...withSafetyStock(level, warehouses.get(level.warehouse_code)),
  quarantined: quarantined.get(quarantineKey(level)) ?? 0,
});

/** The store's warehouses of these codes, by code: their safety stock is the default. */
async function warehousesByCode(
  tx: RepositoryTx,
  storeId: number,
  codes: readonly string[],
): Promise<Map<string, Warehouse>> {
  const warehouses = await tx.listWarehouses(storeId, [...new Set(codes)]);
  return new Map(warehouses.map((warehouse) => [warehouse.code, warehouse]));
}

/** The quarantined counts of these warehouses, by `quarantineKey`. */
async function quarantineOf(
  tx: RepositoryTx,
  storeId: number,
  warehouses: readonly string[],
): Promise<Map<string, number>> {
  const rows = await tx.listQuarantine(storeId, [...new Set(warehouses)]);
  return new Map(rows.map((row) => [quarantineKey(row), row.qty]));
}

const StockCursor = v.tuple([code, code]);

function decodeStockCursor(after: string | undefined) {
  if (after === undefined) return undefined;
  const [warehouse_code, sku] = decodeCursor(StockCursor, after);
  return { warehouse_code, sku };
}

export async function stockFor(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  query: unknown,
): Promise<{ items: StockRow[]; next: string | null }> {
  requireRole(operator, 'viewer', storeCode);
  const input = parseWith(StockSearchInput, query);
  const after = decodeStockCursor(input.after);
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const rows = await tx.listStockPage({
      store_id: store.id,
      limit: input.limit + 1,
      ...(input.warehouse === undefined ? {} : { warehouse: input.warehouse }),
      ...(input.sku === undefined ? {} : { sku_prefix: input.sku }),
      ...(after === undefined ? {} : { after }),
    });
    const more = rows.length > input.limit;
    const shown = more ? rows.slice(0, input.limit) : rows;
    const last = shown[shown.length - 1];
    const quarantined = await quarantineOf(
      tx,
      store.id,
      shown.map((row) => row.warehouse_code),
    );
    const warehouses = await warehousesByCode(
      tx,
      store.id,
      shown.map((row) => row.warehouse_code),
    );
    return {
      items: shown.map((row) => stockRow(row, warehouses, quarantined)),
      next: more && last ? encodeCursor([last.warehouse_code, last.sku]) : null,
    };
  }, 'read');
}

const StockKey = v.object({ warehouse: code, sku: code });

/** Sets the on-hand quantity of one (warehouse, sku); reserved stays; recorded in the store's audit. */
export async function setOnHand(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  warehouseCode: string,
  sku: string,
  body: unknown,
): Promise<StockRow> {
  requireRole(operator, 'operator', storeCode);
  const key = parseWith(StockKey, { warehouse: warehouseCode, sku });
  const { on_hand, change_from, safety_stock } = parseWith(SetOnHandInput, body);
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const warehouses = await warehousesByCode(tx, store.id, [key.warehouse]);
    if (warehouses.size === 0) {
      throw fieldError(
        'not_found',
        'Warehouse %fieldValue does not exist.',
        'warehouse',
        key.warehouse,
      );
    }
    const stockKey = { warehouse_code: key.warehouse, sku: key.sku };
    // Locked whether guarded or not: the history's before figure is then exact.
    const [before] = await tx.lockStock(store.id, [stockKey]);
    const current = before?.on_hand ?? 0;
    if (change_from !== undefined && current !== change_from) {
      const problem = stockChanged('change_from', change_from, current);
      throw fieldErrors('stock_changed', problem.message, [problem]);
    }
    const audit = [];
    if (on_hand !== undefined) {
      const entry = {
        ...stockKey,
        qty: on_hand,
        ...(change_from === undefined ? {} : { change_from }),
      };
      // The history first: its statement reads the on hand the set replaces.
      await tx.recordStockSets(store.id, [entry], {
        actor: operator.name,
        source: 'admin',
        request_id: operator.request_id,
        created_at: now(deps),
      });
      await tx.setOnHand(store.id, [entry]);
      audit.push(
        storeAuditEvent(operator, store.id, now(deps), 'set_on_hand', {
          warehouse_code: key.warehouse,
          sku: key.sku,
          on_hand,
          before: before?.on_hand ?? null,
        }),
      );
    }
    if (safety_stock !== undefined) {
      await tx.setSafetyStock(store.id, [{ ...stockKey, safety_stock }]);
      audit.push(
        storeAuditEvent(operator, store.id, now(deps), 'set_safety_stock', {
          warehouse_code: key.warehouse,
          sku: key.sku,
          safety_stock,
          before: before?.safety_stock ?? null,
        }),
      );
    }
    await tx.appendStoreAudit(audit);
    await releaseRoutable(deps, tx, store, [key.sku], now(deps));
    const [after] = await tx.listStock({
      store_id: store.id,
      warehouses: [key.warehouse],
      skus: [key.sku],
    });
    return stockRow(
      after ?? { ...stockKey, on_hand: 0, reserved: 0 },
      warehouses,
      await quarantineOf(tx, store.id, [key.warehouse]),
    );
  });
}

/** A stock row whose `reserved` differs from what its open lines hold. */
export interface ReservationMismatch {
  warehouse_code: string;
  sku: string;
  reserved: number;
  expected: number;
}

async function mismatchesIn(tx: RepositoryTx, storeId: number): Promise<ReservationMismatch[]> {
  const held = new Map(
    (await tx.heldStock(storeId)).map((row) => [`${row.warehouse_code}\u0000${row.sku}`, row.qty]),
  );
  const mismatches: ReservationMismatch[] = [];
  for (const level of await tx.listStock({ store_id: storeId, warehouses: null })) {
    const key = `${level.warehouse_code}\u0000${level.sku}`;
    const expected = held.get(key) ?? 0;
    held.delete(key);
    if (level.reserved !== expected) {
      mismatches.push({
        warehouse_code: level.warehouse_code,
        sku: level.sku,
        reserved: level.reserved,
        expected,
      });
    }
  }
  // Lines holding stock of a row that does not exist at all.
  for (const [key, expected] of held) {
    const [warehouse_code, sku] = key.split('\u0000') as [string, string];
    mismatches.push({ warehouse_code, sku, reserved: 0, expected });
  }
  return mismatches;
}

/** A quarantined count that differs from what the returns' receipts quarantined. */
export interface QuarantineMismatch {
  warehouse_code: string;
  sku: string;
  quarantined: number;
  expected: number;
}

async function quarantineMismatchesIn(
  tx: RepositoryTx,
  storeId: number,
): Promise<QuarantineMismatch[]> {
  const expected = quarantinedBy(await tx.listStoreReturns(storeId));
  const counted = new Map(
    (await tx.listQuarantine(storeId)).map((row) => [quarantineKey(row), row.qty]),
  );
  const keys = [...new Set([...expected.keys(), ...counted.keys()])].sort();
  return keys.flatMap((key) => {
    const quarantined = counted.get(key) ?? 0;
    const wanted = expected.get(key) ?? 0;
    if (quarantined === wanted) return [];
    const [warehouse_code, sku] = key.split('\u0000') as [string, string];
    return [{ warehouse_code, sku, quarantined, expected: wanted }];
  });
}

/**
 * Reserved stock against the open lines that hold it, per warehouse and sku; and the goods
 * returns hold in quarantine against what their receipts quarantined.
 */
export async function checkReservations(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
) {
  return readStore(deps, operator, storeCode, async (tx, store) => ({
    mismatches: await mismatchesIn(tx, store.id),
    quarantine: await quarantineMismatchesIn(tx, store.id),
  }));
}

/**
 * Sets every mismatched `reserved` to what the open lines hold, and every quarantined count to
 * what the returns' receipts quarantined, in one audited transaction.
 */
export async function fixReservations(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  body: unknown,
) {
  requireRole(operator, 'operator', storeCode);
  const { reason = null } = parseWith(ReasonInput, body ?? {});
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const fixed = await mismatchesIn(tx, store.id);
    await tx.setReserved(
      store.id,
      fixed.map(({ warehouse_code, sku, expected }) => ({
        warehouse_code,
        sku,
        reserved: expected,
      })),
    );
    const quarantine_fixed = await quarantineMismatchesIn(tx, store.id);
    await tx.setQuarantine(
      store.id,
      quarantine_fixed.map(({ warehouse_code, sku, expected }) => ({
        warehouse_code,
        sku,
        qty: expected,
      })),
    );
    if (fixed.length || quarantine_fixed.length) {
      await tx.appendStoreAudit([
        storeAuditEvent(
          operator,
          store.id,
          now(deps),
          'fix_reservations',
          { fixed, quarantine_fixed },
          reason,
        ),
      ]);
    }
    return { fixed, quarantine_fixed };
  });
}
