import {
  createEngine,
  type Engine,
  isDomainError,
  type OperatorPrincipal,
  type ReturnResource,
} from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SharedPlace, sharedPlaces } from '../databases/shared-place.js';

/**
 * Random returns, receipts (retried, duplicated, racing) and credits over many shipped orders,
 * sent through two engines on one database at once (a SQLite file's writers take turns,
 * Postgres' race for real). Afterwards, for every warehouse and sku, on hand is the initial
 * stock less what shipped plus what receipts restocked; no line is returned beyond what shipped;
 * every credit is its units at their price plus its shipping refund, and the refunds of a sales
 * order never pass its shipping; every line's counts are exactly the sum of its receipts (none
 * applied twice); the quarantine counts agree with the receipts.
 */

const WAREHOUSES = ['WH-A', 'WH-B'] as const;
const SKUS = ['SKU-1', 'SKU-2'] as const;
const INITIAL = 1000;
const ORDERS = 5;

/** Each sales order's lines (sku, qty) and the warehouse it ships from. */
const orderPlan = fc.array(
  fc.record({
    warehouse: fc.constantFrom(...WAREHOUSES),
    lines: fc.uniqueArray(
      fc.record({ sku: fc.constantFrom(...SKUS), qty: fc.integer({ min: 1, max: 3 }) }),
      { minLength: 1, maxLength: 2, selector: (line) => line.sku },
    ),
  }),
  { minLength: ORDERS, maxLength: ORDERS },
);

const openStep = fc.record({
  kind: fc.constant('open' as const),
  rma: fc.integer({ min: 0, max: 5 }),
  order: fc.integer({ min: 0, max: ORDERS - 1 }),
  line: fc.integer({ min: 0, max: 1 }),
  qty: fc.integer({ min: 1, max: 3 }),
  to: fc.option(fc.constantFrom(...WAREHOUSES), { nil: undefined }),
});

const step = fc.oneof(
  { arbitrary: openStep, weight: 1 },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('receive' as const),
      rma: fc.integer({ min: 0, max: 5 }),
      receipt: fc.integer({ min: 0, max: 3 }),
      restocked: fc.integer({ min: 0, max: 1 }),
      quarantined: fc.integer({ min: 0, max: 1 }),
      disposed: fc.integer({ min: 0, max: 1 }),
      missing: fc.integer({ min: 0, max: 1 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('credit' as const),
      rma: fc.integer({ min: 0, max: 5 }),
      note: fc.integer({ min: 0, max: 2 }),
      refund: fc.constantFrom(0, 1, 2.5, 5),
    }),
  },
);

/** A step as sent: through which engine, and whether also through the other at once. */
function sent<T>(arbitrary: fc.Arbitrary<T>) {
  return fc.record({
    step: arbitrary,
    twice: fc.boolean(),
    engine: fc.integer({ min: 0, max: 1 }),
  });
}

/** Rounds of steps; the steps of a round are sent at once, some of them twice. */
const plan = fc.record({
  orders: orderPlan,
  /** Returns opened first, so that most later steps have one to act on. */
  opens: fc.array(sent(openStep), { minLength: 2, maxLength: 6 }),
  rounds: fc.array(fc.array(sent(step), { minLength: 1, maxLength: 6 }), {
    minLength: 3,
    maxLength: 8,
  }),
});

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

const ADMIN: OperatorPrincipal = {
  name: 'check',
  role: 'admin',
  store_code: null,
  request_id: null,
};

for (const { name, make } of sharedPlaces('returns')) {
  describe(`returns under random retries and races (${name})`, () => {
    let place: SharedPlace;
    const engines: Engine[] = [];
    let run = 0;
    /** What the runs applied, to know the property was not vacuous. */
    const applied = { open: 0, receive: 0, credit: 0, refused: 0 };

    beforeAll(async () => {
      place = await make();
      for (let index = 0; index < 2; index++) {
        engines.push(createEngine({ repository: await place.open() }));
      }
    });

    afterAll(async () => {
      for (const engine of engines) await engine.close();
      await place?.cleanup();
    });

    it('stock, returned quantities, credits and receipts stay true', async () => {
      await fc.assert(
        fc.asyncProperty(plan, async ({ orders, opens, rounds }) => {
          run += 1;
          const store = `rt${run}`;
          const first = engines[0] as Engine;
          await first.loadSeed({
            stores: [
              {
                code: store,
                settings: { partial_items: false, partial_qty: false, reroute: false },
                warehouses: WAREHOUSES.map((code) => ({ code, name: code })),
                stock: WAREHOUSES.flatMap((warehouse_code) =>
                  SKUS.map((sku) => ({ warehouse_code, sku, qty: INITIAL })),
                ),
              },
            ],
          });
          const op = first.operator(store);
          // Every sales order shipped whole from its warehouse.
          const shipped: { number: string; so: string; items: { id: number; sku: string }[] }[] =
            [];
          for (const [index, order] of orders.entries()) {
            const so = `${run}00${index}`;
            const [fo] = await first.intake(
              store,
              fixtures.salesOrder(so, order.lines, { warehouse_code: order.warehouse }),
            );
            const order_id = fo?.fulfillment_order_number as string;
            const items = fo?.items ?? [];
            await first.accept(op, {
              order: { order_id, items: items.map((i) => ({ item_id: i.id, qty: i.qty })) },
            });
            await first.allocate(op, {
              allocation: { order_id, items: items.map((i) => ({ item_id: i.id })) },
            });
            await first.ship(op, {
              shipment: { order_id, items: items.map((i) => ({ item_id: i.id, qty: i.qty })) },
            });
            shipped.push({
              number: order_id,
              so,
              items: items.map((i) => ({ id: i.id, sku: i.sku })),
            });
          }

          /** Which sales order each rma number was first asked for: its other steps follow it. */
          const orderOfRma = new Map<number, number>();
          const send = async (engine: Engine, s: Step) => {
            const principal = engine.operator(store);
            if (s.kind === 'open') {
              const order = shipped[orderOfRma.get(s.rma) ?? s.order] as (typeof shipped)[number];
              orderOfRma.set(s.rma, shipped.indexOf(order));
              const item = order.items[s.line % order.items.length] as { id: number };
              return engine.createReturn(principal, {
                return: {
                  rma_number: `RMA-${s.rma}`,
                  sales_order_number: order.so,
                  ...(s.to ? { warehouse_code: s.to } : {}),
                  items: [
                    {
                      fulfillment_order_number: order.number,
                      item_id: item.id,
                      qty: s.qty,
                      reason: 'other',
                    },
                  ],
                },
              });
            }
            const found = await engine.admin
              .getReturn(ADMIN, store, `RMA-${s.rma}`)
              .catch(() => undefined);
            const lineId = found?.items[0]?.item_id ?? 1;
            if (s.kind === 'receive') {
              return engine.receiveReturn(principal, {
                receipt: {
                  rma_number: `RMA-${s.rma}`,
                  receipt_number: `RCV-${s.receipt}`,
                  items: [
                    {
                      item_id: lineId,
                      qty_restocked: s.restocked,
                      qty_quarantined: s.quarantined,
                      qty_disposed: s.disposed,
                      qty_missing: s.missing,
                    },
                  ],
                },
              });
            }
            return engine.creditReturn(principal, {
              credit: {
                rma_number: `RMA-${s.rma}`,
                credit_note_number: `CN-${s.note}`,
                items: [{ item_id: lineId }],
                shipping_refund_incl_tax: s.refund,
              },
            });
          };
          for (const round of [opens, ...rounds]) {
            await Promise.all(
              round.flatMap(({ step: s, twice, engine }) => {
                const sends = [send(engines[engine] as Engine, s)];
                if (twice) sends.push(send(engines[1 - engine] as Engine, s));
                // Refusals of the rules are answers; anything else fails the run.
                return sends.map((sent) =>
                  sent.then(
                    () => {
                      applied[s.kind] += 1;
                    },
                    (error: unknown) => {
                      if (!isDomainError(error) || error.code === 'unavailable') throw error;
                      applied.refused += 1;
                    },
                  ),
                );
              }),
            );
          }

          const returns: ReturnResource[] = await first.admin.returns(ADMIN, store, {});
          // Every line's counts are its receipts' sums: no receipt applied twice.
          for (const entry of returns) {
            const numbers = entry.receipts.map((r) => r.receipt_number);
            expect(new Set(numbers).size).toBe(numbers.length);
            for (const line of entry.items) {
              const sum = (
                field: 'qty_restocked' | 'qty_quarantined' | 'qty_disposed' | 'qty_missing',
              ) =>
                entry.receipts
                  .flatMap((r) => r.items)
                  .filter((i) => i.item_id === line.item_id)
                  .reduce((total, i) => total + i[field], 0);
              expect(line.qty_restocked).toBe(sum('qty_restocked'));
              expect(line.qty_quarantined).toBe(sum('qty_quarantined'));
              expect(line.qty_disposed).toBe(sum('qty_disposed'));
              expect(line.qty_missing).toBe(sum('qty_missing'));
              expect(
                line.qty_restocked + line.qty_quarantined + line.qty_disposed + line.qty_missing,
              ).toBeLessThanOrEqual(line.qty);
              // Credited: what the credits paid for, never more than received.
              const credited = entry.credits
                .flatMap((c) => c.items)
                .filter((i) => i.item_id === line.item_id)
                .reduce((total, i) => total + i.qty, 0);
              expect(line.qty_credited).toBe(credited);
              expect(credited).toBeLessThanOrEqual(
                line.qty_restocked + line.qty_quarantined + line.qty_disposed,
              );
            }
            // Every credit is its units at their unit price plus its shipping refund.
            const price = new Map(entry.items.map((line) => [line.item_id, line.price]));
            for (const credit of entry.credits) {
              const units = credit.items.reduce(
                (total, i) => total + i.qty * (price.get(i.item_id) ?? 0),
                0,
              );
              expect(credit.amount_incl_tax).toBeCloseTo(
                units + credit.shipping_refund_incl_tax,
                4,
              );
            }
          }
          // No line returned beyond what shipped (each line shipped whole: its ordered qty).
          const lineQty = new Map(
            orders.flatMap((order, index) =>
              order.lines.map((line, at) => [shipped[index]?.items[at]?.id as number, line.qty]),
            ),
          );
          const returned = new Map<number, number>();
          for (const entry of returns.filter((r) => r.status !== 'canceled')) {
            for (const line of entry.items) {
              returned.set(line.item_id, (returned.get(line.item_id) ?? 0) + line.qty);
            }
          }
          for (const [item, qty] of returned) {
            expect(qty).toBeLessThanOrEqual(lineQty.get(item) as number);
          }
          // Shipping refunds of a sales order never pass its shipping (5 each).
          const refunds = new Map<string, number>();
          for (const entry of returns) {
            for (const credit of entry.credits) {
              refunds.set(
                entry.sales_order_number,
                (refunds.get(entry.sales_order_number) ?? 0) + credit.shipping_refund_incl_tax,
              );
            }
          }
          for (const total of refunds.values()) expect(total).toBeLessThanOrEqual(5);
          // On hand = initial - shipped + restocked, per warehouse and sku.
          const expected = new Map<string, number>();
          const add = (warehouse: string, sku: string, qty: number) =>
            expected.set(
              `${warehouse}/${sku}`,
              (expected.get(`${warehouse}/${sku}`) ?? INITIAL) + qty,
            );
          for (const order of orders) {
            for (const line of order.lines) add(order.warehouse, line.sku, -line.qty);
          }
          for (const entry of returns) {
            for (const line of entry.items) add(entry.warehouse_code, line.sku, line.qty_restocked);
          }
          const stock = await first.listStock(store);
          for (const row of stock) {
            expect({ at: `${row.warehouse_code}/${row.sku}`, on_hand: row.on_hand }).toEqual({
              at: `${row.warehouse_code}/${row.sku}`,
              on_hand: expected.get(`${row.warehouse_code}/${row.sku}`) ?? INITIAL,
            });
            expect(row.reserved).toBe(0);
          }
          // The reservation check, which knows returns, finds nothing to fix.
          expect(await first.admin.checkReservations(ADMIN, store)).toEqual({
            mismatches: [],
            quarantine: [],
          });
        }),
        { numRuns: 25 },
      );
      console.log(`returns property (${place.name}): ${JSON.stringify(applied)}`);
      // Answers (200 and 201, repeats included) of each kind, beside the refusals.
      expect(applied.open).toBeGreaterThan(25);
      expect(applied.receive).toBeGreaterThan(15);
      expect(applied.credit).toBeGreaterThan(2);
    }, 300_000);
  });
}
