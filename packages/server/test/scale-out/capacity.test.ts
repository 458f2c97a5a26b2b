import { fixtures, skipUnless } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { expectCleanStop, useServerPair } from './server-pair.js';
import {
  call,
  postgresDatabase,
  type Reply,
  type ServerProcess,
  sqliteDatabase,
  type TestDatabase,
} from './support.js';

/**
 * Daily capacity blocks under concurrency (docs/routing.md): 500 sales orders taken in at once
 * through two `fulfil serve` processes over one database, against warehouses that can take 300
 * fulfillment orders today between them. The `capacity` rule of the default list refuses a
 * warehouse once full, counted by one conditional statement per warehouse in each intake's
 * transaction: no warehouse ever takes more than its capacity, and every slot is taken.
 */

const CHANNEL = fixtures.SEED_TOKENS.channel;
const ORDERS = 500;
const CAPACITY: Record<string, number> = { 'WH-A': 100, 'WH-B': 150, 'WH-C': 50 };

function seed() {
  return {
    stores: [
      {
        code: 'default',
        settings: { partial_items: false, partial_qty: false, reroute: false },
        warehouses: Object.entries(CAPACITY).map(([code, daily_capacity], index) => ({
          code,
          name: code,
          priority: 10 - index,
          daily_capacity,
          timezone: index === 0 ? 'Pacific/Kiritimati' : index === 1 ? 'America/New_York' : null,
        })),
        stock: Object.keys(CAPACITY).map((warehouse_code) => ({
          warehouse_code,
          sku: 'SKU-1',
          qty: 10_000,
        })),
        tokens: [{ name: 'channel', token: CHANNEL, acl: 'channel' }],
      },
    ],
  };
}

function describeCapacityRace(title: string, makeDatabase: () => Promise<TestDatabase>) {
  describe(title, () => {
    const pair = useServerPair(makeDatabase, seed, ['--courier-interval', '0']);

    it(`${ORDERS} concurrent intakes: none over any warehouse's capacity, every slot taken`, async () => {
      const replies: Reply[] = await Promise.all(
        Array.from({ length: ORDERS }, (_, i) =>
          call((pair.servers[i % 2] as ServerProcess).url, CHANNEL, 'POST', 'salesOrders', {
            sales_order: fixtures.salesOrder(String(700_000 + i), [{ sku: 'SKU-1', qty: 1 }]),
          }),
        ),
      );
      const statuses = new Map<number, number>();
      for (const reply of replies)
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      const total = Object.values(CAPACITY).reduce((sum, capacity) => sum + capacity, 0);
      // Refused only once every warehouse was full: 400 naming the line.
      expect(Object.fromEntries(statuses)).toEqual({ 201: total, 400: ORDERS - total });
      const refused = replies.find((reply) => reply.status === 400)?.body;
      expect(JSON.stringify(refused)).toContain('over daily capacity');

      const perWarehouse: Record<string, number> = {};
      await pair.repository.transaction(async (tx) => {
        const store = await tx.findStore('default');
        for (const [i, reply] of replies.entries()) {
          const order = await tx.findOrder(store?.id as number, `${700_000 + i}-1`);
          expect(order === null, `sales order ${700_000 + i}`).toBe(reply.status !== 201);
          if (order)
            perWarehouse[order.warehouse_code] = (perWarehouse[order.warehouse_code] ?? 0) + 1;
        }
      }, 'read');
      expect(perWarehouse).toEqual(CAPACITY);
      await expectCleanStop(pair.servers);
    }, 120_000);
  });
}

describeCapacityRace('daily capacity: two server processes on one SQLite file', sqliteDatabase);

const url = process.env.FULFIL_TEST_POSTGRES_URL;
if (url) {
  describeCapacityRace('daily capacity: two server processes on one Postgres database', async () =>
    postgresDatabase(url),
  );
} else {
  describe('daily capacity: two server processes on one Postgres database', () => {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
  });
}
