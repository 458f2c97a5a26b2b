import { createEngine, type Engine, type Repository } from '@fulfil/core';
import { fixtures, readStoredState } from '@fulfil/core/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer } from '../../src/index.js';
import { type SharedPlace, sharedPlaces } from '../databases/shared-place.js';

/**
 * Channels, a partner and an ERP racing over the same sales orders, over HTTP, against two
 * servers on one database (two engines, each with its own connections, in this one test
 * process: a SQLite file's writers take turns, Postgres' race for real): ship, accept and reject
 * cancellation, hold, release, cancel, accept and allocate in random interleavings. Whatever the
 * interleaving: no request is a 500; no line is both shipped and canceled; stock on hand is what
 * was received less what shipped, and every reservation matches a line that holds one; every
 * timeline entry is one request's, never two for one request, and each line that shipped or was
 * canceled has exactly the one entry that did it.
 */

const { channel: CHANNEL, partner: PARTNER, erp: ERP } = fixtures.SEED_TOKENS;
const RECEIVED = 100_000;
const SKUS = ['SKU-1', 'SKU-2'];

const OPS = [
  'accept',
  'allocate',
  'ship',
  'cancel',
  'cancelLine',
  'acceptCancellation',
  'rejectCancellation',
  'hold',
  'release',
] as const;
type Op = (typeof OPS)[number];

interface Step {
  op: Op;
  order: number;
  handle: number;
  server: number;
}

const step = fc.record({
  op: fc.constantFrom(...OPS),
  order: fc.integer({ min: 0, max: 2 }),
  handle: fc.integer({ min: 0, max: 1 }),
  server: fc.integer({ min: 0, max: 1 }),
});
/**
 * How far each of the three orders is before the race (0: awaiting acceptance, 1: accepted,
 * 2: allocated), and several actors at once, each sending its steps one after the other.
 */
const plan = fc.record({
  stages: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 3, maxLength: 3 }),
  actors: fc.array(fc.array(step, { minLength: 1, maxLength: 6 }), {
    minLength: 2,
    maxLength: 5,
  }),
});

/** The timeline's name of what a step does, when it does something. */
const ACTION_OF: Record<Op, string> = {
  accept: 'accept',
  allocate: 'allocate',
  ship: 'ship',
  cancel: 'cancel',
  cancelLine: 'cancel',
  acceptCancellation: 'accept_cancellation',
  rejectCancellation: 'reject_cancellation',
  hold: 'hold',
  release: 'release',
};

interface Placed {
  salesOrder: string;
  number: string;
  lines: number[];
}

function requestOf(op: Op, placed: Placed, handle: number): [string, string, unknown] {
  const lines = placed.lines.map((item_id) => ({ item_id, qty: 1 }));
  const order_id = placed.number;
  const sales_order_number = placed.salesOrder;
  switch (op) {
    case 'accept':
      return [PARTNER, '/V1/fulfillmentOrder/accept', { order: { order_id, items: lines } }];
    case 'allocate':
      return [ERP, '/V1/fulfillmentOrder/allocate', { allocation: { order_id, items: lines } }];
    case 'ship':
      return [PARTNER, '/V1/fulfillmentOrder/ship', { shipment: { order_id, items: lines } }];
    case 'cancel':
      return [
        CHANNEL,
        '/V1/salesOrder/cancel',
        { cancellation: { sales_order_number, reason: 'customer' } },
      ];
    case 'cancelLine':
      return [
        CHANNEL,
        '/V1/salesOrder/cancel',
        {
          cancellation: {
            sales_order_number,
            reason: 'fraud',
            items: [{ fulfillment_order_number: order_id, item_id: placed.lines[handle] }],
          },
        },
      ];
    case 'acceptCancellation':
      return [PARTNER, '/V1/fulfillmentOrder/acceptCancellation', { cancellation: { order_id } }];
    case 'rejectCancellation':
      return [
        PARTNER,
        '/V1/fulfillmentOrder/rejectCancellation',
        { cancellation: { order_id, message: 'packed' } },
      ];
    case 'hold':
      return [
        CHANNEL,
        '/V1/salesOrder/hold',
        { hold: { sales_order_number, handle: `h${handle}`, reason: 'high_risk_of_fraud' } },
      ];
    case 'release':
      return [
        CHANNEL,
        '/V1/salesOrder/release',
        { release: { sales_order_number, handle: `h${handle}` } },
      ];
  }
}

/** A step of a written plan: on `order`, handle 0, through the first server. */
function at(op: Op, order: number): Step {
  return { op, order, handle: 0, server: order % 2 };
}

for (const { name, make } of sharedPlaces('holds')) {
  describe(`holds and cancellations racing (${name})`, () => {
    let place: SharedPlace;
    const engines: Engine[] = [];
    const servers: { url: string; close(): Promise<void> }[] = [];
    let repository: Repository;
    /** Every fulfillment order of the store, over all runs: what stock is summed over. */
    const every: string[] = [];
    let run = 0;
    /** What the runs came to, over all of them: the outcomes a race must have reached. */
    const reached = new Set<string>();

    beforeAll(async () => {
      place = await make();
      for (let index = 0; index < 2; index++) {
        const opened = await place.open();
        if (index === 0) repository = opened;
        const engine = createEngine({ repository: opened });
        if (index === 0) {
          await engine.loadSeed(
            fixtures.seed({
              settings: { partial_items: true, partial_qty: false, reroute: false },
              stock: SKUS.map((sku) => ({ warehouse_code: 'WH-A', sku, qty: RECEIVED })),
            }),
          );
        }
        engines.push(engine);
        servers.push(await startHttpServer({ engine, port: 0, log: () => {} }));
      }
    });

    afterAll(async () => {
      for (const server of servers) await server.close();
      for (const engine of engines) await engine.close();
      await place?.cleanup();
    });

    it('no line both shipped and canceled; stock = received - shipped; one timeline entry per applied step', async () => {
      await fc.assert(
        fc.asyncProperty(plan, async ({ stages, actors }) => {
          run += 1;
          const engine = engines[0] as Engine;
          const placed: Placed[] = [];
          for (let order = 0; order < 3; order++) {
            const salesOrder = `${run}0${order}`;
            const [created] = await engine.intake(
              'default',
              fixtures.salesOrder(
                salesOrder,
                SKUS.map((sku) => ({ sku, qty: 1 })),
                { warehouse_code: 'WH-A' },
              ),
            );
            if (!created) throw new Error('intake answered nothing');
            placed.push({
              salesOrder,
              number: created.fulfillment_order_number,
              lines: created.items.map((item) => item.id),
            });
            every.push(created.fulfillment_order_number);
          }
          // Before the race, with no request id: not one of the race's steps.
          for (const [index, stage] of stages.entries()) {
            const target = placed[index] as Placed;
            const items = target.lines.map((item_id) => ({ item_id, qty: 1 }));
            const order_id = target.number;
            if (stage >= 1)
              await engine.accept(engine.operator('default'), { order: { order_id, items } });
            if (stage >= 2) {
              await engine.allocate(engine.operator('default'), {
                allocation: { order_id, items },
              });
            }
          }

          /** Request id → the timeline action it may have written, for the 200s. */
          const answered = new Map<string, string>();
          let sent = 0;
          async function send(s: Step): Promise<void> {
            const target = placed[s.order] as Placed;
            const [token, path, body] = requestOf(s.op, target, s.handle);
            sent += 1;
            const id = `r${run}-${sent}`;
            const response = await fetch(`${servers[s.server]?.url}/rest/default${path}`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${token}`,
                'content-type': 'application/json',
                'x-request-id': id,
              },
              body: JSON.stringify(body),
            });
            const text = await response.text();
            // A refusal is a 4xx naming why; never a 500, whatever raced with it.
            expect(response.status, `${s.op} ${text}`).toBeLessThan(500);
            if (response.status === 200) answered.set(id, ACTION_OF[s.op]);
          }
          await Promise.all(
            actors.map(async (steps) => {
              for (const s of steps) await send(s);
            }),
          );

          const state = await readStoredState(repository, 'default', every);
          expect(state.violations).toEqual([]);
          // Stock on hand is what was received less what shipped, over every order of the store.
          for (const sku of SKUS) {
            const shipped = state.orders
              .flatMap((order) => order.items)
              .filter((line) => line.sku === sku)
              .filter((line) => line.status === 'pending_invoice' || line.status === 'invoiced')
              .reduce((sum, line) => sum + line.qty, 0);
            const level = state.stock.find(
              (row) => row.sku === sku && row.warehouse_code === 'WH-A',
            );
            expect(level?.on_hand).toBe(RECEIVED - shipped);
          }

          for (const target of placed) {
            const order = state.orders.find((o) => o.fulfillment_order_number === target.number);
            if (!order) throw new Error(`${target.number} is not stored`);
            const history = await engine.getOrderHistory('default', target.number);
            const entries = history.audit.filter((event) => event.request_id?.startsWith('r'));
            for (const event of entries) {
              reached.add(event.action);
              if (event.details.cancellation_rejected !== undefined)
                reached.add('shipped over a request');
            }
            // Each entry is one answered request's, and no request wrote two.
            const ids = entries.map((event) => event.request_id);
            expect(new Set(ids).size).toBe(ids.length);
            for (const event of entries) {
              expect(answered.get(event.request_id as string), event.action).toBe(event.action);
            }
            const inShipments = new Set(
              order.shipments.flatMap((shipment) => shipment.items.map((entry) => entry.item_id)),
            );
            for (const line of order.items) {
              const shipped = inShipments.has(line.id);
              // Exactly one of shipped or canceled, never both.
              expect(shipped && line.status === 'canceled').toBe(false);
              const shipEntries = entries.filter(
                (event) =>
                  event.action === 'ship' &&
                  (event.details.items as { item_id: number }[]).some((e) => e.item_id === line.id),
              );
              expect(shipEntries).toHaveLength(shipped ? 1 : 0);
              const cancelEntries = entries.filter(
                (event) =>
                  (event.action === 'cancel' || event.action === 'accept_cancellation') &&
                  (event.details.items as number[]).includes(line.id),
              );
              expect(cancelEntries).toHaveLength(line.status === 'canceled' ? 1 : 0);
            }
            // A request still open names lines still in the flow; a held order is in no queue.
            const open = order.cancellation_requests.at(-1);
            if (open?.status === 'open') {
              for (const id of open.item_ids) {
                const line = order.items.find((item) => item.id === id);
                expect(['pending_allocation', 'pending_shipment']).toContain(line?.status);
              }
            }
          }
        }),
        {
          numRuns: 25,
          // One plan that surely reaches every outcome, besides the random ones.
          examples: [
            [
              {
                stages: [2, 1, 0],
                actors: [
                  [at('cancel', 0), at('ship', 0)],
                  [at('allocate', 1), at('cancel', 1), at('acceptCancellation', 1)],
                  [
                    at('hold', 2),
                    at('release', 2),
                    at('accept', 2),
                    at('cancel', 2),
                    at('rejectCancellation', 2),
                  ],
                ],
              },
            ],
          ],
        },
      );
      // The races did reach every outcome, not only refusals.
      expect([...reached].sort()).toEqual(
        [
          'accept',
          'accept_cancellation',
          'allocate',
          'cancel',
          'hold',
          'reject_cancellation',
          'release',
          'ship',
          'shipped over a request',
        ].sort(),
      );
    }, 300_000);
  });
}
