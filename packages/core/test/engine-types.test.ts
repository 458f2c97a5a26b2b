import { describe, expectTypeOf, it } from 'vitest';
import type { AcceptInput, Engine, SalesOrderInput, SeedInput, unverified } from '../src/index.js';

/** Compile-time checks (tsc runs over the tests): the engine's methods take what callers send. */
describe('the engine is typed with the input types', () => {
  it('accepts a well-typed body, an unverified one, and refuses a mistyped one at compile time', () => {
    expectTypeOf<AcceptInput>().toExtend<Parameters<Engine['accept']>[1]>();
    expectTypeOf<ReturnType<typeof unverified>>().toExtend<Parameters<Engine['accept']>[1]>();
    expectTypeOf<SalesOrderInput>().toExtend<Parameters<Engine['intake']>[1]>();
    expectTypeOf<SeedInput>().toExtend<Parameters<Engine['loadSeed']>[0]>();
    // order_id may be a number (read as its decimal text); item_id may not be text.
    expectTypeOf({
      order: { order_id: 7, items: [{ item_id: 1, qty: 1 }] },
    }).toExtend<AcceptInput>();
    expectTypeOf({
      order: { order_id: '7', items: [{ item_id: '1', qty: 1 }] },
    }).not.toExtend<AcceptInput>();
    expectTypeOf({
      stores: [{ code: 'x', warehouses: [{ code: 'W', name: 'W', fulfilled_by: 'truck' }] }],
    }).not.toExtend<SeedInput>();
  });
});
