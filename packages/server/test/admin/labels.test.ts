import { createSimulatedCarrier } from '@fulfil/core';
import { expect, test } from 'vitest';
import { adminCall, adminServerPerTest, allocatedCourierOrder, login } from './support.js';

const serve = adminServerPerTest();

test('an operator reads an order’s labels through the admin API, to print again (docs/couriers.md)', async () => {
  const server = await serve();
  const number = await allocatedCourierOrder(server.engine, '555', 'SKU-1');
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

test('a shipped order shows its last courier error as history, on the timeline, not as its state', async () => {
  let calls = 0;
  const carrier = createSimulatedCarrier({ faults: () => (calls++ === 0 ? 'refuse' : null) });
  const server = await serve({ engine: { couriers: { simulated: carrier.factory } } });
  const number = await allocatedCourierOrder(server.engine, '556');
  expect((await server.engine.dispatchCourier()).retrying).toEqual([number]);
  const retrying = await adminCall(server, 'GET', `/stores/default/orders/${number}`, {
    secret: server.secrets.viewer,
  });
  // While the courier is still at it, the error is the order's state.
  expect(retrying.body.courier).toMatchObject({
    attempts: 1,
    last_error: expect.stringContaining('permanent'),
    next_attempt_at: expect.any(String),
  });
  server.clock.advance(60_000);
  expect((await server.engine.dispatchCourier()).shipped).toEqual([number]);
  const shipped = await adminCall(server, 'GET', `/stores/default/orders/${number}`, {
    secret: server.secrets.viewer,
  });
  expect(shipped.body.order.status).toBe('pending_invoice');
  expect(shipped.body.courier).toEqual({ attempts: 2, last_error: null, next_attempt_at: null });
  expect((await server.engine.getOrderHistory('default', number)).courier).toEqual(
    shipped.body.courier,
  );
  const retry = shipped.body.timeline.find((e: { action: string }) => e.action === 'courier_retry');
  expect(retry.details.error).toBe(retrying.body.courier.last_error);
});
