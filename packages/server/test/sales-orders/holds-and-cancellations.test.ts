import { fixtures } from '@fulfil/core/testing';
import { expect, test } from 'vitest';
import { call, serverPerTest, type TestServer } from '../http/support.js';

/**
 * Holds and cancellation requests over HTTP (docs/channel-guide.md, docs/partner-guide.md): a
 * channel holds, releases and cancels; the partner that accepted the lines answers the request,
 * or ships them, which rejects it. Every refusal is 400 in JSON and in XML and changes nothing.
 */

const { channel: CHANNEL, partner: PARTNER, erp: ERP } = fixtures.SEED_TOKENS;
const XML = 'application/xml';

const start = serverPerTest();

function startServer(): Promise<TestServer> {
  return start({
    seed: fixtures.seed({ settings: { partial_items: true, partial_qty: false, reroute: false } }),
  });
}

interface Line {
  item_id: number;
  qty: number;
}

/** Takes a sales order of SKU-1 × 2 and SKU-2 × 1 in; its fulfillment order and lines. */
async function takeIn(server: TestServer, number: string) {
  const created = await call(server, 'POST', '/V1/salesOrders', {
    token: CHANNEL,
    json: {
      sales_order: fixtures.salesOrder(number, [
        { sku: 'SKU-1', qty: 2 },
        { sku: 'SKU-2', qty: 1 },
      ]),
    },
  });
  expect(created.status, created.text).toBe(201);
  const fo = created.body.fulfillment_orders[0];
  const lines: Line[] = fo.items.map((item: { id: number; qty: number }) => ({
    item_id: item.id,
    qty: item.qty,
  }));
  return { number: fo.fulfillment_order_number as string, lines };
}

async function post(server: TestServer, path: string, token: string, json: unknown) {
  return call(server, 'POST', path, { token, json });
}

async function act(server: TestServer, action: string, token: string, json: unknown) {
  const reply = await post(server, `/V1/fulfillmentOrder/${action}`, token, json);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function numbersIn(server: TestServer, queue: string, token: string): Promise<string[]> {
  const reply = await call(server, 'GET', `/V1/fulfillmentOrders/${queue}`, { token });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.map(
    (order: { fulfillment_order_number: string }) => order.fulfillment_order_number,
  );
}

async function view(server: TestServer, number: string) {
  const reply = await call(server, 'GET', `/V1/salesOrders/${number}`, { token: CHANNEL });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function reserved(server: TestServer, sku: string): Promise<number> {
  const stock = await server.engine.listStock('default', { sku });
  return stock.find((level) => level.warehouse_code === 'WH-A')?.reserved ?? 0;
}

async function onHand(server: TestServer, sku: string): Promise<number> {
  const stock = await server.engine.listStock('default', { sku });
  return stock.find((level) => level.warehouse_code === 'WH-A')?.on_hand ?? 0;
}

async function timeline(server: TestServer, number: string): Promise<string[]> {
  const history = await server.engine.getOrderHistory('default', number);
  return history.audit.map((event) => event.action);
}

/** What the store holds of a sales order, to show a refusal changed nothing. */
async function snapshot(server: TestServer, salesOrder: string, number: string) {
  return {
    view: await view(server, salesOrder),
    timeline: await timeline(server, number),
    stock: await server.engine.listStock('default'),
  };
}

/** A 400 in JSON and in XML naming `field`, each changing nothing. */
async function expect400(
  server: TestServer,
  path: string,
  token: string,
  json: unknown,
  xml: string,
  field: string,
  state: () => Promise<unknown>,
): Promise<void> {
  const before = await state();
  const asJson = await post(server, path, token, json);
  expect(asJson.status, asJson.text).toBe(400);
  expect(asJson.body.parameters.map((p: { fieldName?: string }) => p.fieldName)).toContain(field);
  const asXml = await call(server, 'POST', path, { token, xml, accept: XML });
  expect(asXml.status, asXml.text).toBe(400);
  expect(asXml.text).toContain(`<fieldName>${field}</fieldName>`);
  expect(await state()).toEqual(before);
}

test('a hold takes the order out of every queue, actions on it are 400, the last release puts it back for a `since` poller', async () => {
  const server = await startServer();
  const { number, lines } = await takeIn(server, '800001');
  const polled = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept?after=0', {
    token: PARTNER,
  });
  expect(polled.body).toHaveLength(1);
  const cursor = polled.headers.get('fulfil-cursor') as string;

  const held = await post(server, '/V1/salesOrder/hold', CHANNEL, {
    hold: { sales_order_number: '800001', handle: 'pay-1', reason: 'awaiting_payment' },
  });
  expect(held.status, held.text).toBe(200);
  expect(held.body).toMatchObject({ handle: 'pay-1', held: [number], not_held: [] });
  expect(held.body.sales_order.status).toBe('on_hold');
  // A second hold, in XML; a repeat of the first changes nothing.
  const fraud = await call(server, 'POST', '/V1/salesOrder/hold', {
    token: CHANNEL,
    accept: XML,
    xml: '<request><hold><sales_order_number>800001</sales_order_number><handle>fraud-1</handle><reason>high_risk_of_fraud</reason><note>score 97</note></hold></request>',
  });
  expect(fraud.status, fraud.text).toBe(200);
  expect(fraud.text).toContain('<handle>fraud-1</handle>');
  const repeat = await post(server, '/V1/salesOrder/hold', CHANNEL, {
    hold: { sales_order_number: '800001', handle: 'pay-1', reason: 'awaiting_payment' },
  });
  expect(repeat.status).toBe(200);
  expect(await numbersIn(server, 'pending_accept', PARTNER)).toEqual([]);

  const accept = { order: { order_id: number, items: lines } };
  await expect400(
    server,
    '/V1/fulfillmentOrder/accept',
    PARTNER,
    accept,
    `<request><order><order_id>${number}</order_id><items>${lines
      .map((line) => `<item><item_id>${line.item_id}</item_id><qty>${line.qty}</qty></item>`)
      .join('')}</items></order></request>`,
    'order.order_id',
    () => snapshot(server, '800001', number),
  );
  const refused = await post(server, '/V1/fulfillmentOrder/accept', PARTNER, accept);
  expect(refused.body.message).toContain('on hold');

  const shown = await view(server, '800001');
  expect(shown.holds).toEqual([
    expect.objectContaining({ handle: 'pay-1', reason: 'awaiting_payment', status: 'active' }),
    expect.objectContaining({
      handle: 'fraud-1',
      reason: 'high_risk_of_fraud',
      note: 'score 97',
      status: 'active',
      placed_by: 'channel',
      fulfillment_order_numbers: [number],
    }),
  ]);

  const first = await post(server, '/V1/salesOrder/release', CHANNEL, {
    release: { sales_order_number: '800001', handle: 'pay-1' },
  });
  expect(first.status, first.text).toBe(200);
  expect(first.body.status).toBe('on_hold');
  expect(await numbersIn(server, 'pending_accept', PARTNER)).toEqual([]);
  const last = await call(server, 'POST', '/V1/salesOrder/release', {
    token: CHANNEL,
    xml: '<request><release><sales_order_number>800001</sales_order_number><handle>fraud-1</handle></release></request>',
  });
  expect(last.status, last.text).toBe(200);
  expect(last.body.status).toBe('open');

  const since = await call(server, 'GET', `/V1/fulfillmentOrders/pending_accept?since=${cursor}`, {
    token: PARTNER,
  });
  expect(
    since.body.map((order: { fulfillment_order_number: string }) => order.fulfillment_order_number),
  ).toEqual([number]);
  await act(server, 'accept', PARTNER, accept);
  expect(await timeline(server, number)).toEqual([
    'intake',
    'hold',
    'hold',
    'release',
    'release',
    'accept',
  ]);
  // An unknown handle is 404; releasing a released one again changes nothing.
  const unknown = await post(server, '/V1/salesOrder/release', CHANNEL, {
    release: { sales_order_number: '800001', handle: 'nope' },
  });
  expect(unknown.status).toBe(404);
  const again = await post(server, '/V1/salesOrder/release', CHANNEL, {
    release: { sales_order_number: '800001', handle: 'pay-1' },
  });
  expect(again.status).toBe(200);
  expect(await timeline(server, number)).toEqual([
    'intake',
    'hold',
    'hold',
    'release',
    'release',
    'accept',
  ]);
});

test('a hold on a shipped order is 400 in JSON and XML, naming why, and changes nothing', async () => {
  const server = await startServer();
  const { number, lines } = await takeIn(server, '800002');
  await act(server, 'accept', PARTNER, { order: { order_id: number, items: lines } });
  await act(server, 'allocate', ERP, { allocation: { order_id: number, items: lines } });
  await act(server, 'ship', PARTNER, { shipment: { order_id: number, items: lines } });
  await expect400(
    server,
    '/V1/salesOrder/hold',
    CHANNEL,
    { hold: { sales_order_number: '800002', handle: 'h', reason: 'other' } },
    '<request><hold><sales_order_number>800002</sales_order_number><handle>h</handle><reason>other</reason></hold></request>',
    'hold.sales_order_number',
    () => snapshot(server, '800002', number),
  );
  const refused = await post(server, '/V1/salesOrder/hold', CHANNEL, {
    hold: { sales_order_number: '800002', handle: 'h', reason: 'other' },
  });
  expect(refused.body.message).toContain(`${number} is pending_invoice`);
});

test('cancel: unaccepted lines at once; accepted ones by a request the partner polls and accepts, stock released', async () => {
  const server = await startServer();
  const { number, lines } = await takeIn(server, '800003');
  const [one, two] = lines as [Line, Line];
  await act(server, 'accept', PARTNER, { order: { order_id: number, items: [one] } });
  expect(await reserved(server, 'SKU-1')).toBe(2);

  const canceled = await post(server, '/V1/salesOrder/cancel', CHANNEL, {
    cancellation: { sales_order_number: '800003', reason: 'customer' },
  });
  expect(canceled.status, canceled.text).toBe(200);
  const items = canceled.body.fulfillment_orders[0].items;
  expect(items.map((item: { status: string }) => item.status)).toEqual([
    'pending_allocation',
    'canceled',
  ]);
  expect(canceled.body.cancellation_requests).toEqual([
    expect.objectContaining({
      fulfillment_order_number: number,
      id: 1,
      reason: 'customer',
      status: 'open',
      items: [{ item_id: one.item_id, sku: 'SKU-1', qty: 2 }],
      requested_by: 'channel',
    }),
  ]);
  // A repeat asks nothing more.
  const repeat = await post(server, '/V1/salesOrder/cancel', CHANNEL, {
    cancellation: { sales_order_number: '800003', reason: 'customer' },
  });
  expect(repeat.body.cancellation_requests).toHaveLength(1);

  const polled = await call(server, 'GET', '/V1/fulfillmentOrders/pending_cancellation', {
    token: PARTNER,
  });
  expect(polled.body).toHaveLength(1);
  expect(polled.body[0].cancellation_request).toMatchObject({
    id: 1,
    reason: 'customer',
    items: [{ item_id: one.item_id, sku: 'SKU-1', qty: 2 }],
  });
  expect(polled.body[0].items.map((item: { id: number }) => item.id)).toEqual([one.item_id]);
  // Still in the ERP's queue: the request keeps nothing from the flow until it is answered.
  expect(await numbersIn(server, 'pending_allocation', ERP)).toEqual([number]);

  const accepted = await act(server, 'acceptCancellation', PARTNER, {
    cancellation: { order_id: number },
  });
  expect(accepted.status).toBe('canceled');
  expect(await reserved(server, 'SKU-1')).toBe(0);
  expect(await numbersIn(server, 'pending_cancellation', PARTNER)).toEqual([]);
  // Idempotent: a repeat answers the order and changes nothing.
  await act(server, 'acceptCancellation', PARTNER, { cancellation: { order_id: number } });
  expect(await timeline(server, number)).toEqual([
    'intake',
    'accept',
    'cancel',
    'accept_cancellation',
  ]);
  const shown = await view(server, '800003');
  expect(shown.status).toBe('canceled');
  expect(shown.cancellation_requests[0]).toMatchObject({
    status: 'accepted',
    answered_by: 'partner',
  });
  // Rejecting an accepted request is 400.
  const late = await post(server, '/V1/fulfillmentOrder/rejectCancellation', PARTNER, {
    cancellation: { order_id: number, message: 'too late' },
  });
  expect(late.status).toBe(400);
  expect(two.item_id).toBeGreaterThan(0);
});

test('a partner that knows nothing of cancellation requests ships: the request is rejected ("shipped"), and accepting it is 400 in JSON and XML', async () => {
  const server = await startServer();
  const { number, lines } = await takeIn(server, '800004');
  await act(server, 'accept', PARTNER, { order: { order_id: number, items: lines } });
  await act(server, 'allocate', ERP, { allocation: { order_id: number, items: lines } });
  const requested = await post(server, '/V1/salesOrder/cancel', CHANNEL, {
    cancellation: { sales_order_number: '800004', reason: 'customer' },
  });
  expect(requested.body.cancellation_requests[0].status).toBe('open');
  // The partner ships from pending_shipment as it always did.
  expect(await numbersIn(server, 'pending_shipment', PARTNER)).toEqual([number]);
  await act(server, 'ship', PARTNER, { shipment: { order_id: number, items: lines } });
  expect(await onHand(server, 'SKU-1')).toBe(98);
  expect(await reserved(server, 'SKU-1')).toBe(0);

  const shown = await view(server, '800004');
  expect(shown.status).toBe('shipped');
  expect(shown.cancellation_requests).toEqual([
    expect.objectContaining({ status: 'rejected', message: 'shipped' }),
  ]);
  expect(await numbersIn(server, 'pending_cancellation', PARTNER)).toEqual([]);
  await expect400(
    server,
    '/V1/fulfillmentOrder/acceptCancellation',
    PARTNER,
    { cancellation: { order_id: number } },
    `<request><cancellation><order_id>${number}</order_id></cancellation></request>`,
    'cancellation.order_id',
    () => snapshot(server, '800004', number),
  );
  const refused = await post(server, '/V1/fulfillmentOrder/acceptCancellation', PARTNER, {
    cancellation: { order_id: number },
  });
  expect(refused.body.message).toContain('was rejected (shipped)');
  // A shipped line cannot be canceled: that is a return.
  await expect400(
    server,
    '/V1/salesOrder/cancel',
    CHANNEL,
    {
      cancellation: {
        sales_order_number: '800004',
        reason: 'customer',
        items: [{ fulfillment_order_number: number, item_id: lines[0]?.item_id }],
      },
    },
    `<request><cancellation><sales_order_number>800004</sales_order_number><reason>customer</reason><items><item><fulfillment_order_number>${number}</fulfillment_order_number><item_id>${lines[0]?.item_id}</item_id></item></items></cancellation></request>`,
    'cancellation.items[0].item_id',
    () => snapshot(server, '800004', number),
  );
  expect(await timeline(server, number)).toEqual([
    'intake',
    'accept',
    'allocate',
    'cancel',
    'ship',
  ]);
});

test('reject without a message is 400 in JSON and XML; with one, the lines stay in the flow', async () => {
  const server = await startServer();
  const { number, lines } = await takeIn(server, '800005');
  await act(server, 'accept', PARTNER, { order: { order_id: number, items: lines } });
  await post(server, '/V1/salesOrder/cancel', CHANNEL, {
    cancellation: { sales_order_number: '800005', reason: 'fraud' },
  });
  await expect400(
    server,
    '/V1/fulfillmentOrder/rejectCancellation',
    PARTNER,
    { cancellation: { order_id: number } },
    `<request><cancellation><order_id>${number}</order_id></cancellation></request>`,
    'cancellation.message',
    () => snapshot(server, '800005', number),
  );
  const rejected = await act(server, 'rejectCancellation', PARTNER, {
    cancellation: { order_id: number, message: 'already packed' },
  });
  expect(rejected.status).toBe('pending_allocation');
  await act(server, 'rejectCancellation', PARTNER, {
    cancellation: { order_id: number, message: 'already packed' },
  });
  expect((await view(server, '800005')).cancellation_requests).toEqual([
    expect.objectContaining({
      status: 'rejected',
      message: 'already packed',
      answered_by: 'partner',
    }),
  ]);
  expect(await reserved(server, 'SKU-1')).toBe(2);
  expect(await timeline(server, number)).toEqual([
    'intake',
    'accept',
    'cancel',
    'reject_cancellation',
  ]);
});

test("the operator's cancel follows the same rules: accepted lines are requested of the partner, not canceled behind its back", async () => {
  const server = await startServer();
  const { number, lines } = await takeIn(server, '800006');
  await act(server, 'accept', PARTNER, { order: { order_id: number, items: lines } });
  const order = await server.engine.cancelOrder('default', number);
  expect(order.status).toBe('pending_allocation');
  expect(await numbersIn(server, 'pending_cancellation', PARTNER)).toEqual([number]);
  expect(await reserved(server, 'SKU-1')).toBe(2);
  await act(server, 'acceptCancellation', PARTNER, { cancellation: { order_id: number } });
  expect(await reserved(server, 'SKU-1')).toBe(0);
  expect((await view(server, '800006')).status).toBe('canceled');
});

test('a line of an open request canceled at once while held leaves the request, which asks only for the rest; when none is left it is closed accepted', async () => {
  const server = await startServer();
  const { number, lines } = await takeIn(server, '800007');
  const [one, two] = lines as [Line, Line];
  await act(server, 'accept', PARTNER, { order: { order_id: number, items: lines } });
  const requested = await post(server, '/V1/salesOrder/cancel', CHANNEL, {
    cancellation: { sales_order_number: '800007', reason: 'customer' },
  });
  expect(requested.body.cancellation_requests[0].items).toHaveLength(2);
  const held = await post(server, '/V1/salesOrder/hold', CHANNEL, {
    hold: { sales_order_number: '800007', handle: 'h', reason: 'high_risk_of_fraud' },
  });
  expect(held.status, held.text).toBe(200);
  // Held, no partner can ship it: the line is canceled now, and the request no longer asks for it.
  const lineOf = (line: Line) => [{ fulfillment_order_number: number, item_id: line.item_id }];
  const first = await post(server, '/V1/salesOrder/cancel', CHANNEL, {
    cancellation: { sales_order_number: '800007', reason: 'fraud', items: lineOf(one) },
  });
  expect(first.status, first.text).toBe(200);
  expect(first.body.cancellation_requests).toEqual([
    expect.objectContaining({ status: 'open', items: [expect.objectContaining(two)] }),
  ]);
  const second = await post(server, '/V1/salesOrder/cancel', CHANNEL, {
    cancellation: { sales_order_number: '800007', reason: 'fraud', items: lineOf(two) },
  });
  expect(second.body.cancellation_requests).toEqual([
    expect.objectContaining({ status: 'accepted', answered_by: 'channel' }),
  ]);
  expect(await reserved(server, 'SKU-1')).toBe(0);
  expect(await reserved(server, 'SKU-2')).toBe(0);
});
