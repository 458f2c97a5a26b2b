import type { Engine } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import { databaseKinds, type TestDatabase } from '../databases/open.js';
import { call } from './support.js';

/**
 * A guarded stock set (docs/behaviour.md): an entry with `change_from` applies only while the on
 * hand is still that figure. A sync the partner computed before a ship that committed meanwhile
 * is refused whole with 409, each stale entry named with the on hand it has now, and changes
 * nothing; of many guarded sets racing from one figure, exactly one applies.
 */

const PARTNER = 'guarded-partner-0123456789abcdefghijklm';
const ERP = 'guarded-erp-secret-0123456789abcdefghijk';

function seed() {
  return {
    stores: [
      {
        code: 'default',
        settings: { partial_items: true },
        warehouses: [
          { code: 'WH-A', name: 'A', priority: 10 },
          { code: 'WH-B', name: 'B', priority: 5 },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
          { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 5 },
        ],
        tokens: [
          { name: 'partner', token: PARTNER, acl: 'partner' },
          { name: 'erp', token: ERP, acl: 'erp' },
        ],
        orders: [
          fixtures.salesOrder('8001', [{ sku: 'SKU-1', qty: 2 }], { warehouse_code: 'WH-A' }),
        ],
      },
    ],
  };
}

for (const kind of databaseKinds()) {
  describe(`guarded stock sets on ${kind.name}`, () => {
    let database: TestDatabase;
    let engine: Engine;
    let server: RunningHttpServer;
    const sync = (stock_items: unknown[]) =>
      call(server, 'POST', '/V1/stockItems', { token: PARTNER, json: { stock_items } });
    const onHand = async (warehouse: string, sku: string) => {
      const rows = await engine.listStock('default', { sku });
      return rows.find((row) => row.warehouse_code === warehouse)?.on_hand;
    };

    beforeAll(async () => {
      database = await kind.open();
      engine = database.engine;
      await engine.loadSeed(seed());
      server = await startHttpServer({ engine, log: () => {} });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('refuses a sync computed before a ship that committed meanwhile, and changes nothing', async () => {
      // The partner counts 10 of SKU-1, then ships 2 of them before its sync arrives.
      const order = await engine.getOrder('default', '8001-1');
      const items = order.items.map((item) => ({ item_id: item.id, qty: item.qty }));
      const post = (action: string, json: unknown, token = PARTNER) =>
        call(server, 'POST', `/V1/fulfillmentOrder/${action}`, { token, json });
      expect((await post('accept', { order: { order_id: '8001-1', items } })).status).toBe(200);
      const allocation = { order_id: '8001-1', items: items.map(({ item_id }) => ({ item_id })) };
      expect((await post('allocate', { allocation }, ERP)).status).toBe(200);
      const shipped = await post('ship', {
        shipment: {
          order_id: '8001-1',
          items,
          tracks: [{ carrier_code: 'dhl', title: 'DHL', track_number: 'T-1' }],
        },
      });
      expect(shipped.status).toBe(200);
      expect(await onHand('WH-A', 'SKU-1')).toBe(8);

      const before = await database.snapshot();
      const stale = await sync([
        { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 4, change_from: 5 },
        { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10, change_from: 10 },
        { warehouse_code: 'WH-B', sku: 'SKU-9', qty: 3, change_from: 1 },
      ]);
      expect(stale.status).toBe(409);
      expect(stale.body.code).toBe(1409);
      expect(stale.body.errors.map((e: { parameters: unknown[] }) => e.parameters[0])).toEqual([
        { fieldName: 'stock_items[1].change_from', fieldValue: '8' },
        // A row that does not exist has 0 on hand.
        { fieldName: 'stock_items[2].change_from', fieldValue: '0' },
      ]);
      expect(stale.body.errors[0].detail).toBe(
        'stock_items[1].change_from was 10, but the on hand is 8 now.',
      );
      expect(await database.snapshot()).toEqual(before);

      // Sent again from the figure it was told, it applies; an entry without change_from, as ever.
      const again = await sync([
        { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 9, change_from: 8 },
        { warehouse_code: 'WH-B', sku: 'SKU-9', qty: 3, change_from: 0 },
        { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 4 },
      ]);
      expect(again.status).toBe(200);
      expect(again.body).toEqual([
        { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 9 },
        { warehouse_code: 'WH-B', sku: 'SKU-9', qty: 3 },
        { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 4 },
      ]);
      expect(await onHand('WH-A', 'SKU-1')).toBe(9);
      expect(await onHand('WH-B', 'SKU-9')).toBe(3);
    });

    it('reads change_from in XML too', async () => {
      const xml = (from: number) =>
        `<request><stock_items><item><warehouse_code>WH-B</warehouse_code><sku>SKU-X</sku><qty>6</qty><change_from>${from}</change_from></item></stock_items></request>`;
      const refused = await call(server, 'POST', '/V1/stockItems', {
        token: PARTNER,
        xml: xml(2),
        accept: 'application/xml',
      });
      expect(refused.status).toBe(409);
      expect(refused.text).toContain('<fieldName>stock_items[0].change_from</fieldName>');
      const applied = await call(server, 'POST', '/V1/stockItems', {
        token: PARTNER,
        xml: xml(0),
      });
      expect(applied.status).toBe(200);
      expect(await onHand('WH-B', 'SKU-X')).toBe(6);
    });

    it('refuses a change_from that is not a whole number of 0 or more with 400', async () => {
      const reply = await sync([{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1, change_from: -1 }]);
      expect(reply.status).toBe(400);
      expect(reply.body.parameters[0].fieldName).toBe('stock_items[0].change_from');
    });

    it('of many guarded sets racing from one figure, exactly one applies', async () => {
      const start = await onHand('WH-A', 'SKU-2');
      const racers = 24;
      const replies = await Promise.all(
        Array.from({ length: racers }, (_, i) =>
          sync([
            { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 + i, change_from: 9 },
            { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 200 + i, change_from: start },
          ]),
        ),
      );
      const applied = replies.flatMap((reply, i) => (reply.status === 200 ? [i] : []));
      expect(applied).toHaveLength(1);
      expect(replies.filter((reply) => reply.status === 409)).toHaveLength(racers - 1);
      const winner = applied[0] as number;
      expect(await onHand('WH-A', 'SKU-1')).toBe(100 + winner);
      expect(await onHand('WH-A', 'SKU-2')).toBe(200 + winner);
      // Every loser was told the winner's figures.
      for (const reply of replies.filter((r) => r.status === 409)) {
        expect(reply.body.parameters).toEqual([
          { fieldName: 'stock_items[0].change_from', fieldValue: String(100 + winner) },
          { fieldName: 'stock_items[1].change_from', fieldValue: String(200 + winner) },
        ]);
      }
    });
  });
}
