/**
 * Deadlines at scale (docs/deadlines.md): the admin search sorted by `fulfill_by` and filtered
 * by deadline status, as the engine answers them, against the floor (the same statements bare,
 * in turns with ours), with N orders stored. The deadlines are spread over a year by one
 * set-based update after the fill, as many orders taken in over time would have them. Figures
 * are p95 over the requests; the target is p95 ≤ 100 ms with 1M orders on both
 * databases.
 */
import {
  COUNT_CAP,
  createEngine,
  deadlineClockOf,
  type OrderFilter,
  type OrderSearch,
} from '@fulfil/core';
import {
  type KyselyRepository,
  orderCountQuery,
  orderSearchQuery,
  planFilter,
} from '@fulfil/storage-kysely';
import { fillForAdmin, ms, OPERATOR, p95 } from './admin-search.js';
import type { BenchDatabase } from './databases.js';
import { STORE } from './fill-store.js';
import { runSql } from './raw-sqlite.js';
import { addRow, ratioOf } from './summary.js';

/** The moment the searches are read at: some deadlines before it, some after. */
const NOW = '2026-07-01 12:00:00';

/** Per scenario: the console's query and the search the engine makes of it. */
function searches(): [
  string,
  Record<string, string>,
  Omit<OrderFilter, 'q'> & Partial<OrderSearch>,
][] {
  const clock = deadlineClockOf({}, NOW);
  const deadline = (status: 'overdue' | 'at_risk' | 'on_track' | 'met' | 'missed') => ({
    deadline: status,
    deadline_clock: clock,
  });
  return [
    ['sorted by deadline', { sort: 'fulfill_by' }, { sort: 'fulfill_by' }],
    ['overdue', { deadline: 'overdue' }, deadline('overdue')],
    [
      'overdue, sorted by deadline',
      { deadline: 'overdue', sort: 'fulfill_by' },
      { ...deadline('overdue'), sort: 'fulfill_by' },
    ],
    ['at risk', { deadline: 'at_risk' }, deadline('at_risk')],
    ['on track', { deadline: 'on_track' }, deadline('on_track')],
    ['met', { deadline: 'met' }, deadline('met')],
    ['missed', { deadline: 'missed' }, deadline('missed')],
    [
      'overdue at WH-A',
      { deadline: 'overdue', warehouse: 'WH-A' },
      { ...deadline('overdue'), warehouse: 'WH-A' },
    ],
  ];
}

/**
 * Deadlines over the first half of 2026 by id (`2026-MM-DD HH:00:00`), the queue entries' copy
 * in step, then fresh statistics. Shipped orders shipped at their creation: some met, some
 * missed.
 */
async function spreadDeadlines(
  repository: KyselyRepository,
  kind: BenchDatabase['kind'],
): Promise<void> {
  const raw = repository as unknown as Parameters<typeof runSql>[0];
  const two = (expression: string) =>
    `(case when ${expression} < 10 then '0' else '' end || cast(${expression} as text))`;
  await repository.db.transaction().execute(async (transaction) => {
    const db = { db: transaction } as unknown as Parameters<typeof runSql>[0];
    await runSql(
      db,
      `update fulfillment_orders set fulfill_by = '2026-' || ${two('1 + id % 12')} || '-' ||
        ${two('1 + id % 28')} || ' ' || ${two('id % 24')} || ':00:00'`,
    );
    await runSql(
      db,
      `update queue_entries set fulfill_by = (select o.fulfill_by from fulfillment_orders o
        where o.id = queue_entries.order_id)`,
    );
  });
  // Postgres: vacuumed too, as autovacuum leaves a table some time after a mass update; right
  // after it no page is all-visible, and the planner prices every index-only scan as a heap read.
  await runSql(raw, kind === 'postgres' ? 'vacuum analyze' : 'analyze');
}

export async function benchDeadlines(
  database: BenchDatabase,
  orders: number,
  quick: boolean,
): Promise<void> {
  await fillForAdmin(database, orders);
  const requests = quick ? 5 : 100;
  const repository = (await database.open()) as KyselyRepository;
  await spreadDeadlines(repository, database.kind);
  const engine = createEngine({
    repository,
    clock: { now: () => new Date(`${NOW.replace(' ', 'T')}Z`) },
  });
  try {
    const storeId = (await engine.getStore(STORE)).id;
    for (const [label, query, search] of searches()) {
      const filter = { ...search } as OrderFilter & Partial<OrderSearch>;
      const plan = await planFilter(repository.db, storeId, filter);
      const page = orderSearchQuery(
        repository.db,
        { ...filter, store_id: storeId, limit: 51 },
        plan,
      ).compile();
      const { sort: _sort, ...counted } = filter;
      const count = orderCountQuery(repository.db, storeId, counted, COUNT_CAP + 1, plan).compile();
      const samples = { ours: [] as number[], floor: [] as number[] };
      let found = 0;
      for (let i = 0; i < requests + 3; i++) {
        for (const side of i % 2 === 0 ? ['ours', 'floor'] : ['floor', 'ours']) {
          const started = performance.now();
          if (side === 'ours') {
            found = (await engine.admin.searchOrders(OPERATOR, STORE, query)).orders.length;
          } else {
            await repository.db.executeQuery(page);
            await repository.db.executeQuery(count);
          }
          if (i >= 3) samples[side as 'ours' | 'floor'].push(performance.now() - started);
        }
      }
      const ours = p95(samples.ours);
      const floor = p95(samples.floor);
      console.log(
        `deadlines search [${label}] (${found} on the page): p95 fulfil ${ms(ours)} ms, floor ${ms(floor)} ms`,
      );
      addRow({
        scenario: `admin search p95, ${label}, ${orders} orders, ${database.label}`,
        fulfil: `${ms(ours)} ms`,
        floor: `${ms(floor)} ms`,
        ratio: ratioOf(ours, floor),
        target: '≤ 100 ms',
      });
    }
  } finally {
    await engine.close();
  }
}
