import { type ErrorDetail, fieldErrors, isDomainError } from '../domain/errors.js';
import type { RepositoryTx } from '../ports/repository.js';
import { type Seed, SeedFile } from '../schemas/operator.js';
import { parseWith } from '../schemas/parse.js';
import type { EngineDeps } from './deps.js';
import { openIntakeSession } from './intake.js';
import { upsertStoreWithin, upsertWarehouseWithin } from './stores.js';
import { issueToken } from './tokens.js';

export interface SeedReport {
  stores: number;
  warehouses: number;
  stock: number;
  tokens: { created: string[]; kept: string[] };
  orders: { created: string[]; kept: string[] };
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
 * exist, and no token name or sales order number appears twice.
 */
function assertConsistent(store: SeedStore, index: number, known: ReadonlySet<string>): void {
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
  }
  for (const [i, order] of store.orders.entries()) {
    check(order.warehouse_code, `${base}.orders[${i}].warehouse_code`);
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
) {
  const store = await upsertStoreWithin(tx, seed.code, seed.settings);
  for (const warehouse of seed.warehouses) await upsertWarehouseWithin(tx, store.code, warehouse);
  const known = new Set((await tx.listWarehouses(store.id)).map((warehouse) => warehouse.code));
  assertConsistent(seed, index, known);
  await tx.setOnHand(store.id, seed.stock);
  const existingTokens = new Set((await tx.listTokens(store.id)).map((token) => token.name));
  for (const token of seed.tokens) {
    if (existingTokens.has(token.name)) {
      report.tokens.kept.push(token.name);
      continue;
    }
    await issueToken(deps, tx, store, token);
    report.tokens.created.push(token.name);
  }
  const session = await openIntakeSession(deps, tx, store.code, 'seed');
  const takenIn = new Set(
    await tx.knownSalesOrders(
      store.id,
      seed.orders.map((order) => order.sales_order_number),
    ),
  );
  for (const [i, order] of seed.orders.entries()) {
    if (takenIn.has(order.sales_order_number)) {
      report.orders.kept.push(order.sales_order_number);
      continue;
    }
    try {
      await session.claim(await session.plan(order));
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const field = error.parameters[0]?.fieldName;
      const path = `stores[${index}].orders[${i}]${field ? `.${field}` : ''}`;
      throw fieldErrors('invalid_seed', error.message, [
        { message: error.message, parameters: [{ ...error.parameters[0], fieldName: path }] },
      ]);
    }
  }
  for (const created of await session.flush()) {
    report.orders.created.push(
      ...created.map((fulfillment) => fulfillment.fulfillment_order_number),
    );
  }
  report.stores += 1;
  report.warehouses += seed.warehouses.length;
  report.stock += seed.stock.length;
}

/**
 * Loads a seed file (DECISIONS §9) in one transaction: all of it or nothing. Every error names
 * the path of the bad field. Loading the same file again changes nothing: existing tokens
 * and sales orders are kept, settings, warehouses and stock are set again.
 */
export async function loadSeed(deps: EngineDeps, document: unknown): Promise<SeedReport> {
  const seed = parseWith(SeedFile, document, 'invalid_seed');
  return deps.repository.transaction(async (tx) => {
    const report: SeedReport = {
      stores: 0,
      warehouses: 0,
      stock: 0,
      tokens: { created: [], kept: [] },
      orders: { created: [], kept: [] },
    };
    for (const [index, store] of seed.stores.entries())
      await seedStore(deps, tx, store, index, report);
    return report;
  });
}
