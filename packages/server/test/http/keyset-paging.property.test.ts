import { type Engine, isDomainError, type QueueName } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';

/**
 * Keyset paging (`after`, docs/polling.md) under concurrent writes: while one pass pages through
 * a queue, accepts, allocations, ships, cancels and intakes run between and during its pages.
 * Every order that is in the queue for the whole pass is seen exactly once; no order twice.
 */

const QUEUES: readonly QueueName[] = ['pending_accept', 'pending_shipment'];
const STORE = 'default';
/** The contract's page size: a shorter page ends a pass, as it ends a partner's. */
const PAGE_SIZE = 100;
/** Far more steps than a pass needs: reaching it means a pass that never ends. */
const MOST_STEPS = 50;

type ActionKind = 'accept' | 'allocate' | 'ship' | 'cancel' | 'intake';
interface Action {
  kind: ActionKind;
  pick: number;
}

interface Listed {
  id: number;
  number: string;
}

async function page(engine: Engine, queue: QueueName, after: number): Promise<Listed[]> {
  const { documents } = await engine.pollPage(engine.operator(STORE), queue, {
    after: String(after),
  });
  return documents.map((document) => {
    const order = JSON.parse(document) as { id: number; fulfillment_order_number: string };
    return { id: order.id, number: order.fulfillment_order_number };
  });
}

/** The whole queue, page after page, while nothing else runs. */
async function whole(engine: Engine, queue: QueueName): Promise<Listed[]> {
  const all: Listed[] = [];
  for (let after = 0; ; ) {
    const next = await page(engine, queue, after);
    all.push(...next);
    const last = next.at(-1);
    if (!last) return all;
    after = last.id;
  }
}

let sequence = 0;
const nextNumber = () => `7${String(++sequence).padStart(8, '0')}`;

async function takeIn(engine: Engine, count: number): Promise<void> {
  const orders = Array.from({ length: count }, () =>
    fixtures.salesOrder(nextNumber(), [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'WH-A' }),
  );
  await engine.intakeBatch(STORE, orders);
}

/** Moves the order one step along, as the partner or ERP would; a refusal is part of the game. */
async function act(engine: Engine, kind: ActionKind, number: string | undefined): Promise<void> {
  const operator = engine.operator(STORE);
  try {
    if (kind === 'intake') return await takeIn(engine, 1);
    if (number === undefined) return;
    if (kind === 'cancel') {
      await engine.cancelOrder(STORE, number);
      return;
    }
    const order = await engine.getOrder(STORE, number);
    const items = order.items
      .filter((item) => item.status !== 'rejected' && item.status !== 'canceled')
      .map((item) => ({ item_id: item.id, qty: item.qty }));
    if (kind === 'accept') await engine.accept(operator, { order: { order_id: number, items } });
    if (kind === 'allocate') {
      await engine.allocate(operator, { allocation: { order_id: number, items } });
    }
    if (kind === 'ship') await engine.ship(operator, { shipment: { order_id: number, items } });
  } catch (error) {
    if (!isDomainError(error)) throw error;
  }
}

const actionArbitrary: fc.Arbitrary<Action> = fc.record({
  kind: fc.constantFrom<ActionKind>('accept', 'allocate', 'ship', 'cancel', 'intake'),
  pick: fc.nat(),
});

for (const kind of databaseKinds()) {
  describe(`${kind.name}: keyset paging under concurrent writes`, () => {
    it('sees every order that stays in the queue exactly once', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 110, max: 220 }),
          fc.integer({ min: 0, max: 120 }),
          fc.array(fc.array(actionArbitrary, { maxLength: 12 }), { minLength: 1, maxLength: 8 }),
          async (orders, shipped, steps) => {
            const database = await kind.open();
            const { engine } = database;
            try {
              await engine.loadSeed({
                stores: [
                  {
                    code: STORE,
                    settings: { partial_items: false, partial_qty: false, reroute: false },
                    warehouses: [{ code: 'WH-A', name: 'A', fulfilled_by: 'partner', priority: 1 }],
                    stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1_000_000 }],
                  },
                ],
              });
              await takeIn(engine, orders);
              // Some orders start in pending_shipment, so that both queues have pages to turn.
              for (const { number } of (await whole(engine, 'pending_accept')).slice(0, shipped)) {
                await act(engine, 'accept', number);
                await act(engine, 'allocate', number);
              }
              const before = new Map(
                await Promise.all(QUEUES.map(async (q) => [q, await whole(engine, q)] as const)),
              );
              const candidates = [...before.values()].flat();
              const touched = new Set<string>();
              const seen = new Map<QueueName, number[]>(QUEUES.map((q) => [q, []]));
              const after = new Map<QueueName, number | null>(QUEUES.map((q) => [q, 0]));

              // A pass ends on a short page, not an empty one: intakes landing at the tail of
              // pending_accept as fast as a page reads them would otherwise keep it going forever.
              for (let step = 0; [...after.values()].some((a) => a !== null); step++) {
                expect(step, 'a pass that never ends').toBeLessThan(MOST_STEPS);
                const actions = steps[step % steps.length] ?? [];
                const work = actions.map(({ kind: actionKind, pick }) => {
                  const target = candidates[pick % candidates.length];
                  if (target && actionKind !== 'intake') touched.add(target.number);
                  return act(engine, actionKind, target?.number);
                });
                const pages = QUEUES.map(async (queue) => {
                  const from = after.get(queue);
                  if (from === null || from === undefined) return;
                  const listed = await page(engine, queue, from);
                  // Each page starts after the last one: a pass always ends.
                  expect(listed.filter((order) => order.id <= from)).toEqual([]);
                  seen.get(queue)?.push(...listed.map((order) => order.id));
                  const last = listed.at(-1);
                  after.set(queue, last && listed.length === PAGE_SIZE ? last.id : null);
                });
                await Promise.all([...work, ...pages]);
              }

              for (const queue of QUEUES) {
                const ids = seen.get(queue) ?? [];
                // Never twice, and in id order.
                expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
                const end = new Set((await whole(engine, queue)).map((order) => order.id));
                const stayed = (before.get(queue) ?? []).filter(
                  (order) => end.has(order.id) && !touched.has(order.number),
                );
                const missed = stayed.filter((order) => !ids.includes(order.id));
                expect(missed).toEqual([]);
              }
            } finally {
              await database.drop();
            }
          },
        ),
        { numRuns: 3, endOnFailure: true },
      );
    }, 120_000);
  });
}
