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

test('the returns of one sales order, as the order page lists them: no other, in the status asked', async () => {
  const server = await serve();
  const open = async (salesOrder: string, rma: string) => {
    const shipped = await advance(server, `${salesOrder}-1`, 'pending_invoice');
    const item = shipped.items[0];
    const opened = await adminCall(server, 'POST', '/stores/default/returns', {
      secret: server.secrets.operator,
      json: {
        rma_number: rma,
        sales_order_number: salesOrder,
        items: [
          {
            fulfillment_order_number: `${salesOrder}-1`,
            item_id: item.id,
            qty: 1,
            reason: 'damaged',
          },
        ],
      },
    });
    expect(opened.status).toBe(200);
  };
  await open('100001001', 'RMA-A');
  await open('100001002', 'RMA-B');
  const rmas = async (query: string) => {
    const listed = await adminCall(server, 'GET', `/stores/default/returns?${query}`, {
      secret: server.secrets.viewer,
    });
    expect(listed.status).toBe(200);
    return listed.body.map((r: { rma_number: string }) => r.rma_number);
  };
  expect(await rmas('')).toEqual(['RMA-A', 'RMA-B']);
  expect(await rmas('sales_order_number=100001002')).toEqual(['RMA-B']);
  expect(await rmas('sales_order_number=100001002&status=pending_receipt')).toEqual(['RMA-B']);
  expect(await rmas('sales_order_number=100001002&status=credited')).toEqual([]);
  expect(await rmas('sales_order_number=999')).toEqual([]);
  const empty = await adminCall(server, 'GET', '/stores/default/returns?sales_order_number=', {
    secret: server.secrets.viewer,
  });
  expect(empty.status).toBe(400);
});
