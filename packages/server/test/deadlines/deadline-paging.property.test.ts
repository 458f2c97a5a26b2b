import { type Engine, isDomainError, type QueueName } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';

/**
 * Paging a queue by deadline (`sort=fulfill_by`, `after` the last id, docs/deadlines.md) while
 * orders are taken in, accepted, allocated and shipped between and during its pages: every order
 * in the queue for the whole pass is seen exactly once, none twice, and the pass runs from the
 * earliest deadline to the latest. Deadlines repeat, so ties are broken by id across pages.
 */

const STORE = 'default';
const QUEUE: QueueName = 'pending_shipment';
const PAGE_SIZE = 100;
const MOST_STEPS = 50;
/** Few distinct deadlines: many ties, some on page boundaries. */
const DEADLINES = [
  '2026-05-04 10:00:00',
  '2026-05-02 08:30:00',
  '2026-05-03 17:00:00',
  '2026-05-01 12:00:00',
];

type ActionKind = 'ship' | 'intake' | 'ready';
interface Action {
  kind: ActionKind;
  pick: number;
}
interface Listed {
  id: number;
  number: string;
  fulfill_by: string;
}

async function page(engine: Engine, after: number | null): Promise<Listed[]> {
  const { documents } = await engine.pollPage(engine.operator(STORE), QUEUE, {
    sort: 'fulfill_by',
    include: 'fulfill_by',
    ...(after === null ? {} : { after: String(after) }),
  });
  return documents.map((document) => {
    const order = JSON.parse(document) as {
      id: number;
      fulfillment_order_number: string;
      fulfill_by: string;
    };
    return { id: order.id, number: order.fulfillment_order_number, fulfill_by: order.fulfill_by };
  });
}

async function whole(engine: Engine): Promise<Listed[]> {
  const all: Listed[] = [];
  for (let after: number | null = null; ; ) {
    const next = await page(engine, after);
    all.push(...next);
    const last = next.at(-1);
    if (!last || next.length < PAGE_SIZE) return all;
    after = last.id;
  }
}

let sequence = 0;

/** Takes in orders with the deadlines given, and moves them to pending_shipment. */
async function takeIn(engine: Engine, deadlines: readonly string[]): Promise<void> {
  const orders = deadlines.map((deadline) =>
    fixtures.salesOrder(`8${String(++sequence).padStart(8, '0')}`, [{ sku: 'SKU-1', qty: 1 }], {
      warehouse_code: 'WH-A',
      fulfill_by: `${deadline.replace(' ', 'T')}Z`,
    }),
  );
  await engine.intakeBatch(STORE, orders);
  for (const order of orders) await ready(engine, `${order.sales_order_number}-1`);
}

async function ready(engine: Engine, number: string): Promise<void> {
  const operator = engine.operator(STORE);
  const order = await engine.getOrder(STORE, number);
  const items = order.items.map((item) => ({ item_id: item.id, qty: item.qty }));
  await engine.accept(operator, { order: { order_id: number, items } });
  await engine.allocate(operator, { allocation: { order_id: number, items } });
}

async function ship(engine: Engine, number: string): Promise<void> {
  try {
    const order = await engine.getOrder(STORE, number);
    const items = order.items.map((item) => ({ item_id: item.id, qty: item.qty }));
    await engine.ship(engine.operator(STORE), { shipment: { order_id: number, items } });
  } catch (error) {
    if (!isDomainError(error)) throw error;
  }
}

const key = (order: Listed) => `${order.fulfill_by} ${String(order.id).padStart(12, '0')}`;

for (const kind of databaseKinds()) {
  describe(`${kind.name}: paging by deadline under concurrent intake and ship`, () => {
    it('sees every order that stays in the queue exactly once, earliest deadline first', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...DEADLINES), { minLength: 110, maxLength: 230 }),
          fc.array(
            fc.array(
              fc.record({
                kind: fc.constantFrom<ActionKind>('ship', 'intake', 'ready'),
                pick: fc.nat(),
              }),
              { maxLength: 10 },
            ),
            { minLength: 1, maxLength: 6 },
          ),
          async (deadlines, steps) => {
            const database = await kind.open();
            const { engine } = database;
            try {
              await engine.loadSeed({
                stores: [
                  {
                    code: STORE,
                    settings: { partial_items: false, partial_qty: false, reroute: false },
                    warehouses: [{ code: 'WH-A', name: 'A' }],
                    stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1_000_000 }],
                  },
                ],
              });
              await takeIn(engine, deadlines);
              const before = await whole(engine);
              const shipped = new Set<string>();
              const seen: Listed[] = [];
              let after: number | null = null;
              for (let step = 0, done = false; !done; step++) {
                expect(step, 'a pass that never ends').toBeLessThan(MOST_STEPS);
                const actions: Action[] = steps[step % steps.length] ?? [];
                const work = actions.map(({ kind: action, pick }) => {
                  if (action === 'intake')
                    return takeIn(engine, [DEADLINES[pick % DEADLINES.length] as string]);
                  const target = before[pick % before.length];
                  if (target === undefined || action === 'ready') return Promise.resolve();
                  shipped.add(target.number);
                  return ship(engine, target.number);
                });
                const turn = (async () => {
                  const listed = await page(engine, after);
                  seen.push(...listed);
                  const last = listed.at(-1);
                  if (last && listed.length === PAGE_SIZE) after = last.id;
                  else done = true;
                })();
                await Promise.all([...work, turn]);
              }
              const keys = seen.map(key);
              // Strictly rising: never twice, and by deadline then id across every page.
              expect(keys).toEqual([...new Set(keys)].sort());
              const ids = new Set(seen.map((order) => order.id));
              const missed = before.filter(
                (order) => !shipped.has(order.number) && !ids.has(order.id),
              );
              expect(missed).toEqual([]);
              expect(seen.every((order) => DEADLINES.includes(order.fulfill_by))).toBe(true);
            } finally {
              await database.drop();
            }
          },
        ),
        { numRuns: 3, endOnFailure: true },
      );
    }, 180_000);
  });
}
