import { createEngine, DEADLINE_STATUSES, type Engine, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/http/metrics.js';
import { databaseKinds, type TestDatabase } from '../databases/open.js';
import { sample } from '../http/support.js';

/**
 * One deadline status, read five ways (docs/deadlines.md): the badge of each order in the admin
 * list, the admin search's `deadline` filter, the dashboard's counts, the metric
 * `fulfil_orders_by_deadline` — and a count written here in plain SQL. As a test clock moves
 * past the deadlines, all five agree for every warehouse and status, on both databases.
 */

const STORE = 'default';
const OPERATOR = { name: 'olga', role: 'admin' as const, store_code: null, request_id: null };

type Counts = Record<string, number>;
const keyOf = (warehouse: string, status: string) => `${warehouse} ${status}`;
const tally = (entries: [string, string, number][]) => {
  const counts: Counts = {};
  for (const [warehouse, status, n] of entries) {
    if (n > 0) counts[keyOf(warehouse, status)] = (counts[keyOf(warehouse, status)] ?? 0) + n;
  }
  return counts;
};

async function advance(engine: Engine, number: string, stage: 'allocate' | 'ship') {
  const operator = engine.operator(STORE);
  const order = await engine.getOrder(STORE, number);
  const items = order.items.map((item) => ({ item_id: item.id, qty: item.qty }));
  await engine.accept(operator, { order: { order_id: number, items } });
  await engine.allocate(operator, { allocation: { order_id: number, items } });
  if (stage === 'ship') await engine.ship(operator, { shipment: { order_id: number, items } });
}

for (const kind of databaseKinds()) {
  describe(`deadline status on ${kind.name}`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    it('the badge, the filter, the dashboard, the metric and SQL agree as the clock moves', async () => {
      database = await kind.open();
      const clock = new ManualClock('2026-05-01T08:00:00Z');
      const engine = createEngine({ repository: database.repository, clock });
      await engine.loadSeed({
        stores: [
          {
            code: STORE,
            settings: { at_risk_hours: 4 },
            warehouses: [
              { code: 'WH-MILAN', name: 'Milan' },
              { code: 'WH-ROME', name: 'Rome' },
            ],
            stock: [
              { warehouse_code: 'WH-MILAN', sku: 'SKU-1', qty: 100 },
              { warehouse_code: 'WH-ROME', sku: 'SKU-1', qty: 100 },
            ],
          },
        ],
      });
      const orders: [string, string, string][] = [
        ['1', 'WH-MILAN', '2026-05-01T11:00:00Z'],
        ['2', 'WH-MILAN', '2026-05-01T12:00:00Z'],
        ['3', 'WH-MILAN', '2026-05-01T15:00:00Z'],
        ['4', 'WH-MILAN', '2026-05-01T20:00:00Z'],
        ['5', 'WH-MILAN', '2026-05-02T10:00:00Z'],
        ['6', 'WH-ROME', '2026-05-01T12:00:00Z'],
        ['7', 'WH-ROME', '2026-05-01T18:00:00Z'],
        ['8', 'WH-ROME', '2026-05-01T09:00:00Z'],
      ];
      for (const [number, warehouse, fulfillBy] of orders) {
        await engine.intake(
          STORE,
          fixtures.salesOrder(`50${number}`, [{ sku: 'SKU-1', qty: 1 }], {
            warehouse_code: warehouse,
            fulfill_by: fulfillBy,
          }),
        );
      }
      // One without a deadline of its own: the default calendar's (17:00 UTC the same day).
      await engine.intake(
        STORE,
        fixtures.salesOrder('509', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-ROME' }),
      );
      await engine.cancelOrder(STORE, '508-1');
      await advance(engine, '504-1', 'allocate');
      const metrics = createMetrics();

      const check = async (at: string) => {
        const now = at.replace('T', ' ').replace('Z', '');
        const list = await engine.admin.searchOrders(OPERATOR, STORE, { limit: '200' });
        const badges = tally(
          list.orders
            .filter((order) => order.deadline_status !== null)
            .map((order) => [order.warehouse_code, order.deadline_status as string, 1]),
        );
        const filtered: [string, string, number][] = [];
        for (const warehouse of ['WH-MILAN', 'WH-ROME']) {
          for (const status of DEADLINE_STATUSES) {
            const found = await engine.admin.searchOrders(OPERATOR, STORE, {
              deadline: status,
              warehouse,
            });
            expect(found.orders.every((order) => order.deadline_status === status)).toBe(true);
            filtered.push([warehouse, status, found.total.count]);
          }
        }
        const { stores } = await engine.admin.dashboard(OPERATOR);
        const dashboard = tally(
          (stores[0]?.deadlines ?? []).flatMap(({ warehouse_code, counts }) =>
            Object.entries(counts).map(([status, n]): [string, string, number] => [
              warehouse_code,
              status,
              n,
            ]),
          ),
        );
        const text = metrics.render([], undefined, [], [], await engine.deadlineMetrics());
        const metric = tally(
          ['WH-MILAN', 'WH-ROME'].flatMap((warehouse) =>
            DEADLINE_STATUSES.map((status): [string, string, number] => [
              warehouse,
              status,
              sample(
                text,
                `fulfil_orders_by_deadline{store="${STORE}",warehouse="${warehouse}",status="${status}"}`,
              ) ?? 0,
            ]),
          ),
        );
        // Written here from the rule, not from the code under test.
        const { rows } = await sql<{ warehouse_code: string; status: string; n: number }>`
          select warehouse_code, status, count(*) as n from (
            select warehouse_code, case
              when status in ('pending_invoice', 'partially_invoiced', 'invoiced')
                then case when shipped_at <= fulfill_by then 'met' else 'missed' end
              when fulfill_by < ${now} then 'overdue'
              when fulfill_by < ${addHours(now, 4)} then 'at_risk'
              else 'on_track' end as status
            from fulfillment_orders
            where status not in ('canceled', 'rejected')
          ) as counted group by warehouse_code, status`.execute(
          ((database as TestDatabase).repository as unknown as { db: Kysely<unknown> }).db,
        );
        const counted = tally(rows.map((row) => [row.warehouse_code, row.status, Number(row.n)]));
        expect(badges, `badges at ${at}`).toEqual(counted);
        expect(tally(filtered), `filter at ${at}`).toEqual(counted);
        expect(dashboard, `dashboard at ${at}`).toEqual(counted);
        expect(metric, `metric at ${at}`).toEqual(counted);
        return counted;
      };

      const moments: [string, () => Promise<void>][] = [
        ['2026-05-01T08:00:00Z', async () => {}],
        ['2026-05-01T10:30:00Z', () => advance(engine, '502-1', 'ship')],
        ['2026-05-01T11:30:00Z', async () => {}],
        ['2026-05-01T13:00:00Z', () => advance(engine, '506-1', 'ship')],
        ['2026-05-01T16:00:00Z', async () => {}],
        ['2026-05-01T21:00:00Z', async () => {}],
        ['2026-05-02T12:00:00Z', async () => {}],
      ];
      const seen: Counts[] = [];
      for (const [at, act] of moments) {
        clock.set(at);
        await act();
        seen.push(await check(at));
      }
      // At 08:00, at risk until 12:00: only 11:00 is due before; 12:00 is exactly 4 hours away.
      expect(seen[0]).toEqual({
        'WH-MILAN at_risk': 1,
        'WH-MILAN on_track': 4,
        'WH-ROME on_track': 3,
      });
      expect(seen.at(-1)).toEqual({
        'WH-MILAN met': 1,
        'WH-MILAN overdue': 4,
        'WH-ROME missed': 1,
        'WH-ROME overdue': 2,
      });
      // The shipments of the last 30 days, a range of the index of the shipped orders: Milan's
      // one left on time, Rome's late.
      const text = metrics.render([], undefined, [], [], await engine.deadlineMetrics());
      expect(sample(text, 'fulfil_late_shipments_ratio{warehouse="WH-MILAN"}')).toBe(0);
      expect(sample(text, 'fulfil_late_shipments_ratio{warehouse="WH-ROME"}')).toBe(1);
    });
  });
}

function addHours(timestamp: string, hours: number): string {
  const at = Date.parse(`${timestamp.replace(' ', 'T')}Z`) + hours * 3_600_000;
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}
