import { createEngine, type Engine } from '@fulfil/core';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import { databaseKinds, type TestDatabase } from '../databases/open.js';
import { dumpText, importedSqlite } from '../databases/store-dump.js';
import { call } from './support.js';

/**
 * Stock adjustments (docs/behaviour.md, Stock): deltas applied all or nothing, never below 0,
 * once per adjustment number. Under concurrent adjustments of one row the check holds (the rows
 * are locked before it), and racing repeats of one number apply once.
 */

const PARTNER = 'adjust-partner-0123456789abcdefghijklmn';
const SCOPED = 'adjust-scoped-0123456789abcdefghijklmno';
const SYNC_ONLY = 'adjust-sync-only-0123456789abcdefghijkl';

function seed() {
  return {
    stores: [
      {
        code: 'default',
        warehouses: [
          { code: 'WH-A', name: 'A', priority: 10 },
          { code: 'WH-B', name: 'B', priority: 5 },
        ],
        stock: [
          { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
          { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 5 },
          { warehouse_code: 'WH-B', sku: 'SKU-1', qty: 20 },
          { warehouse_code: 'WH-B', sku: 'SKU-3', qty: 4 },
        ],
        tokens: [
          { name: 'partner', token: PARTNER, acl: 'partner' },
          { name: 'scoped', token: SCOPED, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'sync-only', token: SYNC_ONLY, acl: ['Fulfil_Inventory::api_stock_items'] },
        ],
      },
    ],
  };
}

type Line = { warehouse_code: string; sku: string; delta: number; reason: string };

for (const kind of databaseKinds()) {
  describe(`stock adjustments on ${kind.name}`, () => {
    let database: TestDatabase;
    let engine: Engine;
    let server: RunningHttpServer;
    const adjust = (adjustment_number: string, items: Line[], token = PARTNER) =>
      call(server, 'POST', '/V1/stockAdjustments', {
        token,
        json: { adjustment: { adjustment_number, items } },
      });
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

    it('applies the deltas and answers each line with the on hand it left', async () => {
      const items = [
        { warehouse_code: 'WH-A', sku: 'SKU-1', delta: 6, reason: 'received' },
        { warehouse_code: 'WH-A', sku: 'SKU-2', delta: -2, reason: 'damaged' },
        // A sku adjusted twice counts on from the line before; a new one starts at 0.
        { warehouse_code: 'WH-A', sku: 'SKU-1', delta: -1, reason: 'counted' },
        { warehouse_code: 'WH-A', sku: 'SKU-NEW', delta: 3, reason: 'found' },
      ];
      const reply = await adjust('ADJ-1', items);
      expect(reply.status).toBe(201);
      expect(reply.body.adjustment_number).toBe('ADJ-1');
      expect(reply.body.items).toEqual([
        { ...items[0], on_hand: 16 },
        { ...items[1], on_hand: 3 },
        { ...items[2], on_hand: 15 },
        { ...items[3], on_hand: 3 },
      ]);
      expect(await onHand('WH-A', 'SKU-1')).toBe(15);
      expect(await onHand('WH-A', 'SKU-2')).toBe(3);
      expect(await onHand('WH-A', 'SKU-NEW')).toBe(3);
    });

    it('answers a repeat with the same content as the first time, applying it once', async () => {
      const items = [{ warehouse_code: 'WH-B', sku: 'SKU-3', delta: -1, reason: 'lost' }];
      const first = await adjust('ADJ-2', items);
      expect(first.status).toBe(201);
      const before = await database.snapshot();
      const again = await adjust('ADJ-2', items);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(await database.snapshot()).toEqual(before);
      expect(await onHand('WH-B', 'SKU-3')).toBe(3);
    });

    it('refuses the number with other content with 409 naming each differing field', async () => {
      const before = await database.snapshot();
      const reply = await adjust('ADJ-2', [
        { warehouse_code: 'WH-B', sku: 'SKU-3', delta: -2, reason: 'damaged' },
      ]);
      expect(reply.status).toBe(409);
      expect(reply.body.code).toBe(1409);
      expect(reply.body.parameters).toEqual([
        { fieldName: 'adjustment.adjustment_number', fieldValue: 'ADJ-2' },
      ]);
      expect(reply.body.errors.map((e: { parameters: unknown[] }) => e.parameters[0])).toEqual([
        { fieldName: 'adjustment.items[0].delta' },
        { fieldName: 'adjustment.items[0].reason' },
      ]);
      expect(await database.snapshot()).toEqual(before);
    });

    it('refuses a line that would take on hand below 0 with 400, changing nothing', async () => {
      const before = await database.snapshot();
      const reply = await adjust('ADJ-3', [
        { warehouse_code: 'WH-A', sku: 'SKU-2', delta: -1, reason: 'damaged' },
        { warehouse_code: 'WH-A', sku: 'SKU-2', delta: -3, reason: 'lost' },
        { warehouse_code: 'WH-B', sku: 'SKU-GONE', delta: -1, reason: 'lost' },
      ]);
      expect(reply.status).toBe(400);
      expect(reply.body.parameters).toEqual([
        { fieldName: 'adjustment.items[1].delta', fieldValue: '-3' },
        { fieldName: 'adjustment.items[2].delta', fieldValue: '-1' },
      ]);
      expect(reply.body.errors[0].detail).toBe(
        'adjustment.items[1].delta would take the on hand of WH-A SKU-2 from 2 to -1; it never goes below 0.',
      );
      expect(await database.snapshot()).toEqual(before);
      // Refused, the number is still free.
      const fixed = await adjust('ADJ-3', [
        { warehouse_code: 'WH-A', sku: 'SKU-2', delta: -3, reason: 'lost' },
      ]);
      expect(fixed.status).toBe(201);
      expect(fixed.body.items[0].on_hand).toBe(0);
    });

    it('refuses bad lines with 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [{ warehouse_code: 'WH-A', sku: 'SKU-1', delta: 0, reason: 'lost' }, 'delta'],
        [{ warehouse_code: 'WH-A', sku: 'SKU-1', delta: 1.5, reason: 'lost' }, 'delta'],
        [{ warehouse_code: 'WH-A', sku: 'SKU-1', delta: 1, reason: 'stolen' }, 'reason'],
      ];
      for (const [line, field] of cases) {
        const reply = await adjust('ADJ-BAD', [line as Line]);
        expect(reply.status).toBe(400);
        expect(reply.body.parameters[0].fieldName).toBe(`adjustment.items[0].${field}`);
      }
      const empty = await adjust('ADJ-BAD', []);
      expect(empty.status).toBe(400);
      expect(empty.body.parameters[0].fieldName).toBe('adjustment.items');
    });

    it('takes 10,000 lines in one adjustment, refuses 10,001 naming the list', async () => {
      const lines = (n: number) =>
        Array.from({ length: n }, (_, i) => ({
          warehouse_code: 'WH-B',
          sku: `BULK-${i}`,
          delta: i + 1,
          reason: 'received',
        }));
      const before = await database.snapshot();
      const over = await adjust('ADJ-BULK', lines(10_001));
      expect(over.status).toBe(400);
      expect(over.body.parameters[0].fieldName).toBe('adjustment.items');
      expect(await database.snapshot()).toEqual(before);
      const applied = await adjust('ADJ-BULK', lines(10_000));
      expect(applied.status).toBe(201);
      expect(applied.body.items).toHaveLength(10_000);
      expect(applied.body.items[9_999].on_hand).toBe(10_000);
      expect(await onHand('WH-B', 'BULK-9999')).toBe(10_000);
      expect((await adjust('ADJ-BULK', lines(10_000))).status).toBe(200);
    });

    it('refuses a warehouse unknown or out of the token’s scope with 400 naming the line', async () => {
      const before = await database.snapshot();
      const reply = await adjust(
        'ADJ-4',
        [
          { warehouse_code: 'WH-A', sku: 'SKU-1', delta: 1, reason: 'found' },
          { warehouse_code: 'WH-B', sku: 'SKU-1', delta: 1, reason: 'found' },
          { warehouse_code: 'WH-Z', sku: 'SKU-1', delta: 1, reason: 'found' },
        ],
        SCOPED,
      );
      expect(reply.status).toBe(400);
      expect(reply.body.parameters).toEqual([
        { fieldName: 'adjustment.items[1].warehouse_code', fieldValue: 'WH-B' },
        { fieldName: 'adjustment.items[2].warehouse_code', fieldValue: 'WH-Z' },
      ]);
      // Nor does it read another token's adjustment of a warehouse not its own by repeating it.
      const repeat = await adjust(
        'ADJ-2',
        [{ warehouse_code: 'WH-B', sku: 'SKU-3', delta: -1, reason: 'lost' }],
        SCOPED,
      );
      expect(repeat.status).toBe(400);
      expect(repeat.body.parameters[0].fieldName).toBe('adjustment.items[0].warehouse_code');
      expect(await database.snapshot()).toEqual(before);
    });

    it('refuses a token without the resource with 403 naming it', async () => {
      const reply = await adjust(
        'ADJ-5',
        [{ warehouse_code: 'WH-A', sku: 'SKU-1', delta: 1, reason: 'found' }],
        SYNC_ONLY,
      );
      expect(reply.status).toBe(403);
      expect(reply.body.parameters).toEqual([{ resources: 'Fulfil_Inventory::api_stock_adjust' }]);
    });

    it('reads and answers XML', async () => {
      const reply = await call(server, 'POST', '/V1/stockAdjustments', {
        token: PARTNER,
        accept: 'application/xml',
        xml: '<request><adjustment><adjustment_number>ADJ-XML</adjustment_number><items><item><warehouse_code>WH-B</warehouse_code><sku>SKU-3</sku><delta>-2</delta><reason>returned</reason></item></items></adjustment></request>',
      });
      expect(reply.status).toBe(201);
      expect(reply.text).toContain('<adjustment_number>ADJ-XML</adjustment_number>');
      expect(reply.text).toContain('<delta>-2</delta>');
      expect(reply.text).toContain('<on_hand>1</on_hand>');
      expect(await onHand('WH-B', 'SKU-3')).toBe(1);
    });

    it('of 30 concurrent adjustments of -1 on stock 20, exactly 20 apply', async () => {
      expect(await onHand('WH-B', 'SKU-1')).toBe(20);
      const replies = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          adjust(`RACE-${i}`, [
            { warehouse_code: 'WH-B', sku: 'SKU-1', delta: -1, reason: 'lost' },
          ]),
        ),
      );
      const statuses = replies.map((reply) => reply.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(20);
      expect(statuses.filter((status) => status === 400)).toHaveLength(10);
      expect(await onHand('WH-B', 'SKU-1')).toBe(0);
      // Each applied one saw a different on hand: none was lost or counted twice.
      const left = replies.filter((r) => r.status === 201).map((r) => r.body.items[0].on_hand);
      expect(left.sort((a: number, b: number) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i),
      );
    });

    it('of 10 concurrent repeats of one number, one applies and all answer alike', async () => {
      const start = (await onHand('WH-A', 'SKU-1')) as number;
      const items = [{ warehouse_code: 'WH-A', sku: 'SKU-1', delta: -start, reason: 'counted' }];
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => adjust('ADJ-SAME', items)),
      );
      expect(replies.filter((reply) => reply.status === 201)).toHaveLength(1);
      expect(replies.filter((reply) => reply.status === 200)).toHaveLength(9);
      for (const reply of replies) {
        expect(reply.body.items).toEqual([{ ...items[0], on_hand: 0 }]);
      }
      expect(await onHand('WH-A', 'SKU-1')).toBe(0);
    });
  });
}

it('a store dump carries adjustments: on the moved store a repeat answers the first result', async () => {
  const from = await openSqliteRepository(':memory:');
  const engine = createEngine({ repository: from });
  await engine.loadSeed(seed());
  const adjustment = {
    adjustment_number: 'ADJ-MOVE',
    items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', delta: -4, reason: 'damaged' as const }],
  };
  const first = await engine.adjustStock(engine.operator('default'), { adjustment });
  const text = await dumpText(from);
  await engine.close();

  const to = await importedSqlite(text);
  const moved = createEngine({ repository: to });
  try {
    const again = await moved.adjustStock(moved.operator('default'), { adjustment });
    expect(again).toEqual({ outcome: 'exists', adjustment: first.adjustment });
    const [row] = await moved.listStock('default', { sku: 'SKU-1' });
    expect(row?.on_hand).toBe(6);
  } finally {
    await moved.close();
  }
});
