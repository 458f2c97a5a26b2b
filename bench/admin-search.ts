/**
 * The admin API's reads at scale (docs/admin-api.md): the order search, one row per filter
 * combination the console offers, and the dashboard, each as the engine answers them (page,
 * capped count, presentation) against the floor: the very same SQL statements (same plans) run
 * bare on the same connection, in turns with ours. Figures are p95 over the requests; the issue's
 * targets are p95 ≤ 100 ms (search) and ≤ 50 ms (dashboard) with 1M orders stored.
 */
import {
  COUNT_CAP,
  createEngine,
  type Engine,
  type OperatorPrincipal,
  type OrderFilter,
} from '@fulfil/core';
import {
  type KyselyRepository,
  oldestQuery,
  orderCountQuery,
  orderSearchQuery,
  planFilter,
  queueDepthQuery,
  storeHealthQuery,
} from '@fulfil/storage-kysely';
import type { BenchDatabase } from './databases.js';
import { fillStore, STORE } from './fill-store.js';
import { runSql } from './raw-sqlite.js';
import { addRow, ratioOf } from './summary.js';

export const OPERATOR: OperatorPrincipal = {
  name: 'bench',
  role: 'viewer',
  store_code: null,
  request_id: null,
};

/** Per filter: the console's query string. Names and e-mails are varied after the fill. */
function filters(orders: number): [string, OrderFilter][] {
  const so = String(700_000_000 + Math.floor(orders / 2));
  return [
    ['no filter', {}],
    ['q = sales order number', { q: so }],
    ['q = last-name prefix', { q: 'name123' }],
    ['q = e-mail prefix', { q: 'c1234@' }],
    ['status = pending_accept', { status: 'pending_accept' }],
    ['status = invoiced', { status: 'invoiced' }],
    ['queue = pending_accept', { queue: 'pending_accept' }],
    ['warehouse = WH-A', { warehouse: 'WH-A' }],
    ['sku = SKU-2', { sku: 'SKU-2' }],
    [
      'created in one day',
      { created_from: '2026-01-01 00:00:00', created_to: '2026-01-02 00:00:00' },
    ],
    ['status + warehouse', { status: 'pending_accept', warehouse: 'WH-A' }],
    ['queue + sku', { queue: 'pending_accept', sku: 'SKU-1' }],
    ['q prefix + status', { q: 'name12', status: 'invoiced' }],
  ];
}

export function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] as number;
}

export const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

/** Times `ours` and `floor` in turns, `requests` each after a few of warm-up; p95 of each. */
async function race(
  ours: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  requests: number,
): Promise<{ ours: number; floor: number }> {
  const samples = { ours: [] as number[], floor: [] as number[] };
  for (let i = 0; i < requests + 3; i++) {
    const sides = i % 2 === 0 ? (['ours', 'floor'] as const) : (['floor', 'ours'] as const);
    for (const side of sides) {
      const started = performance.now();
      await (side === 'ours' ? ours() : floor());
      if (i >= 3) samples[side].push(performance.now() - started);
    }
  }
  return { ours: p95(samples.ours), floor: p95(samples.floor) };
}

/** Varied customers: 5,000 last names, 20,000 e-mails, spread over the ids. */
async function varyCustomers(repository: KyselyRepository): Promise<void> {
  const raw = repository as unknown as Parameters<typeof runSql>[0];
  // In a transaction of the repository's own, which declares its writer generation as it begins:
  // the guarded tables refuse a write from a connection that declares none (Postgres).
  await repository.db.transaction().execute((transaction) =>
    runSql(
      { db: transaction } as unknown as Parameters<typeof runSql>[0],
      `update fulfillment_orders set
        customer_lastname = 'Name' || cast(id % 5000 as text),
        customer_email = 'c' || cast(id % 20000 as text) || '@example.com'`,
    ),
  );
  // Fresh statistics, as a database that grew to this size over time has.
  await runSql(raw, 'analyze');
}

/** Fills `database` with `orders` orders (all but a thousand invoiced) for the admin scenarios. */
export async function fillForAdmin(database: BenchDatabase, orders: number): Promise<void> {
  const pending = Math.min(1_000, Math.floor(orders / 10));
  const started = performance.now();
  await fillStore(database, { invoiced: orders - pending, pending });
  const repository = (await database.open()) as KyselyRepository;
  try {
    await varyCustomers(repository);
  } finally {
    await repository.close();
  }
  process.stderr.write(
    `  ${database.label}: ${orders} orders stored in ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
}

async function withEngine<T>(
  database: BenchDatabase,
  work: (engine: Engine, repository: KyselyRepository) => Promise<T>,
) {
  const repository = (await database.open()) as KyselyRepository;
  const engine = createEngine({ repository });
  try {
    return await work(engine, repository);
  } finally {
    await engine.close();
  }
}

type Compiled = Parameters<KyselyRepository['db']['executeQuery']>[0];

/** One statement bare: no transaction around it (the engine's reads have one). */
function run(repository: KyselyRepository, compiled: Compiled) {
  return repository.db.executeQuery(compiled);
}

export async function benchAdminSearch(
  database: BenchDatabase,
  orders: number,
  quick: boolean,
): Promise<void> {
  const requests = quick ? 5 : 100;
  await withEngine(database, async (engine, repository) => {
    const storeId = (await engine.getStore(STORE)).id;
    for (const [label, filter] of filters(orders)) {
      // The same plan as ours: the floor is the statements, not the choice between them.
      const plan = await planFilter(repository.db, storeId, filter);
      const page = orderSearchQuery(
        repository.db,
        { ...filter, store_id: storeId, limit: 51 },
        plan,
      ).compile();
      const count = orderCountQuery(repository.db, storeId, filter, COUNT_CAP + 1, plan).compile();
      const query = Object.fromEntries(Object.entries(filter)) as Record<string, string>;
      let found = 0;
      const result = await race(
        async () => {
          found = (await engine.admin.searchOrders(OPERATOR, STORE, query)).orders.length;
        },
        async () => {
          await run(repository, page);
          await run(repository, count);
        },
        requests,
      );
      console.log(
        `admin search [${label}] (${found} on the page): p95 fulfil ${ms(result.ours)} ms, floor ${ms(result.floor)} ms`,
      );
      addRow({
        scenario: `admin search p95, ${label}, ${orders} orders, ${database.label}`,
        fulfil: `${ms(result.ours)} ms`,
        floor: `${ms(result.floor)} ms`,
        ratio: ratioOf(result.ours, result.floor),
        target: '≤ 100 ms',
      });
    }
  });
}

export async function benchAdminDashboard(
  database: BenchDatabase,
  orders: number,
  quick: boolean,
): Promise<void> {
  const requests = quick ? 5 : 100;
  await withEngine(database, async (engine, repository) => {
    const storeId = (await engine.getStore(STORE)).id;
    // The floor: the statements the dashboard runs for the store, compiled once, run bare.
    const { db } = repository;
    const depths = queueDepthQuery(db, storeId).compile();
    const groups = await run(repository, depths);
    const ids = (groups.rows as { oldest_id: number }[]).map((row) => Number(row.oldest_id));
    const oldest = oldestQuery(db, ids.length ? ids : [0]).compile();
    const health = storeHealthQuery(storeId).compile(db);
    const stores = db.selectFrom('stores').selectAll().orderBy('code').compile();
    const result = await race(
      () => engine.admin.dashboard(OPERATOR),
      async () => {
        for (const statement of [stores, depths, oldest, health]) await run(repository, statement);
      },
      requests,
    );
    console.log(`admin dashboard: p95 fulfil ${ms(result.ours)} ms, floor ${ms(result.floor)} ms`);
    addRow({
      scenario: `admin dashboard p95, ${orders} orders, ${database.label}`,
      fulfil: `${ms(result.ours)} ms`,
      floor: `${ms(result.floor)} ms`,
      ratio: ratioOf(result.ours, result.floor),
      target: '≤ 50 ms',
    });
  });
}
