import { readStoredState } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { expectCleanStop, useServerPair } from './server-pair.js';
import {
  call,
  ERP,
  eventually,
  ok,
  orderNumber,
  PARTNER,
  type Reply,
  type ServerProcess,
  salesOrder,
  storeSeed,
  type TestDatabase,
} from './support.js';

/**
 * The races of several server processes over one database, each run through two real
 * `fulfil serve` processes with requests alternating between them. Registered once per database
 * by sqlite.test.ts and postgres.test.ts.
 */

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

// The sales orders of each race (their fulfillment orders are `<id>-1`).
const SHIP_RACE = 210_000_001;
const ACCEPT_RACE = 220_000_001;
const STOCK_RACE = range(40).map((i) => 230_000_001 + i);
const COURIER_RACE = range(20).map((i) => 240_000_001 + i);
const CACHE_RACE = range(8).map((i) => 250_000_001 + i);

const ACCEPT_LINES = 50;
const C_SKUS = range(6).map((i) => `C-${i + 1}`);

function seed() {
  const stock = [
    { warehouse_code: 'WH-A', sku: 'A-1', qty: 100 },
    { warehouse_code: 'WH-A', sku: 'A-2', qty: 100 },
    ...range(ACCEPT_LINES).map((i) => ({ warehouse_code: 'WH-A', sku: `B-${i + 1}`, qty: 5 })),
    ...C_SKUS.map((sku) => ({ warehouse_code: 'WH-A', sku, qty: 500 })),
    { warehouse_code: 'WH-C', sku: 'D-1', qty: 100 },
  ];
  const orders = [
    salesOrder(SHIP_RACE, 'WH-A', [
      ['A-1', 2],
      ['A-2', 1],
    ]),
    salesOrder(
      ACCEPT_RACE,
      'WH-A',
      range(ACCEPT_LINES).map((i) => [`B-${i + 1}`, 1] as const),
      { allow_partial: true },
    ),
    ...STOCK_RACE.map((id, i) =>
      salesOrder(id, 'WH-A', [
        [C_SKUS[i % 6] as string, 1 + (i % 3)],
        [C_SKUS[(i + 1) % 6] as string, 1],
      ]),
    ),
    ...COURIER_RACE.map((id) => salesOrder(id, 'WH-C', [['D-1', 1]])),
    ...CACHE_RACE.map((id) => salesOrder(id, 'WH-A', [['A-2', 1]])),
  ];
  return storeSeed(stock, orders);
}

const ALL_ORDERS = [SHIP_RACE, ACCEPT_RACE, ...STOCK_RACE, ...COURIER_RACE, ...CACHE_RACE].map(
  orderNumber,
);

export function describeScaleOut(title: string, makeDatabase: () => Promise<TestDatabase>): void {
  describe(title, () => {
    const pair = useServerPair(makeDatabase, seed, ['--courier-interval', '50']);
    /** The server for the i-th request: they alternate. */
    const server = (i: number): string =>
      (pair.servers[i % pair.servers.length] as ServerProcess).url;
    const getOrder = (number: string) => pair.engine.getOrder('default', number);
    const stockOf = async () =>
      new Map(
        (await pair.engine.listStock('default')).map((row) => [
          `${row.warehouse_code}/${row.sku}`,
          { on_hand: row.on_hand, reserved: row.reserved },
        ]),
      );

    /** What every race must leave intact: the invariants of core, over every order stored. */
    const expectInvariantsHold = async () => {
      const { violations } = await readStoredState(pair.repository, 'default', ALL_ORDERS);
      expect(violations).toEqual([]);
    };

    const expectAll200 = (replies: Reply[], what: string) => {
      const failed = replies.filter((reply) => reply.status !== 200);
      expect(failed, `${what}: every response is 200`).toEqual([]);
    };

    it('a. 50 identical ship calls on one order: one shipment, every response the same order', async () => {
      const number = orderNumber(SHIP_RACE);
      const order = await getOrder(number);
      const items = order.items.map((item) => ({ item_id: item.id, qty: item.qty }));
      ok(
        await call(server(0), PARTNER, 'POST', 'fulfillmentOrder/accept', {
          order: { order_id: number, items },
        }),
        'accept',
      );
      ok(
        await call(server(1), ERP, 'POST', 'fulfillmentOrder/allocate', {
          allocation: { order_id: number, items: items.map(({ item_id }) => ({ item_id })) },
        }),
        'allocate',
      );
      const before = await stockOf();

      const shipment = {
        shipment: {
          order_id: number,
          items,
          carrier_tracking_number: 'TRK-RACE-1',
          carrier_title: 'Race Carrier',
        },
      };
      const replies = await Promise.all(
        range(50).map((i) => call(server(i), PARTNER, 'POST', 'fulfillmentOrder/ship', shipment)),
      );

      expectAll200(replies, 'ship');
      const [first] = replies;
      for (const reply of replies) expect(reply.body).toEqual(first?.body);
      const shipped = first?.body as { status: string; items: { status: string }[] };
      expect(shipped.status).toBe('pending_invoice');
      expect(shipped.items.map((item) => item.status)).toEqual([
        'pending_invoice',
        'pending_invoice',
      ]);

      const history = await pair.engine.getOrderHistory('default', number);
      expect(history.shipments).toHaveLength(1);
      expect(history.audit.filter((event) => event.action === 'ship')).toHaveLength(1);
      expect(history.order).toEqual(first?.body);
      const after = await stockOf();
      // The shipped qty leaves on hand and the reservation once; other orders waiting for these
      // skus hold theirs, reserved since they were routed.
      expect(after.get('WH-A/A-1')).toEqual({
        on_hand: (before.get('WH-A/A-1')?.on_hand ?? 0) - 2,
        reserved: (before.get('WH-A/A-1')?.reserved ?? 0) - 2,
      });
      expect(after.get('WH-A/A-2')).toEqual({
        on_hand: (before.get('WH-A/A-2')?.on_hand ?? 0) - 1,
        reserved: (before.get('WH-A/A-2')?.reserved ?? 0) - 1,
      });
      await expectInvariantsHold();
    }, 60_000);

    it('b. 50 accepts of different items of one order at once: all 50 applied', async () => {
      const number = orderNumber(ACCEPT_RACE);
      const order = await getOrder(number);
      expect(order.items).toHaveLength(ACCEPT_LINES);

      const replies = await Promise.all(
        order.items.map((item, i) =>
          call(server(i), PARTNER, 'POST', 'fulfillmentOrder/accept', {
            order: { order_id: number, items: [{ item_id: item.id, qty: item.qty }] },
          }),
        ),
      );

      expectAll200(replies, 'accept');
      // Each response already shows its own item accepted.
      replies.forEach((reply, i) => {
        const body = reply.body as { items: { id: number; status: string }[] };
        const own = body.items.find((item) => item.id === order.items[i]?.id);
        expect(own?.status).toBe('pending_allocation');
      });
      const accepted = await getOrder(number);
      expect(accepted.status).toBe('pending_allocation');
      expect(accepted.items).toHaveLength(ACCEPT_LINES);
      expect(accepted.items.every((item) => item.status === 'pending_allocation')).toBe(true);
      const history = await pair.engine.getOrderHistory('default', number);
      expect(history.audit.filter((event) => event.action === 'accept')).toHaveLength(ACCEPT_LINES);
      const stock = await stockOf();
      for (const i of range(ACCEPT_LINES)) {
        expect(stock.get(`WH-A/B-${i + 1}`)).toEqual({ on_hand: 5, reserved: 1 });
      }
      await expectInvariantsHold();
    }, 60_000);

    it('c. stock syncs racing accepts: reservations exact, on hand the last value synced', async () => {
      const orders = await Promise.all(STOCK_RACE.map((id) => getOrder(orderNumber(id))));
      const accepts = orders.map((order) => ({
        order: {
          order_id: order.fulfillment_order_number,
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
        },
      }));

      // Two sync streams over disjoint SKUs, each one request after another (so that its last
      // value is well defined), alternating servers, until the accepts are over.
      let acceptsDone = false;
      const syncReplies: Reply[] = [];
      const syncStream = async (skus: readonly string[], offset: number) => {
        let last = new Map<string, number>();
        for (let round = 0; !acceptsDone || round < 10; round++) {
          const batch = skus.map((sku, k) => ({
            warehouse_code: 'WH-A',
            sku,
            qty: 1000 + 10 * round + k,
          }));
          syncReplies.push(
            await call(server(round + offset), PARTNER, 'POST', 'stockItems', {
              stock_items: batch,
            }),
          );
          last = new Map(batch.map((entry) => [entry.sku, entry.qty]));
        }
        return last;
      };
      const streams = [syncStream(C_SKUS.slice(0, 3), 0), syncStream(C_SKUS.slice(3), 1)];

      // Every accept is sent twice at once, to both servers: a retry racing its original.
      const acceptReplies: Reply[] = [];
      try {
        for (let start = 0; start < accepts.length; start += 8) {
          const wave = accepts.slice(start, start + 8);
          acceptReplies.push(
            ...(await Promise.all(
              wave.flatMap((body, j) => [
                call(server(j), PARTNER, 'POST', 'fulfillmentOrder/accept', body),
                call(server(j + 1), PARTNER, 'POST', 'fulfillmentOrder/accept', body),
              ]),
            )),
          );
        }
      } finally {
        acceptsDone = true;
      }
      const lastSynced = new Map(
        (await Promise.all(streams)).flatMap((last) => [...last.entries()]),
      );

      expectAll200(acceptReplies, 'accept');
      expectAll200(syncReplies, 'stock sync');
      expect(syncReplies.length).toBeGreaterThanOrEqual(20);

      const expectedReserved = new Map(C_SKUS.map((sku) => [sku, 0]));
      for (const order of await Promise.all(STOCK_RACE.map((id) => getOrder(orderNumber(id))))) {
        expect(order.status).toBe('pending_allocation');
        for (const item of order.items) {
          expectedReserved.set(item.sku, (expectedReserved.get(item.sku) ?? 0) + item.qty);
        }
      }
      const stock = await stockOf();
      for (const sku of C_SKUS) {
        expect(stock.get(`WH-A/${sku}`), sku).toEqual({
          on_hand: lastSynced.get(sku),
          reserved: expectedReserved.get(sku),
        });
      }
      await expectInvariantsHold();
    }, 60_000);

    it('d. the courier loops of both processes never ship one order twice', async () => {
      const numbers = COURIER_RACE.map(orderNumber);
      const orders = await Promise.all(numbers.map(getOrder));
      expect(orders.every((order) => order.status === 'pending_allocation')).toBe(true);

      // Allocated at once, half through each server: both dispatchers find them due together.
      const replies = await Promise.all(
        orders.map((order, i) =>
          call(server(i), ERP, 'POST', 'fulfillmentOrder/allocate', {
            allocation: {
              order_id: order.fulfillment_order_number,
              items: order.items.map((item) => ({ item_id: item.id })),
            },
          }),
        ),
      );
      expectAll200(replies, 'allocate');

      const shippedInLogs = () =>
        pair.servers.flatMap((process) =>
          process
            .logLines()
            .filter((line) => line.msg === 'courier dispatch')
            .flatMap((line) => line.shipped as string[]),
        );
      await eventually(
        async () => new Set(shippedInLogs()).size === numbers.length,
        'the courier loops to ship every order',
      );
      // Each order reported shipped by exactly one dispatcher, once.
      expect([...shippedInLogs()].sort()).toEqual([...numbers].sort());
      const courierLines = pair.servers.flatMap((process) =>
        process.logLines().filter((line) => line.msg === 'courier dispatch'),
      );
      expect(
        courierLines.flatMap((line) => [...(line.retrying as []), ...(line.failed as [])]),
      ).toEqual([]);

      for (const number of numbers) {
        // Claimed once, so the courier was called once (the simulated one never fails): a
        // second claim would have been a second booking, even if its result were ignored.
        const history = await pair.engine.getOrderHistory('default', number);
        expect(history.courier.attempts, number).toBe(1);
        expect(history.order.status, number).toBe('pending_invoice');
        expect(history.shipments, number).toHaveLength(1);
        expect(history.audit.filter((event) => event.action === 'ship')).toHaveLength(1);
      }
      expect((await stockOf()).get('WH-C/D-1')).toEqual({
        on_hand: 100 - numbers.length,
        reserved: 0,
      });
      await expectInvariantsHold();
    }, 60_000);

    it('e. an accept acknowledged by one process shows in the next poll on the other', async () => {
      /** Every order number the partner sees in pending_accept through server `i`, page by page. */
      const pendingVia = async (i: number): Promise<string[]> => {
        const numbers: string[] = [];
        for (let page = 1; ; page++) {
          const body = ok(
            await call(server(i), PARTNER, 'GET', `fulfillmentOrders/pending_accept?page=${page}`),
            'poll',
          ) as { fulfillment_order_number: string }[];
          numbers.push(...body.map((order) => order.fulfillment_order_number));
          if (body.length < 100) return numbers;
        }
      };
      const hitsOn1 = () =>
        (pair.servers[1] as ServerProcess)
          .logLines()
          .filter((line) => line.msg === 'request' && line.cache === 'hit').length;
      for (const id of CACHE_RACE) {
        const number = orderNumber(id);
        expect(await pendingVia(1)).toContain(number);
        // Again until server 1 answers from its response cache. The change stamp is the
        // cluster's snapshot, so any other transaction on the cluster (a courier loop's, or
        // another test's where the cluster is shared) turns a poll into a miss.
        const hitsBefore = hitsOn1();
        await expect
          .poll(async () => {
            expect(await pendingVia(1)).toContain(number);
            return hitsOn1();
          })
          .toBeGreaterThan(hitsBefore);
        const order = await getOrder(number);
        ok(
          await call(server(0), PARTNER, 'POST', 'fulfillmentOrder/accept', {
            order: {
              order_id: number,
              items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
            },
          }),
          'accept',
        );
        expect(
          await pendingVia(1),
          `${number} after its accept via the other process`,
        ).not.toContain(number);
      }
      expect(hitsOn1()).toBeGreaterThanOrEqual(CACHE_RACE.length);
      await expectInvariantsHold();
    }, 60_000);

    it(
      'no request ever failed with a 5xx, and both servers stop on SIGTERM with exit 0',
      () => expectCleanStop(pair.servers),
      30_000,
    );
  });
}
