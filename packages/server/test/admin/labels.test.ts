import { fixtures } from '@fulfil/core/testing';
import { expect, test } from 'vitest';
import { adminCall, adminServerPerTest, login } from './support.js';

const serve = adminServerPerTest();

test('an operator reads an order’s labels through the admin API, to print again (docs/couriers.md)', async () => {
  const server = await serve();
  const [order] = await server.engine.intake(
    'default',
    fixtures.salesOrder('555', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'COURIER' }),
  );
  const number = order?.fulfillment_order_number as string;
  await server.engine.allocate(server.engine.operator('default'), {
    allocation: { order_id: number, items: [{ item_id: order?.items[0]?.id as number }] },
  });
  expect((await server.engine.dispatchCourier()).shipped).toEqual([number]);
  const { session } = await login(server, 'vera', server.secrets.viewer);
  const read = await adminCall(server, 'GET', `/stores/default/orders/${number}/labels`, {
    session,
  });
  expect(read.status).toBe(200);
  expect(read.body.labels).toEqual(await server.engine.listLabels('default', number));
  expect(read.body.labels.map((l: { status: string }) => l.status)).toEqual(['live']);
  // An operator of another store sees nothing of it.
  const other = await login(server, 'otto', server.secrets.otherOperator);
  const refused = await adminCall(server, 'GET', `/stores/default/orders/${number}/labels`, {
    session: other.session,
  });
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.body.labels).toBeUndefined();
});
