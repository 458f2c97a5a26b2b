import { expect, test } from 'vitest';
import { advance } from '../http/support.js';
import { adminCall, adminServerPerTest } from './support.js';

/** Returns through the admin API (docs/admin-api.md): an operator opens, lists, cancels. */

const serve = adminServerPerTest();

test('an operator opens a return, finds it by status, cancels it before any receipt; a viewer only reads', async () => {
  const server = await serve();
  const shipped = await advance(server, '100001002-1', 'pending_invoice');
  const item = shipped.items[0];
  const body = {
    rma_number: 'RMA-OPS-1',
    sales_order_number: '100001002',
    items: [
      { fulfillment_order_number: '100001002-1', item_id: item.id, qty: 1, reason: 'wrong_item' },
    ],
  };
  const { secrets } = server;
  const refused = await adminCall(server, 'POST', '/stores/default/returns', {
    secret: secrets.viewer,
    json: body,
  });
  expect(refused.status).toBe(403);
  const opened = await adminCall(server, 'POST', '/stores/default/returns', {
    secret: secrets.operator,
    json: body,
  });
  expect(opened.status).toBe(200);
  expect(opened.body).toMatchObject({ rma_number: 'RMA-OPS-1', status: 'pending_receipt' });
  const bad = await adminCall(server, 'POST', '/stores/default/returns', {
    secret: secrets.operator,
    json: { ...body, rma_number: 'RMA-OPS-2', items: [{ ...body.items[0], reason: 'meh' }] },
  });
  expect(bad.status).toBe(400);
  expect(bad.body.parameters[0].fieldName).toBe('items[0].reason');

  const listed = await adminCall(server, 'GET', '/stores/default/returns?status=pending_receipt', {
    secret: secrets.viewer,
  });
  expect(listed.body.map((r: { rma_number: string }) => r.rma_number)).toEqual(['RMA-OPS-1']);
  const badStatus = await adminCall(server, 'GET', '/stores/default/returns?status=lost', {
    secret: secrets.viewer,
  });
  expect(badStatus.status).toBe(400);

  const canceled = await adminCall(server, 'POST', '/stores/default/returns/RMA-OPS-1/cancel', {
    secret: secrets.operator,
    json: { reason: 'customer kept it' },
  });
  expect(canceled.status).toBe(200);
  expect(canceled.body.status).toBe('canceled');
  const read = await adminCall(server, 'GET', '/stores/default/returns/RMA-OPS-1', {
    secret: secrets.viewer,
  });
  expect(read.body.status).toBe('canceled');
  const missing = await adminCall(server, 'GET', '/stores/default/returns/RMA-NONE', {
    secret: secrets.viewer,
  });
  expect(missing.status).toBe(404);
  // The cancel is on the order's timeline with its reason.
  const detail = await adminCall(server, 'GET', '/stores/default/orders/100001002-1', {
    secret: secrets.viewer,
  });
  const entries = detail.body.timeline.filter((e: { action: string }) =>
    e.action.startsWith('return_'),
  );
  expect(
    entries.map((e: { action: string; reason: string | null }) => [e.action, e.reason]),
  ).toEqual(
    expect.arrayContaining([
      ['return_open', null],
      ['return_cancel', 'customer kept it'],
    ]),
  );
});
