import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { domainError, fieldNames, type Harness, openHarness, salesOrder } from './harness.js';

/**
 * Issue 16, item 6 (docs/behaviour.md): a string that is not well-formed Unicode is refused,
 * naming its field, in every input of the engine: intake, seed, operator and public actions.
 * Nothing is stored, so nothing is stored altered.
 */
describe('docs/behaviour.md: lone surrogates are refused in every input', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness();
  });
  afterEach(() => h.engine.close());

  it('intake: a sku, a name or a field name with a lone surrogate → invalid_request naming it; nothing taken in', async () => {
    const before = await h.snapshot();
    const order = salesOrder('950', [
      { sku: 'SKU-1', qty: 1 },
      { sku: 'LONE\ud800', qty: 1, name: 'Lone' },
    ]);
    const error = await domainError(h.engine.intake('default', order));
    expect(error.code).toBe('invalid_request');
    expect(error.parameters).toEqual([{ fieldName: 'items[1].sku', fieldValue: 'LONE\\uD800' }]);

    const named = { ...salesOrder('951'), customer_firstname: 'Ada\udc00' };
    expect(fieldNames(await domainError(h.engine.intake('default', named)))).toEqual([
      'customer_firstname',
    ]);
    const keyed = { ...salesOrder('952'), 'note\ud800': 'x' };
    expect(fieldNames(await domainError(h.engine.intake('default', keyed)))).toEqual([
      'note\\uD800',
    ]);
    const batch = await h.engine.intakeBatch('default', [salesOrder('953'), order]);
    expect(batch.map((result) => result.outcome)).toEqual(['created', 'refused']);
    expect(await h.engine.getOrder('default', '953-1')).toMatchObject({ status: 'pending_accept' });
    expect((await domainError(h.engine.getOrder('default', '950-1'))).code).toBe('not_found');

    // Only 953 went in.
    const after = await h.snapshot();
    expect(after.fulfillment_orders?.length).toBe((before.fulfillment_orders?.length ?? 0) + 1);
  });

  it('seed, store and operator inputs refuse them too, naming the path', async () => {
    const before = await h.snapshot();
    const seed = await domainError(
      h.engine.loadSeed({
        stores: [
          {
            code: 'default',
            stock: [{ warehouse_code: 'WH-A', sku: 'LONE\ud800', qty: 1 }],
          },
        ],
      }),
    );
    expect(seed.code).toBe('invalid_seed');
    expect(fieldNames(seed)).toEqual(['stores[0].stock[0].sku']);
    const warehouse = await domainError(
      h.engine.upsertWarehouse('default', { code: 'WH-\ud800', name: 'x' }),
    );
    expect(fieldNames(warehouse)).toEqual(['code']);
    const token = await domainError(
      h.engine.createToken('default', { name: 'ops\udfff', acl: 'all' }),
    );
    expect(fieldNames(token)).toEqual(['name']);
    const [created] = await h.engine.intake('default', salesOrder('960'));
    const snapshot = await h.snapshot();
    const fail = await domainError(
      h.engine.failOrder('default', created?.fulfillment_order_number as string, 'why\ud800'),
    );
    expect(fieldNames(fail)).toEqual(['reason']);
    // The operator's lookups by plain argument: a database would read the lone surrogate as
    // U+FFFD and could find another order, token or sku than the one named.
    const number = `${created?.fulfillment_order_number}\ud800`;
    for (const [lookup, field] of [
      [() => h.engine.getOrder('default', number), 'number'],
      [() => h.engine.getOrderHistory('default', number), 'number'],
      [() => h.engine.cancelOrder('default', number), 'number'],
      [() => h.engine.failOrder('default', number, 'why'), 'number'],
      [
        () => h.engine.correctTracks('default', number, { shipment: 1, tracks: [], reason: 'r' }),
        'number',
      ],
      [() => h.engine.revokeToken('default', 'partner-a\udc00'), 'name'],
      [() => h.engine.listStock('default', { sku: 'SKU-1\ud800' }), 'sku'],
    ] as const) {
      const error = await domainError(lookup);
      expect({ code: error.code, fields: fieldNames(error) }).toEqual({
        code: 'invalid_request',
        fields: [field],
      });
    }
    expect(await h.snapshot()).toEqual(snapshot);
    // The refused seed wrote no stock: only the intake of 960 in between moved it, by reserving
    // its line when it was routed.
    const withoutReserved = (rows: unknown[] | undefined) =>
      rows?.map((row) => ({ ...(row as Record<string, unknown>), reserved: undefined }));
    expect(withoutReserved(before.stock)).toEqual(withoutReserved(snapshot.stock));
    // A secret with a lone surrogate is no token's.
    expect((await domainError(h.engine.authenticate('default', 'x\ud800'.repeat(20)))).code).toBe(
      'unauthenticated',
    );
  });

  it('stock sync: skus that differ only in a lone surrogate never collide: both refused', async () => {
    const before = await h.snapshot();
    const error = await domainError(
      h.engine.syncStock(h.partnerA, {
        stock_items: [
          { warehouse_code: 'WH-A', sku: 'LONE\ud800', qty: 1 },
          { warehouse_code: 'WH-A', sku: 'LONE\ud801', qty: 2 },
        ],
      }),
    );
    expect(error.code).toBe('invalid_stock_batch');
    expect(fieldNames(error)).toEqual(['stock_items[0].sku', 'stock_items[1].sku']);
    expect(await h.snapshot()).toEqual(before);
  });
});
