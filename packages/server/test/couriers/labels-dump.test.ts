import { createEngine, createSimulatedCarrier, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { expect, it } from 'vitest';
import { dumpText, importedSqlite } from '../databases/store-dump.js';

it('a store dump carries the labels: they print the same after moving the store', async () => {
  const carrier = createSimulatedCarrier();
  const from = await openSqliteRepository(':memory:');
  const engine = createEngine({
    repository: from,
    clock: new ManualClock('2026-08-01T09:00:00Z'),
    couriers: { fake: carrier.factory },
    carrierAccounts: { fake: { type: 'fake' } },
  });
  await engine.loadSeed({
    stores: [
      {
        code: 'default',
        settings: { courier: { account: 'fake' } },
        warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
        stock: [{ warehouse_code: 'HQ', sku: 'SKU-1', qty: 5 }],
        orders: [fixtures.salesOrder('300', undefined, { warehouse_code: 'HQ' })],
      },
    ],
  });
  const [item] = (await engine.getOrder('default', '300-1')).items;
  await engine.allocate(engine.operator('default'), {
    allocation: { order_id: '300-1', items: [{ item_id: item?.id as number }] },
  });
  await engine.dispatchCourier();
  const labels = await engine.reprintLabel('default', '300-1');
  expect(labels).toHaveLength(1);

  const text = await dumpText(from);
  expect(text).toContain('"table":"courier_labels"');
  await engine.close();

  const to = await importedSqlite(text);
  const moved = createEngine({ repository: to });
  try {
    expect(await moved.reprintLabel('default', '300-1')).toEqual(labels);
  } finally {
    await moved.close();
  }
});
