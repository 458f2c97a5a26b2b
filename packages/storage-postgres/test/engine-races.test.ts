import { randomBytes } from 'node:crypto';
import { createEngine, DomainError, type Engine } from '@fulfil/core';
import { fixtures, skipUnless } from '@fulfil/core/testing';
import { openPostgresRepository } from '@fulfil/storage-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const url = process.env.FULFIL_TEST_POSTGRES_URL;

/**
 * Races the engine's own guards on Postgres, where transactions run at read committed and two
 * engines (two processes) share one database.
 */
if (url) {
  describe('engine races on Postgres', () => {
    const schema = `fulfil_race_${process.pid}_${randomBytes(4).toString('hex')}`;
    let engines: Engine[];

    beforeAll(async () => {
      engines = [
        createEngine({
          repository: await openPostgresRepository({ connectionString: url, schema }),
        }),
        createEngine({
          repository: await openPostgresRepository({ connectionString: url, schema }),
        }),
      ];
      await engines[0]?.loadSeed({
        stores: [{ code: 'default', warehouses: [{ code: 'WH-A', name: 'A' }] }],
      });
    });

    afterAll(async () => {
      await Promise.all(engines.map((engine) => engine.close()));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    });

    it('one sales order taken in by 10 racing intakes becomes one fulfillment order', async () => {
      for (let round = 0; round < 5; round++) {
        const number = `9000${round}`;
        const order = fixtures.salesOrder(number, undefined, { warehouse_code: 'WH-A' });
        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => engines[i % 2]?.intake('default', order)),
        );
        const created = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        expect(created).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') {
            expect(outcome.reason).toBeInstanceOf(DomainError);
            expect((outcome.reason as DomainError).code).toBe('already_exists');
          }
        }
        await expect(engines[0]?.getOrder('default', `${number}-2`)).rejects.toMatchObject({
          code: 'not_found',
        });
      }
    });

    it('two importers and live intakes racing on the same sales orders take each in once', async () => {
      const numbers = Array.from({ length: 300 }, (_, i) => `91${String(i).padStart(4, '0')}`);
      const orders = numbers.map((number) =>
        fixtures.salesOrder(number, undefined, { warehouse_code: 'WH-A' }),
      );
      const [first, second, ...single] = await Promise.all([
        engines[0]?.intakeBatch('default', orders),
        engines[1]?.intakeBatch('default', [...orders].reverse()),
        ...orders
          .filter((_, i) => i % 30 === 7)
          .map((order, i) =>
            engines[i % 2]?.intake('default', order).then(
              (created) => created.map((fulfillment) => fulfillment.fulfillment_order_number),
              (error: DomainError) => error.code,
            ),
          ),
      ]);
      const created = new Map<string, string[]>();
      for (const outcome of [...(first ?? []), ...(second ?? [])]) {
        if (outcome.outcome === 'refused') throw outcome.error;
        if (outcome.outcome !== 'created') continue;
        created.set(outcome.sales_order_number, [
          ...(created.get(outcome.sales_order_number) ?? []),
          ...outcome.fulfillment_orders.map((order) => order.fulfillment_order_number),
        ]);
      }
      for (const result of single) {
        if (!Array.isArray(result)) {
          expect(result).toBe('already_exists');
          continue;
        }
        const number = result[0]?.replace(/-1$/, '') ?? '';
        created.set(number, [...(created.get(number) ?? []), ...result]);
      }
      // Each sales order became exactly one fulfillment order, `<n>-1`, whoever took it in.
      expect([...created.keys()].sort()).toEqual(numbers);
      for (const [number, made] of created) expect(made).toEqual([`${number}-1`]);
      await expect(engines[1]?.getOrder('default', `${numbers[7]}-2`)).rejects.toMatchObject({
        code: 'not_found',
      });
    });

    it('a store code holding NUL is refused before storage, as an unknown store', async () => {
      await expect(engines[0]?.authenticate('de\u0000fault', 'x'.repeat(40))).rejects.toMatchObject(
        {
          code: 'unauthenticated',
        },
      );
    });

    it('a NUL inside a request value is a 400 naming the field, not a database error', async () => {
      const operator = engines[0]?.operator('default');
      await expect(
        engines[0]?.accept(operator as never, {
          order: { order_id: 'X\u0000', items: [{ item_id: 1, qty: 1 }] },
        }),
      ).rejects.toMatchObject({
        code: 'invalid_request',
        parameters: [{ fieldName: 'order.order_id' }],
      });
    });
  });
} else {
  it('engine races on Postgres', skipUnless(url, 'FULFIL_TEST_POSTGRES_URL is not set'), () => {});
}
