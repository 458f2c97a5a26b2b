import {
  type BulkOutcome,
  createEngine,
  type Engine,
  ManualClock,
  type Repository,
} from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from '../databases/open.js';

/**
 * docs/admin-api.md: a bulk acts on an order only if the order still matches the filter, checked
 * in the order's own transaction with the order locked. A partner accepting orders of a bulk
 * cancel over `queue=pending_accept` while it runs never has an accepted order canceled.
 */

const PARTNER = 'bulk-race-partner-secret-0123456789abcdef';
const ORDERS = 40;
/** Accepted after the bulk resolved its filter and before it acts: the race, every time. */
const BETWEEN = 10;
/** Accepted while the bulk runs, as it happens. */
const DURING = 20;

/**
 * The repository, with `afterFirstRead` run (and awaited) once a read transaction has ended:
 * the moment the bulk has resolved its filter.
 */
function withHook(repository: Repository, hook: { afterRead?: () => Promise<void> }): Repository {
  return new Proxy(repository, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== 'transaction')
        return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<Repository['transaction']>) => {
        const result = await target.transaction(...args);
        const after = args[1] === 'read' ? hook.afterRead : undefined;
        if (after) {
          hook.afterRead = undefined;
          await after();
        }
        return result;
      };
    },
  });
}

async function seed(engine: Engine) {
  await engine.loadSeed({
    stores: [
      {
        code: 'default',
        warehouses: [{ code: 'WH-A', name: 'Partner A', fulfilled_by: 'partner' }],
        stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 1000 }],
        tokens: [{ name: 'partner', token: PARTNER, acl: 'partner', warehouses: ['WH-A'] }],
        orders: Array.from({ length: ORDERS }, (_, i) =>
          fixtures.salesOrder(`9${String(i).padStart(5, '0')}`, [{ sku: 'SKU-1', qty: 1 }], {
            warehouse_code: 'WH-A',
          }),
        ),
      },
    ],
  });
}

describe.each(databaseKinds())('a bulk cancel while a partner accepts ($name)', (kind) => {
  it('cancels no accepted order, and reports each as skipped: no longer matches the filter', async () => {
    const db = await kind.open();
    const hook: { afterRead?: () => Promise<void> } = {};
    const engine = createEngine({
      repository: withHook(db.repository, hook),
      clock: new ManualClock('2026-05-01T10:00:00Z'),
    });
    try {
      await seed(engine);
      const partner = await engine.authenticate('default', PARTNER);
      const { secret } = await engine.admin.createOperator({ name: 'oscar', role: 'operator' });
      const operator = await engine.admin.authenticateOperator(secret);
      const orders = (await engine.poll(partner, 'pending_accept')).map((order) => ({
        number: order.fulfillment_order_number,
        items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
      }));
      expect(orders).toHaveLength(ORDERS);
      /** The orders whose accept the partner was answered 200 for. */
      const accepted = new Set<string>();
      const accept = async ({ number, items }: (typeof orders)[number]) => {
        try {
          await engine.accept(partner, { order: { order_id: number, items } });
          accepted.add(number);
        } catch {
          // Canceled first: the partner is told 400, and the order is not its to ship.
        }
      };
      hook.afterRead = async () => {
        for (const order of orders.slice(0, BETWEEN)) await accept(order);
      };
      const [bulk] = await Promise.all([
        engine.admin.bulk(operator, 'default', 'cancel', {
          filter: { queue: 'pending_accept' },
          dry_run: false,
          reason: 'store closed',
        }),
        ...orders.slice(BETWEEN, BETWEEN + DURING).map(accept),
      ]);
      if (!('results' in bulk)) throw new Error('the bulk ran dry');
      const outcomes = new Map(bulk.results.map((result) => [result.order, result]));
      expect(outcomes.size).toBe(ORDERS);
      for (const { number } of orders.slice(0, BETWEEN)) expect(accepted).toContain(number);
      for (const { number } of orders) {
        const { order } = await engine.getOrderHistory('default', number);
        const outcome = outcomes.get(number) as BulkOutcome;
        if (accepted.has(number)) {
          expect(order.status, number).toBe('pending_allocation');
          expect(outcome, number).toEqual({
            order: number,
            outcome: 'skipped',
            reason: 'No longer matches the filter.',
          });
        } else {
          expect(order.status, number).toBe('canceled');
          expect(outcome, number).toEqual({ order: number, outcome: 'done' });
        }
      }
    } finally {
      await db.drop();
    }
  });
});
