import { createEngine, type Engine, ManualClock } from '@fulfil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import { adminCall } from '../admin/support.js';
import { databaseKinds, type TestDatabase } from '../databases/open.js';
import { call } from './support.js';

/**
 * The stock history (docs/behaviour.md, Stock; docs/admin-api.md): every absolute set, by a
 * partner's sync or an operator, and every adjustment, with the on hand before and after and
 * who; a refused set leaves none; racing syncs of one row leave a chain of exact figures.
 */

const PARTNER = 'history-partner-0123456789abcdefghijklm';

function seed() {
  return {
    stores: [
      {
        code: 'default',
        warehouses: [{ code: 'WH-A', name: 'A', priority: 10 }],
        stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 }],
        tokens: [{ name: 'partner <b>', token: PARTNER, acl: 'partner' }],
      },
    ],
  };
}

for (const kind of databaseKinds()) {
  describe(`the stock history on ${kind.name}`, () => {
    let database: TestDatabase;
    let engine: Engine;
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    let server: RunningHttpServer;
    let operator: string;
    let viewer: string;
    const sync = (stock_items: unknown[], headers: Record<string, string> = {}) =>
      call(server, 'POST', '/V1/stockItems', { token: PARTNER, json: { stock_items }, headers });
    const history = (sku: string, after?: string) =>
      adminCall(
        server,
        'GET',
        `/stores/default/stock/WH-A/${encodeURIComponent(sku)}/history${after ? `?after=${after}` : ''}`,
        { secret: viewer },
      );

    beforeAll(async () => {
      database = await kind.open();
      engine = createEngine({ repository: database.repository, clock });
      await engine.loadSeed(seed());
      server = await startHttpServer({ engine, log: () => {}, admin: {} });
      operator = (await engine.admin.createOperator({ name: 'oscar', role: 'operator' })).secret;
      viewer = (await engine.admin.createOperator({ name: 'vera', role: 'viewer' })).secret;
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('shows a sync, an operator set and an adjustment, newest first, with who and why', async () => {
      const synced = await sync([{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 12 }], {
        'x-request-id': 'req-sync-1',
      });
      expect(synced.status).toBe(200);
      clock.advance(1000);
      const set = await adminCall(server, 'PUT', '/stores/default/stock/WH-A/SKU-1', {
        secret: operator,
        json: { on_hand: 7, change_from: 12 },
      });
      expect(set.status).toBe(200);
      clock.advance(1000);
      const adjusted = await call(server, 'POST', '/V1/stockAdjustments', {
        token: PARTNER,
        json: {
          adjustment: {
            adjustment_number: 'ADJ-1',
            items: [{ warehouse_code: 'WH-A', sku: 'SKU-1', delta: -2, reason: 'damaged' }],
          },
        },
      });
      expect(adjusted.status).toBe(201);

      const read = await history('SKU-1');
      expect(read.status).toBe(200);
      expect(read.body.next).toBeNull();
      expect(read.body.items).toHaveLength(3);
      const [adjustment, adminSet, syncSet] = read.body.items;
      expect(adjustment).toMatchObject({
        kind: 'adjustment',
        delta: -2,
        on_hand_after: 5,
        reason: 'damaged',
        by: 'partner <b>',
        adjustment_number: 'ADJ-1',
      });
      expect(adminSet).toMatchObject({
        kind: 'set',
        delta: -5,
        on_hand_before: 12,
        on_hand_after: 7,
        by: 'oscar',
        source: 'admin',
      });
      expect(syncSet).toMatchObject({
        kind: 'set',
        delta: 2,
        on_hand_before: 10,
        on_hand_after: 12,
        by: 'partner <b>',
        source: 'stock_items',
        request_id: 'req-sync-1',
      });
      expect(syncSet.at).toBe('2026-05-01 10:00:00');
      expect(adjustment.at).toBe('2026-05-01 10:00:02');
      // A sku never written has an empty history; a viewer reads it, a missing login does not.
      expect((await history('NEVER')).body).toEqual({ items: [], next: null });
      const anonymous = await adminCall(server, 'GET', '/stores/default/stock/WH-A/SKU-1/history');
      expect(anonymous.status).toBe(401);
      expect((await history('SKU-1', 'not-a-cursor')).status).toBe(400);
    });

    it('keeps no history of a refused set', async () => {
      const before = (await history('SKU-1')).body.items.length;
      const stale = await sync([{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1, change_from: 99 }]);
      expect(stale.status).toBe(409);
      const invalid = await sync([{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: -1 }]);
      expect(invalid.status).toBe(400);
      const refused = await adminCall(server, 'PUT', '/stores/default/stock/WH-A/SKU-1', {
        secret: operator,
        json: { on_hand: 3, change_from: 99 },
      });
      expect(refused.status).toBe(409);
      expect((await history('SKU-1')).body.items).toHaveLength(before);
    });

    it('chains the figures of racing syncs exactly, and pages them newest first', async () => {
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          sync([{ warehouse_code: 'WH-A', sku: 'SKU-RACE', qty: index + 1 }]),
        ),
      );
      expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(200));
      const sets = [];
      let after: string | undefined;
      do {
        const page = await history('SKU-RACE', after);
        expect(page.status).toBe(200);
        sets.push(...page.body.items);
        after = page.body.next ?? undefined;
      } while (after);
      expect(sets).toHaveLength(20);
      const oldestFirst = sets.reverse();
      expect(oldestFirst[0].on_hand_before).toBe(0);
      for (let i = 1; i < oldestFirst.length; i++) {
        expect(oldestFirst[i].on_hand_before).toBe(oldestFirst[i - 1].on_hand_after);
      }
      expect(new Set(oldestFirst.map((set) => set.on_hand_after)).size).toBe(20);
      const rows = await engine.listStock('default', { sku: 'SKU-RACE' });
      expect(rows[0]?.on_hand).toBe(oldestFirst[19].on_hand_after);
    });
  });
}
