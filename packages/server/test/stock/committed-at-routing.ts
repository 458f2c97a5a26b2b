import { isDomainError, type OrderResource } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useServerPair } from '../scale-out/server-pair.js';
import { call, type Reply, type ServerProcess, type TestDatabase } from '../scale-out/support.js';

/**
 * Stock committed when routed (docs/behaviour.md, Stock), under the races of two `fulfil serve`
 * processes over one database: rounds of N concurrent intakes of one sku against K units spread
 * over three warehouses (K < N), mixed with partner accepts and rejects (rejected lines are
 * rerouted), cancels and guarded stock syncs. After each round, no warehouse was routed more
 * units in stock (as the routing decisions explain them) than it ever had, every warehouse's reserved is
 * the qty of the live unshipped lines there, and no sync was lost: a sync whose `change_from` was
 * stale is refused (409), and the syncs applied chain exactly in the stock history.
 * `FULFIL_LONG=1` runs 100 rounds; the normal run a few.
 */

export const PARTNER = 'commit-partner-secret-0123456789abcdef01';
export const CHANNEL = 'commit-channel-secret-0123456789abcdef01';
const WAREHOUSES = ['WH-1', 'WH-2', 'WH-3'] as const;
const LONG = process.env.FULFIL_LONG === '1';
const ROUNDS = LONG ? 100 : 2;
const INTAKES = 200;
/** Requests in flight at once, alternating between the two servers. */
const IN_FLIGHT = 16;
/** Never an on hand here (syncs set even figures, the seed none of the sku): a stale guess. */
const NEVER_ON_HAND = 99_999;
const viewer = { name: 'viewer', role: 'viewer' as const, store_code: null, request_id: null };
const LIVE_UNSHIPPED = new Set(['pending_accept', 'pending_allocation', 'pending_shipment']);

function seed() {
  return {
    stores: [
      {
        code: 'default',
        settings: { partial_items: false, partial_qty: false, reroute: true },
        warehouses: WAREHOUSES.map((code, index) => ({
          code,
          name: `Partner ${code}`,
          fulfilled_by: 'partner',
          priority: 30 - index * 10,
        })),
        tokens: [
          { name: 'partner', token: PARTNER, acl: 'partner', warehouses: [...WAREHOUSES] },
          { name: 'channel', token: CHANNEL, acl: 'channel' },
        ],
      },
    ],
  };
}

/** What the partner or the channel does with one order once it is taken in. */
type Afterwards = 'nothing' | 'accept' | 'reject' | 'cancel' | 'accept_then_cancel';

interface Intake {
  qty: number;
  afterwards: Afterwards;
}

interface Sync {
  warehouse: number;
  /** Even: never the stale guess. */
  qty: number;
  /** Sent with a `change_from` known to be wrong: must be refused. */
  stale: boolean;
  /** Where among the intakes it is sent. */
  at: number;
}

interface Round {
  stock: [number, number, number];
  intakes: Intake[];
  syncs: Sync[];
}

const roundArbitrary: fc.Arbitrary<Round> = fc.record({
  // K = the sum, at most 150 < N = 200.
  stock: fc.tuple(
    fc.integer({ min: 0, max: 50 }),
    fc.integer({ min: 0, max: 50 }),
    fc.integer({ min: 0, max: 50 }),
  ),
  intakes: fc.array(
    fc.record({
      qty: fc.integer({ min: 1, max: 2 }),
      afterwards: fc.constantFrom<Afterwards>(
        'nothing',
        'nothing',
        'accept',
        'reject',
        'reject',
        'cancel',
        'accept_then_cancel',
      ),
    }),
    { minLength: INTAKES, maxLength: INTAKES },
  ),
  syncs: fc.array(
    fc.record({
      warehouse: fc.integer({ min: 0, max: 2 }),
      qty: fc.integer({ min: 0, max: 30 }).map((half) => half * 2),
      stale: fc.boolean(),
      at: fc.integer({ min: 0, max: INTAKES - 1 }),
    }),
    { minLength: 6, maxLength: 18 },
  ),
});

/** Runs `tasks` with at most `limit` in flight. */
async function pool(tasks: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++] as () => Promise<void>;
      await task();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

export function describeCommittedAtRouting(
  title: string,
  makeDatabase: () => Promise<TestDatabase>,
): void {
  describe(title, () => {
    const pair = useServerPair(makeDatabase, seed, []);
    let request = 0;
    /** The next request's server: they alternate. */
    const server = () => (pair.servers[request++ % 2] as ServerProcess).url;
    const expectStatus = async (reply: Reply, statuses: readonly number[], what: string) => {
      if (reply.status >= 500) {
        // What the server logged of it (a 500 answers only a report id), once its line is in.
        const reportId = (reply.body as { parameters?: { fieldValue?: string }[] }).parameters?.[0]
          ?.fieldValue;
        const logged = () =>
          pair.servers.flatMap((process) =>
            process.logLines().filter((line) => line.report_id === reportId),
          );
        for (let wait = 0; wait < 40 && logged().length === 0; wait++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect.fail(`${what}: ${reply.status}, logged as ${JSON.stringify(logged())}`);
      }
      expect(statuses, `${what}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
    };

    /** Every fulfillment order of a sales order: `-1`, then one per reroute (three at most). */
    const ordersOf = async (number: string): Promise<OrderResource[]> => {
      const orders: OrderResource[] = [];
      for (let sequence = 1; sequence <= WAREHOUSES.length + 1; sequence++) {
        try {
          orders.push(await pair.engine.getOrder('default', `${number}-${sequence}`));
        } catch (error) {
          if (isDomainError(error) && error.code === 'not_found') break;
          throw error;
        }
      }
      return orders;
    };

    const onHandOf = async (warehouse: string, sku: string): Promise<number> => {
      const rows = await pair.engine.listStock('default', { sku });
      return rows.find((row) => row.warehouse_code === warehouse)?.on_hand ?? 0;
    };

    /** One round: the sku `sku`, sales orders numbered from `first`. */
    async function playRound(round: Round, sku: string, first: number): Promise<void> {
      const set = await call(server(), PARTNER, 'POST', 'stockItems', {
        stock_items: WAREHOUSES.map((warehouse_code, index) => ({
          warehouse_code,
          sku,
          qty: round.stock[index],
        })),
      });
      await expectStatus(set, [200], 'the round stock');

      const numbers = round.intakes.map((_, index) => String(first + index));
      const applied: { warehouse: string; before: number; after: number }[] = [];
      const intakeTask = (intake: Intake, number: string) => async () => {
        const created = await call(server(), CHANNEL, 'POST', 'salesOrders', {
          sales_order: fixtures.salesOrder(number, [{ sku, qty: intake.qty }]),
        });
        await expectStatus(created, [201], `intake ${number}`);
        if (intake.afterwards === 'nothing') return;
        const [order] = await ordersOf(number);
        if (!order) throw new Error(`no order for ${number}`);
        const items = order.items.map((item) => ({ item_id: item.id, qty: item.qty }));
        if (intake.afterwards === 'accept' || intake.afterwards === 'accept_then_cancel') {
          const accepted = await call(server(), PARTNER, 'POST', 'fulfillmentOrder/accept', {
            order: { order_id: order.fulfillment_order_number, items },
          });
          await expectStatus(accepted, [200], `accept ${number}`);
        }
        if (intake.afterwards === 'reject') {
          const rejected = await call(server(), PARTNER, 'POST', 'fulfillmentOrder/reject', {
            order: {
              order_id: order.fulfillment_order_number,
              items: items.map(({ item_id }) => ({ item_id })),
            },
          });
          await expectStatus(rejected, [200], `reject ${number}`);
        }
        if (intake.afterwards === 'cancel' || intake.afterwards === 'accept_then_cancel') {
          const canceled = await call(server(), CHANNEL, 'POST', 'salesOrder/cancel', {
            cancellation: { sales_order_number: number, reason: 'customer' },
          });
          await expectStatus(canceled, [200], `cancel ${number}`);
        }
      };
      const syncTask = (sync: Sync) => async () => {
        const warehouse = WAREHOUSES[sync.warehouse] as string;
        const seen = sync.stale ? NEVER_ON_HAND : await onHandOf(warehouse, sku);
        const reply = await call(server(), PARTNER, 'POST', 'stockItems', {
          stock_items: [{ warehouse_code: warehouse, sku, qty: sync.qty, change_from: seen }],
        });
        if (sync.stale) {
          await expectStatus(reply, [409], `a stale sync of ${warehouse}`);
          return;
        }
        // Another sync may have moved the figure since it was read: refused then, never applied.
        await expectStatus(reply, [200, 409], `a sync of ${warehouse}`);
        if (reply.status === 200) applied.push({ warehouse, before: seen, after: sync.qty });
      };
      const tasks: (() => Promise<void>)[] = [];
      round.intakes.forEach((intake, index) => {
        for (const sync of round.syncs.filter((candidate) => candidate.at === index))
          tasks.push(syncTask(sync));
        tasks.push(intakeTask(intake, numbers[index] as string));
      });
      await pool(tasks, IN_FLIGHT);

      // reserved = the qty of the live unshipped lines, per warehouse, read from the orders.
      const held = new Map<string, number>(WAREHOUSES.map((warehouse) => [warehouse, 0]));
      for (const number of numbers) {
        for (const order of await ordersOf(number)) {
          for (const item of order.items) {
            if (!LIVE_UNSHIPPED.has(item.status)) continue;
            const at = item.warehouse_code ?? order.warehouse_code;
            held.set(at, (held.get(at) ?? 0) + item.qty);
          }
        }
      }
      const rows = await pair.engine.listStock('default', { sku });
      const reserved = new Map(rows.map((row) => [row.warehouse_code, row.reserved]));
      for (const warehouse of WAREHOUSES) {
        expect(reserved.get(warehouse) ?? 0, `reserved of ${sku} at ${warehouse}`).toBe(
          held.get(warehouse),
        );
      }
      // The store's own check agrees, for every row of the store.
      const check = await pair.engine.admin.checkReservations(viewer, 'default');
      expect(check.mismatches).toEqual([]);

      // Never two orders promised one unit: what each warehouse had (the round's stock, what
      // syncs added, what rejects and cancels freed) bounds the units routed there in stock, as
      // each routing decision explains it (`short: false`).
      const inStock = new Map<string, number>(WAREHOUSES.map((warehouse) => [warehouse, 0]));
      const freed = new Map<string, number>(WAREHOUSES.map((warehouse) => [warehouse, 0]));
      for (const number of numbers) {
        for (const order of await ordersOf(number)) {
          for (const item of order.items) {
            if (item.status !== 'rejected' && item.status !== 'canceled') continue;
            const at = item.warehouse_code ?? order.warehouse_code;
            freed.set(at, (freed.get(at) ?? 0) + item.qty);
          }
          const detail = await pair.engine.admin.order(
            viewer,
            'default',
            order.fulfillment_order_number,
          );
          for (const line of detail.routing?.lines ?? []) {
            if (line.short) continue;
            for (const part of line.parts)
              inStock.set(part.warehouse_code, (inStock.get(part.warehouse_code) ?? 0) + part.qty);
          }
        }
      }

      // No lost update: the sets applied are exactly the syncs answered 200, each replacing the
      // figure it was sent with, chained one after the other.
      for (const warehouse of WAREHOUSES) {
        const history = await pair.engine.admin.stockHistory(viewer, 'default', warehouse, sku, {});
        const sets = history.items
          .filter((entry) => entry.kind === 'set')
          .reverse()
          .slice(1); // the round's first set
        const pairs = (list: { before: number; after: number }[]) =>
          list.map(({ before, after }) => `${before}->${after}`).sort();
        expect(
          pairs(
            sets.map((entry) => ({
              before: entry.on_hand_before ?? -1,
              after: entry.on_hand_after,
            })),
          ),
          `the syncs applied at ${warehouse}`,
        ).toEqual(pairs(applied.filter((sync) => sync.warehouse === warehouse)));
        sets.forEach((entry, index) => {
          const previous =
            index === 0
              ? round.stock[WAREHOUSES.indexOf(warehouse as never)]
              : sets[index - 1]?.on_hand_after;
          expect(entry.on_hand_before, `the history of ${warehouse} chains`).toBe(previous);
        });
        const added = sets.reduce(
          (sum, entry) => sum + Math.max(0, entry.on_hand_after - (entry.on_hand_before ?? 0)),
          0,
        );
        const had = round.stock[WAREHOUSES.indexOf(warehouse as never)] as number;
        expect(inStock.get(warehouse), `units routed in stock to ${warehouse}`).toBeLessThanOrEqual(
          had + added + (freed.get(warehouse) ?? 0),
        );
        expect(await onHandOf(warehouse, sku)).toBe(
          sets.at(-1)?.on_hand_after ?? round.stock[WAREHOUSES.indexOf(warehouse as never)],
        );
      }
    }

    it(
      `${ROUNDS} rounds of ${INTAKES} concurrent intakes against fewer units: no unit promised twice, reserved = the live unshipped lines, no sync lost`,
      async () => {
        let round = 0;
        await fc.assert(
          fc.asyncProperty(roundArbitrary, async (generated) => {
            round += 1;
            await playRound(generated, `COMMIT-${round}`, 600_000_000 + round * 1_000);
          }),
          { numRuns: ROUNDS, endOnFailure: true },
        );
      },
      LONG ? 3_600_000 : 120_000,
    );
  });
}
