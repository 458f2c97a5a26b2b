import { DomainError, type OperatorPrincipal } from '@fulfil/core';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseKinds, type TestDatabase } from '../databases/open.js';

/**
 * docs/admin-api.md: a warehouse's safety stock is its default, a sku's own overrides it, set
 * beside the on hand; the stock list shows the one in effect and available without it.
 */

const operator: OperatorPrincipal = {
  name: 'oscar',
  role: 'operator',
  store_code: null,
  request_id: 'r-1',
};

async function refusal(run: Promise<unknown>): Promise<DomainError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

for (const kind of databaseKinds()) {
  describe(`safety stock in the admin API on ${kind.name}`, () => {
    let database: TestDatabase | undefined;
    afterEach(async () => {
      await database?.drop();
      database = undefined;
    });

    it('is set per warehouse and per sku (admin API, seed file), cleared with null, shown in effect; bad values are 400 naming the field and change nothing', async () => {
      database = await kind.open();
      const { engine } = database;
      const admin = engine.admin;
      await engine.loadSeed({
        stores: [
          {
            code: 'default',
            warehouses: [{ code: 'WH-A', name: 'A', safety_stock: 3 }],
            stock: [
              { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
              { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 2, safety_stock: 1 },
            ],
          },
        ],
      });
      const rows = async () =>
        (await admin.listStock(operator, 'default', {})).items.map(
          ({ sku, on_hand, safety_stock, available }) => ({
            sku,
            on_hand,
            safety_stock,
            available,
          }),
        );
      expect(await rows()).toEqual([
        { sku: 'SKU-1', on_hand: 10, safety_stock: 3, available: 7 },
        { sku: 'SKU-2', on_hand: 2, safety_stock: 1, available: 1 },
      ]);
      expect(await engine.listStock('default')).toMatchObject([
        { sku: 'SKU-1', safety_stock: 3, available: 7 },
        { sku: 'SKU-2', safety_stock: 1, available: 1 },
      ]);

      // Safety stock alone leaves the on hand; a sku's own may exceed it: available goes negative.
      const set = await admin.setOnHand(operator, 'default', 'WH-A', 'SKU-1', { safety_stock: 12 });
      expect(set).toMatchObject({ on_hand: 10, reserved: 0, safety_stock: 12, available: -2 });
      await admin.setOnHand(operator, 'default', 'WH-A', 'SKU-2', {
        on_hand: 5,
        safety_stock: null,
      });
      expect(await rows()).toEqual([
        { sku: 'SKU-1', on_hand: 10, safety_stock: 12, available: -2 },
        { sku: 'SKU-2', on_hand: 5, safety_stock: 3, available: 2 },
      ]);

      // A seed file run again keeps a row's own safety stock; with resetStock it sets it.
      const again = {
        stores: [
          {
            code: 'default',
            warehouses: [{ code: 'WH-A', name: 'A' }],
            stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10, safety_stock: 5 }],
          },
        ],
      };
      await engine.loadSeed(again);
      expect((await rows())[0]).toMatchObject({ sku: 'SKU-1', safety_stock: 12 });
      await engine.loadSeed(again, { resetStock: true });
      expect((await rows())[0]).toMatchObject({ sku: 'SKU-1', safety_stock: 5, available: 5 });

      const before = await database.snapshot();
      const refusals: [unknown, string][] = [
        [{ safety_stock: -1 }, 'safety_stock'],
        [{ safety_stock: 2.5 }, 'safety_stock'],
        [{ safety_stock: '4' }, 'safety_stock'],
        [{ on_hand: 1, safety_stock: 1_000_000_001 }, 'safety_stock'],
        [{}, 'on_hand'],
        [{ safety_stock: 1, change_from: 10 }, 'change_from'],
      ];
      for (const [body, field] of refusals) {
        const error = await refusal(admin.setOnHand(operator, 'default', 'WH-A', 'SKU-1', body));
        expect(error.code, JSON.stringify(body)).toBe('invalid_request');
        expect(error.parameters.map((parameter) => parameter.fieldName)).toContain(field);
      }
      const warehouse = await refusal(
        admin.putWarehouse({ ...operator, role: 'admin' }, 'default', 'WH-A', {
          name: 'A',
          safety_stock: -1,
        }),
      );
      expect(warehouse.parameters.map((parameter) => parameter.fieldName)).toContain(
        'safety_stock',
      );
      expect(await database.snapshot()).toEqual(before);
    });
  });
}
