import { skipUnless } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { useServerPair } from '../scale-out/server-pair.js';
import {
  call,
  postgresDatabase,
  type ServerProcess,
  sqliteDatabase,
  type TestDatabase,
} from '../scale-out/support.js';

/**
 * An adjustment's number makes it idempotent (docs/api.md, POST /V1/stockAdjustments): 1,000
 * sends of one adjustment, 20 at a time, spread over two `fulfil serve` processes on one
 * database, apply it once (one 201) and answer every other send (999 × 200) with the very
 * result of the first.
 */

const PARTNER = 'replay-partner-secret-0123456789abcdef01';
const SENDS = 1_000;
const IN_FLIGHT = 20;

const seed = () => ({
  stores: [
    {
      code: 'default',
      warehouses: [{ code: 'WH-A', name: 'A' }],
      stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 }],
      tokens: [{ name: 'partner', token: PARTNER, acl: 'partner', warehouses: ['WH-A'] }],
    },
  ],
});

function describeReplays(title: string, makeDatabase: () => Promise<TestDatabase>): void {
  describe(title, () => {
    const pair = useServerPair(makeDatabase, seed, []);

    it(`answers ${SENDS} sends of one adjustment with its first result, applying it once`, async () => {
      const adjustment = {
        adjustment_number: 'ADJ-REPLAYED',
        items: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', delta: -3, reason: 'damaged' },
          { warehouse_code: 'WH-A', sku: 'SKU-2', delta: 5, reason: 'received' },
        ],
      };
      const replies: { status: number; body: unknown }[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < SENDS) {
            const server = pair.servers[next++ % 2] as ServerProcess;
            replies.push(
              await call(server.url, PARTNER, 'POST', 'stockAdjustments', { adjustment }),
            );
          }
        }),
      );
      expect(replies).toHaveLength(SENDS);
      expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1);
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(SENDS - 1);
      const first = replies.find((reply) => reply.status === 201)?.body;
      const differing = replies.filter(
        (reply) => JSON.stringify(reply.body) !== JSON.stringify(first),
      );
      expect(differing).toEqual([]);
      const stock = await pair.engine.listStock('default');
      expect(stock.map((row) => [row.sku, row.on_hand])).toEqual([
        ['SKU-1', 97],
        ['SKU-2', 5],
      ]);
    }, 120_000);
  });
}

describeReplays('adjustment replays: two server processes on one SQLite file', sqliteDatabase);

const url = process.env.FULFIL_TEST_POSTGRES_URL;
if (url) {
  describeReplays('adjustment replays: two server processes on one Postgres database', async () =>
    postgresDatabase(url),
  );
} else {
  describe('adjustment replays: two server processes on one Postgres database', () => {
    it('all of its tests', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
  });
}
