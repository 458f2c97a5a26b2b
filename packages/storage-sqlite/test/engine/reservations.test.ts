import { createEngine, DomainError, type OperatorPrincipal } from '@fulfil/core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/index.js';
import { salesOrder } from './harness.js';

/** The reservation check and its fix (docs/admin-api.md). */

const operator: OperatorPrincipal = {
  name: 'oscar',
  role: 'operator',
  store_code: null,
  request_id: 'r-1',
};

describe('the reservation check', () => {
  it('finds reserved stock that differs from the open lines holding it, and the fix sets it right, audited', async () => {
    const repository = await openSqliteRepository(':memory:');
    const engine = createEngine({ repository });
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          warehouses: [{ code: 'WH-A', name: 'A' }],
          stock: [
            { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 10 },
            { warehouse_code: 'WH-A', sku: 'SKU-2', qty: 10 },
          ],
        },
      ],
    });
    const [order] = await engine.intake('default', salesOrder('500', [{ sku: 'SKU-1', qty: 3 }]));
    const item = order?.items[0];
    await engine.accept(engine.operator('default'), {
      order: {
        order_id: order?.fulfillment_order_number as string,
        items: [{ item_id: item?.id as number, qty: 3 }],
      },
    });
    const admin = engine.admin;
    expect(await admin.checkReservations(operator, 'default')).toEqual({
      mismatches: [],
      quarantine: [],
    });

    // Drift, as a bug or a hand edit of the database would leave it.
    await sql`update stock set reserved = reserved + 4 where sku = 'SKU-1'`.execute(repository.db);
    await sql`update stock set reserved = 2 where sku = 'SKU-2'`.execute(repository.db);
    const expected = [
      { warehouse_code: 'WH-A', sku: 'SKU-1', reserved: 7, expected: 3 },
      { warehouse_code: 'WH-A', sku: 'SKU-2', reserved: 2, expected: 0 },
    ];
    expect(await admin.checkReservations(operator, 'default')).toEqual({
      mismatches: expected,
      quarantine: [],
    });

    const viewer = { ...operator, role: 'viewer' as const };
    await expect(admin.fixReservations(viewer, 'default', {})).rejects.toBeInstanceOf(DomainError);
    expect((await admin.checkReservations(operator, 'default')).mismatches).toHaveLength(2);

    expect(await admin.fixReservations(operator, 'default', { reason: 'drift' })).toEqual({
      fixed: expected,
      quarantine_fixed: [],
    });
    expect(await admin.checkReservations(operator, 'default')).toEqual({
      mismatches: [],
      quarantine: [],
    });
    const stock = await engine.listStock('default');
    expect(stock.map(({ sku, on_hand, reserved }) => ({ sku, on_hand, reserved }))).toEqual([
      { sku: 'SKU-1', on_hand: 10, reserved: 3 },
      { sku: 'SKU-2', on_hand: 10, reserved: 0 },
    ]);
    const audit = await sql<{ actor: string; action: string; reason: string; request_id: string }>`
      select actor, action, reason, request_id from store_audit`.execute(repository.db);
    expect(audit.rows).toEqual([
      { actor: 'oscar', action: 'fix_reservations', reason: 'drift', request_id: 'r-1' },
    ]);
    // Fixing again changes nothing and records nothing.
    expect(await admin.fixReservations(operator, 'default', {})).toEqual({
      fixed: [],
      quarantine_fixed: [],
    });
    await engine.close();
  });
});
