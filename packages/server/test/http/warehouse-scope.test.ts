import type { Engine } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import { databaseKinds, type TestDatabase } from '../databases/open.js';
import { call } from './support.js';

/**
 * A token scoped to warehouses acts only inside its scope (docs/behaviour.md): an order of
 * another warehouse does not exist for it, and a warehouse it names in a request (an allocate
 * transfer, a stock sync) must be one of its own, or the request is a 400 on that field and
 * changes nothing.
 */

const SECRETS = {
  partnerA: 'scope-partner-a-0123456789abcdefghijkl',
  partnerB: 'scope-partner-b-0123456789abcdefghijkl',
  erpA: 'scope-erp-a-secret-0123456789abcdefghij',
  erp: 'scope-erp-secret-0123456789abcdefghijklm',
};

function seed() {
  const order = (number: string, warehouse: string) =>
    fixtures.salesOrder(number, [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: warehouse });
  return {
    stores: [
      {
        code: 'default',
        settings: { reroute: true },
        warehouses: [
          { code: 'WH-A', name: 'A', priority: 10 },
          { code: 'WH-B', name: 'B', priority: 5 },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
          { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 10 },
        ],
        tokens: [
          { name: 'partner-a', token: SECRETS.partnerA, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'partner-b', token: SECRETS.partnerB, acl: 'partner', warehouses: ['WH-B'] },
          { name: 'erp-a', token: SECRETS.erpA, acl: 'erp', warehouses: ['WH-A'] },
          { name: 'erp', token: SECRETS.erp, acl: 'erp' },
        ],
        orders: ['7001', '7002', '7003'].map((n) => order(n, 'WH-A')),
      },
    ],
  };
}

for (const kind of databaseKinds()) {
  describe(`warehouse scope on ${kind.name}`, () => {
    let database: TestDatabase;
    let engine: Engine;
    let server: RunningHttpServer;
    const post = (token: string, action: string, json: unknown) =>
      call(server, 'POST', `/V1/fulfillmentOrder/${action}`, { token, json });
    const itemOf = async (number: string) =>
      (await engine.getOrder('default', number)).items[0]?.id as number;

    beforeAll(async () => {
      database = await kind.open();
      engine = database.engine;
      await engine.loadSeed(seed());
      server = await startHttpServer({ engine, log: () => {} });
      for (const number of ['7001-1', '7002-1', '7003-1']) {
        const items = [{ item_id: await itemOf(number), qty: 1 }];
        const accepted = await post(SECRETS.partnerA, 'accept', {
          order: { order_id: number, items },
        });
        expect(accepted.status).toBe(200);
      }
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('allocate: a scoped token cannot name a source warehouse outside its scope', async () => {
      const items = [{ item_id: await itemOf('7001-1'), warehouse_code: 'WH-B' }];
      const before = await database.snapshot();
      const reply = await post(SECRETS.erpA, 'allocate', {
        allocation: { order_id: '7001-1', items },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.parameters[0]).toEqual({
        fieldName: 'allocation.items[0].warehouse_code',
        fieldValue: 'WH-B',
      });
      // The key the ERP guide writes is checked alike.
      const legacy = await post(SECRETS.erpA, 'allocate', { order: { order_id: '7001-1', items } });
      expect(legacy.status).toBe(400);
      expect(await database.snapshot()).toEqual(before);

      const own = await post(SECRETS.erpA, 'allocate', {
        allocation: { order_id: '7001-1', items: [{ ...items[0], warehouse_code: 'WH-A' }] },
      });
      expect(own.status).toBe(200);
      expect(own.body.items[0].warehouse_code).toBe('WH-A');
    });

    it('an out-of-scope transfer leaves no trace: the later ship deducts the own warehouse', async () => {
      const item_id = await itemOf('7002-1');
      await post(SECRETS.erpA, 'allocate', {
        allocation: { order_id: '7002-1', items: [{ item_id, warehouse_code: 'WH-B' }] },
      });
      const allocated = await post(SECRETS.erpA, 'allocate', {
        allocation: { order_id: '7002-1', items: [{ item_id }] },
      });
      expect(allocated.status).toBe(200);
      const shipped = await post(SECRETS.partnerA, 'ship', {
        shipment: { order_id: '7002-1', items: [{ item_id }] },
      });
      expect(shipped.status).toBe(200);
      const stock = await engine.listStock('default', { sku: 'SKU-1' });
      expect(stock.find((row) => row.warehouse_code === 'WH-B')).toMatchObject({
        on_hand: 10,
        reserved: 0,
      });
    });

    it('an unscoped token may transfer from any active warehouse of its store', async () => {
      const item_id = await itemOf('7003-1');
      const reply = await post(SECRETS.erp, 'allocate', {
        allocation: { order_id: '7003-1', items: [{ item_id, warehouse_code: 'WH-B' }] },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.items[0].warehouse_code).toBe('WH-B');
      // The partner of the order's warehouse ships it: the stock leaves the source the
      // unscoped token chose, a decision the partner's ship only carries out.
      const shipped = await post(SECRETS.partnerA, 'ship', {
        shipment: { order_id: '7003-1', items: [{ item_id }] },
      });
      expect(shipped.status).toBe(200);
      const stock = await engine.listStock('default', { sku: 'SKU-1' });
      expect(stock.find((row) => row.warehouse_code === 'WH-B')).toMatchObject({ on_hand: 9 });
    });

    it('every action and queue treats an order outside the scope as missing', async () => {
      const item_id = await itemOf('7001-1');
      const before = await database.snapshot();
      const items = [{ item_id, qty: 1 }];
      const attempts: [string, string, unknown][] = [
        [SECRETS.partnerB, 'accept', { order: { order_id: '7001-1', items } }],
        [SECRETS.partnerB, 'reject', { order: { order_id: '7001-1', items } }],
        [SECRETS.partnerB, 'ship', { shipment: { order_id: '7001-1', items } }],
      ];
      for (const [token, action, body] of attempts) {
        const reply = await post(token, action, body);
        expect(reply.status, action).toBe(404);
      }
      // An ERP scoped to WH-B: its own token, made for this check.
      const erpB = await engine.createToken('default', {
        name: 'erp-b',
        acl: 'erp',
        warehouses: ['WH-B'],
      });
      const afterToken = await database.snapshot();
      for (const [action, body] of [
        ['allocate', { allocation: { order_id: '7001-1', items } }],
        ['invoice', { invoice: { order_id: '7001-1', items, invoice_number: 'I-1' } }],
      ] as const) {
        const reply = await post(erpB.token, action, body);
        expect(reply.status, action).toBe(404);
      }
      for (const [token, queue] of [
        [SECRETS.partnerB, 'pending_accept'],
        [SECRETS.partnerB, 'pending_shipment'],
        [SECRETS.partnerB, 'failed'],
        [erpB.token, 'pending_allocation'],
        [erpB.token, 'pending_invoice'],
      ] as const) {
        const reply = await call(server, 'GET', `/V1/fulfillmentOrders/${queue}`, { token });
        expect(reply.status, queue).toBe(200);
        expect(reply.body, queue).toEqual([]);
      }
      const sync = await call(server, 'POST', '/V1/stockItems', {
        token: SECRETS.partnerB,
        json: { stock_items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 0 }] },
      });
      expect(sync.status).toBe(400);
      expect(sync.body.parameters[0].fieldName).toBe('stock_items[0].warehouse_code');
      expect(await database.snapshot()).toEqual(afterToken);
      expect(Object.keys(afterToken)).toEqual(Object.keys(before));
    });
  });
}
