import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  byPriority,
  defaultRouter,
  type RoutingContext,
  rerouteTarget,
  type SalesOrder,
  type Warehouse,
} from '../../src/index.js';
import { greedyRerouteTarget, greedyRouter } from '../support/greedy-router.js';
import { line } from '../support/order.js';

/**
 * The default rules decide exactly as routing did before rules were data: the engine behind
 * `defaultRouter` and `rerouteTarget` against that routing, kept word for word
 * (support/greedy-router.ts), on random stores, stock and orders.
 */

const CODES = ['WH-A', 'WH-B', 'WH-C', 'WH-D', 'WH-E', 'WH-F'];
const SKUS = ['S1', 'S2', 'S3', 'S4', 'S5', 'S6', 'S7'];

const store = fc
  .record({
    warehouses: fc.uniqueArray(
      fc.record({
        code: fc.constantFrom(...CODES),
        priority: fc.integer({ min: 0, max: 3 }),
        active: fc.boolean(),
      }),
      { minLength: 1, maxLength: CODES.length, selector: (warehouse) => warehouse.code },
    ),
    // Negative: more reserved than on hand, as after a stock count.
    stock: fc.dictionary(
      fc.tuple(fc.constantFrom(...CODES), fc.constantFrom(...SKUS)).map(([w, s]) => `${w}/${s}`),
      fc.integer({ min: -2, max: 6 }),
    ),
  })
  .map(({ warehouses, stock }): RoutingContext => {
    const all: Warehouse[] = warehouses.map((warehouse) => ({
      store_id: 1,
      name: warehouse.code,
      fulfilled_by: 'partner',
      ...warehouse,
    }));
    return {
      warehouses: byPriority(all),
      available: (code, sku) => stock[`${code}/${sku}`] ?? 0,
    };
  });

const lines = fc.uniqueArray(
  fc.record({ sku: fc.constantFrom(...SKUS), qty: fc.integer({ min: 1, max: 4 }) }),
  { minLength: 1, maxLength: 6, selector: (entry) => entry.sku },
);

const order = (items: { sku: string; qty: number }[], warehouse_code: string | undefined) =>
  ({ warehouse_code, items }) as unknown as SalesOrder;

describe('the default rules reproduce routing before rules were data', () => {
  it('defaultRouter: the same fulfillment orders, in the same order, as the greedy router', () => {
    fc.assert(
      fc.property(store, lines, fc.nat(), fc.boolean(), (context, items, pick, pinned) => {
        const codes = context.warehouses.map((warehouse) => warehouse.code);
        const warehouseCode = pinned && codes.length > 0 ? codes[pick % codes.length] : undefined;
        const expected = (() => {
          try {
            return greedyRouter(items, warehouseCode ?? null, context);
          } catch (error) {
            return (error as Error).message;
          }
        })();
        const actual = (() => {
          try {
            return defaultRouter(order(items, warehouseCode), context);
          } catch (error) {
            return (error as Error).message;
          }
        })();
        expect(actual).toEqual(expected);
      }),
      { numRuns: 2_000 },
    );
  });

  it('rerouteTarget: the same warehouse as before, or none', () => {
    fc.assert(
      fc.property(
        store,
        fc.constantFrom(...SKUS),
        fc.integer({ min: 1, max: 4 }),
        fc.subarray(CODES),
        (context, sku, qty, rejected_by) => {
          const item = line(1, { sku, qty, rejected_by });
          expect(rerouteTarget(item, context)?.code ?? null).toBe(
            greedyRerouteTarget(item, context)?.code ?? null,
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
