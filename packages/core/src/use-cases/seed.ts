import { unknownResourceMessage, unknownResources } from '../domain/acl.js';
import { type ErrorDetail, fieldErrors } from '../domain/errors.js';
import type { RepositoryTx } from '../ports/repository.js';
import { type Seed, SeedFile } from '../schemas/operator.js';
import { parseWith } from '../schemas/parse.js';
import type { EngineDeps } from './deps.js';
import { INTAKE_BATCH_SIZE, intakeBatch } from './intake-batch.js';
import { upsertStoreWithin, upsertWarehouseWithin } from './stores.js';
import { issueToken } from './tokens.js';

/** What a seed file named that the database lacked (created) or already had (kept). */
export interface SeedReport {
  /** Store codes; a kept store keeps its settings. */
  stores: { created: string[]; kept: string[] };
  /** Warehouse codes; a kept warehouse keeps its name, state and priority. */
  warehouses: { created: string[]; kept: string[] };
  /** Stock rows: created with the seed's qty, kept as they were, or reset (`resetStock`). */
  stock: { created: number; kept: number; reset: number };
  /** Token names. */
  tokens: { created: string[]; kept: string[] };
  /** Fulfillment orders created; sales order numbers already taken in. */
  orders: { created: string[]; kept: string[] };
}

export interface SeedOptions {
  /**
   * Set the on-hand qty of every stock row the file lists to the file's value, existing rows
   * included (reservations are kept). For demos: it overwrites what partners reported.
   */
  resetStock?: boolean;
}

type SeedStore = Seed['stores'][number];

/** Paths of entries whose key repeats an earlier entry's. */
function repeats<T>(
  entries: readonly T[],
  keyOf: (entry: T) => string,
  path: (index: number) => string,
): ErrorDetail[] {
  const seen = new Set<string>();
  return entries.flatMap((entry, index) => {
    const key = keyOf(entry);
    if (!seen.has(key)) {
      seen.add(key);
      return [];
    }
    return [
      {
        message: '%fieldName repeats %fieldValue.',
        parameters: [{ fieldName: path(index), fieldValue: key }],
      },
    ];
  });
}

/**
 * What a schema cannot check inside one store: the warehouses named by stock, tokens and orders
 * exist, an order is pinned only to an active one, and no token name or sales order number
 * appears twice. Checked before any order is taken in, since orders go in by batches.
 */
function assertConsistent(
  store: SeedStore,
  index: number,
  known: ReadonlySet<string>,
  active: ReadonlySet<string>,
  aclPrefix: string,
): void {
  const base = `stores[${index}]`;
  const problems: ErrorDetail[] = [
    ...repeats(
      store.tokens,
      (token) => token.name,
      (i) => `${base}.tokens[${i}].name`,
    ),
    ...repeats(
      store.orders,
      (order) => order.sales_order_number,
      (i) => `${base}.orders[${i}].sales_order_number`,
    ),
  ];
  const check = (code: string | null | undefined, path: string) => {
    if (code && !known.has(code)) {
      problems.push({
        message: 'Warehouse %fieldValue of %fieldName is not defined.',
        parameters: [{ fieldName: path, fieldValue: code }],
      });
    }
  };
  for (const [i, entry] of store.stock.entries()) {
    check(entry.warehouse_code, `${base}.stock[${i}].warehouse_code`);
  }
  for (const [i, token] of store.tokens.entries()) {
    for (const [j, code] of (token.warehouses ?? []).entries()) {
      check(code, `${base}.tokens[${i}].warehouses[${j}]`);
    }
    for (const { index: j, resource } of unknownResources(token.acl, aclPrefix)) {
      problems.push({
        message: unknownResourceMessage(aclPrefix),
        parameters: [{ fieldName: `${base}.tokens[${i}].acl[${j}]`, fieldValue: resource }],
      });
    }
  }
  for (const [i, order] of store.orders.entries()) {
    const code = order.warehouse_code;
    const path = `${base}.orders[${i}].warehouse_code`;
    check(code, path);
    if (code && known.has(code) && !active.has(code)) {
      problems.push({
        message: 'Warehouse %fieldValue is not an active warehouse of this store.',
        parameters: [{ fieldName: path, fieldValue: code }],
      });
    }
  }
  if (problems.length)
    throw fieldErrors('invalid_seed', (problems[0] as ErrorDetail).message, problems);
}

async function seedStore(
  deps: EngineDeps,
  tx: RepositoryTx,
  seed: SeedStore,
  index: number,
  report: SeedReport,
  options: SeedOptions,
) {
  const existing = await tx.findStore(seed.code);
  const store =
    existing ??
    (await upsertStoreWithin(deps, tx, seed.code, seed.settings, {
      path: `stores[${index}].settings`,
      code: 'invalid_seed',
    }));
  (existing ? report.stores.kept : report.stores.created).push(store.code);
  const present = new Set((await tx.listWarehouses(store.id)).map((warehouse) => warehouse.code));
  for (const warehouse of seed.warehouses) {
    if (present.has(warehouse.code)) {
      report.warehouses.kept.push(warehouse.code);
      continue;
    }
    await upsertWarehouseWithin(tx, store.code, warehouse);
    present.add(warehouse.code);
    report.warehouses.created.push(warehouse.code);
  }
  const active = new Set(
    (await tx.listWarehouses(store.id))
      .filter((warehouse) => warehouse.active)
      .map((warehouse) => warehouse.code),
  );
  assertConsistent(seed, index, present, active, deps.aclPrefix);
  // An override the file gives is set where the file sets the on hand: new rows, or every listed
  // row under resetStock; a kept row keeps its own.
  const overrides = seed.stock.filter((entry) => entry.safety_stock !== undefined);
  const kept = new Set(
    options.resetStock || overrides.length === 0
      ? []
      : (
          await tx.listStock({
            store_id: store.id,
            warehouses: null,
            skus: overrides.map((entry) => entry.sku),
          })
        ).map((level) => `${level.warehouse_code}\u0000${level.sku}`),
  );
  if (options.resetStock) {
    await tx.setOnHand(store.id, seed.stock);
    report.stock.reset += seed.stock.length;
  } else {
    const created = await tx.addMissingStock(store.id, seed.stock);
    report.stock.created += created;
    report.stock.kept += seed.stock.length - created;
  }
  await tx.setSafetyStock(
    store.id,
    overrides
      .filter((entry) => !kept.has(`${entry.warehouse_code}\u0000${entry.sku}`))
      .map((entry) => ({
        warehouse_code: entry.warehouse_code,
        sku: entry.sku,
        safety_stock: entry.safety_stock ?? null,
      })),
  );
  const existingTokens = new Set((await tx.listTokens(store.id)).map((token) => token.name));
  for (const token of seed.tokens) {
    if (existingTokens.has(token.name)) {
      report.tokens.kept.push(token.name);
      continue;
    }
    await issueToken(deps, tx, store, token);
    report.tokens.created.push(token.name);
  }
}

/**
 * Takes in the orders of store `index` of the seed through the batched intake `orders import`
 * uses: a transaction per {@link INTAKE_BATCH_SIZE} orders, so neither the transaction nor what is
 * held in memory grows with the file. Orders the store has are kept. `orders` are the file's own
 * (intake validates them as sent, amounts in API units); the file was validated whole before.
 */
async function seedOrders(
  deps: EngineDeps,
  storeCode: string,
  index: number,
  orders: readonly unknown[],
  report: SeedReport,
): Promise<void> {
  for (let start = 0; start < orders.length; start += INTAKE_BATCH_SIZE) {
    const batch = orders.slice(start, start + INTAKE_BATCH_SIZE);
    const outcomes = await intakeBatch(deps, storeCode, batch, 'seed');
    for (const [position, outcome] of outcomes.entries()) {
      if (outcome.outcome === 'created') {
        report.orders.created.push(
          ...outcome.fulfillment_orders.map((order) => order.fulfillment_order_number),
        );
      } else if (outcome.outcome === 'exists') {
        report.orders.kept.push(outcome.sales_order_number);
      } else {
        const { error } = outcome;
        const field = error.parameters[0]?.fieldName;
        const path = `stores[${index}].orders[${start + position}]${field ? `.${field}` : ''}`;
        throw fieldErrors('invalid_seed', error.message, [
          { message: error.message, parameters: [{ ...error.parameters[0], fieldName: path }] },
        ]);
      }
    }
  }
}

/**
 * Loads a seed file (docs/seed-file.md). The whole file is validated first; stores, warehouses,
 * stock and tokens are loaded in one transaction, then the orders by batches, one transaction
 * each, as `orders import` takes them in. Every error names the path of the bad field; an order
 * that cannot be routed stops the load after its batch, the orders taken in so far staying in
 * (loading the file again adds the rest). Over an existing database it adds what is missing (stores,
 * warehouses, stock rows, tokens, sales orders) and changes nothing that exists (docs/behaviour.md):
 * settings, warehouses, stock partners reported and orders in flight stay as they are. Only
 * `resetStock` sets the listed stock rows' on hand again.
 */
export async function loadSeed(
  deps: EngineDeps,
  document: unknown,
  options: SeedOptions = {},
): Promise<SeedReport> {
  const seed = parseWith(SeedFile, document, 'invalid_seed');
  const report = await deps.repository.transaction(async (tx) => {
    const report: SeedReport = {
      stores: { created: [], kept: [] },
      warehouses: { created: [], kept: [] },
      stock: { created: 0, kept: 0, reset: 0 },
      tokens: { created: [], kept: [] },
      orders: { created: [], kept: [] },
    };
    for (const [index, store] of seed.stores.entries())
      await seedStore(deps, tx, store, index, report, options);
    return report;
  });
  const sent = document as { stores: { orders?: unknown[] }[] };
  for (const [index, store] of seed.stores.entries()) {
    await seedOrders(deps, store.code, index, sent.stores[index]?.orders ?? [], report);
  }
  return report;
}
