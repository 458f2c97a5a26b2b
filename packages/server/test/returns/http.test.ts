import { xmlElement } from '@fulfil/core/xml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  advance,
  call,
  readXml,
  startTestServer,
  type TestServer,
  TOKENS,
} from '../http/support.js';

/**
 * Returns over HTTP (docs/channel-guide.md, Returns): the five routes in JSON and XML, each 400
 * of the rules in both, a partner scoped to one warehouse seeing only returns to its own, and no
 * refused request changing anything.
 */

let server: TestServer;
/** Order 100001001-1 (WH-A: SKU-1 x2, SKU-2 x1) and 100001003-1 (WH-B: SKU-1 x1), shipped. */
let a: { number: string; items: { id: number; sku: string; qty: number }[] };
let b: { number: string; items: { id: number; sku: string; qty: number }[] };
/** Order 100001002-1 (WH-A: SKU-1 x1), shipped: its line is taken by a canceled return only. */
let c: { number: string; items: { id: number; sku: string; qty: number }[] };
/** The line of order 000123-1, which never ships. */
let unshipped: number;

beforeAll(async () => {
  server = await startTestServer();
  a = await advance(server, '100001001-1', 'pending_invoice').then((order) => ({
    number: order.fulfillment_order_number,
    items: order.items,
  }));
  b = await advance(server, '100001003-1', 'pending_invoice').then((order) => ({
    number: order.fulfillment_order_number,
    items: order.items,
  }));
  unshipped = (await server.engine.getOrder('default', '000123-1')).items[0]?.id as number;
  c = await advance(server, '100001002-1', 'pending_invoice').then((order) => ({
    number: order.fulfillment_order_number,
    items: order.items,
  }));
});
afterAll(() => server.close());

type Format = 'json' | 'xml';

/** POST in either format, answered in the same; `body` is the parsed answer either way. */
async function post(path: string, token: string, payload: object, format: Format) {
  const reply = await call(
    server,
    'POST',
    path,
    format === 'json'
      ? { token, json: payload }
      : { token, xml: xmlElement('request', payload), accept: 'application/xml' },
  );
  const body = format === 'json' ? reply.body : readXml(reply.text).response;
  return { status: reply.status, body, text: reply.text };
}

/** What a refused request must leave alone: stock, and every return's state. */
async function state() {
  const stock = await server.engine.listStock('default');
  const returns = await server.engine.admin.returns(
    { name: 'test', role: 'admin', store_code: null, request_id: null },
    'default',
    {},
  );
  return JSON.stringify({ stock, returns });
}

const line = (order: typeof a, index: number, qty: number) => ({
  fulfillment_order_number: order.number,
  item_id: order.items[index]?.id,
  qty,
  reason: 'damaged',
});

describe('returns over HTTP', () => {
  test('open, receive and credit: JSON and XML, 201 then 200 on repeats, stock back on hand', async () => {
    const opened = await post(
      '/V1/returns',
      TOKENS.all,
      { return: { rma_number: 'RMA-A', sales_order_number: '100001001', items: [line(a, 0, 2)] } },
      'json',
    );
    expect(opened.status, opened.text).toBe(201);
    expect(opened.body).toMatchObject({ status: 'pending_receipt', warehouse_code: 'WH-A' });
    const again = await post(
      '/V1/returns',
      TOKENS.all,
      { return: { rma_number: 'RMA-A', sales_order_number: '100001001', items: [line(a, 0, 2)] } },
      'xml',
    );
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ rma_number: 'RMA-A', status: 'pending_receipt' });

    const onHand = async () =>
      (await server.engine.listStock('default', { sku: 'SKU-1' })).find(
        (row) => row.warehouse_code === 'WH-A',
      )?.on_hand;
    const before = await onHand();
    const receipt = {
      receipt: {
        rma_number: 'RMA-A',
        receipt_number: 'RCV-1',
        items: [{ item_id: a.items[0]?.id, qty_restocked: 1, qty_quarantined: 1 }],
      },
    };
    const received = await post('/V1/return/receive', TOKENS.partnerA, receipt, 'xml');
    expect(received.status, received.text).toBe(200);
    expect(received.body).toMatchObject({ status: 'pending_credit' });
    expect(await onHand()).toBe((before as number) + 1);
    expect((await post('/V1/return/receive', TOKENS.partnerA, receipt, 'json')).status).toBe(200);
    expect(await onHand()).toBe((before as number) + 1);

    const queue = await call(server, 'GET', '/V1/returns/pending_credit', { token: TOKENS.erp });
    expect(queue.body.map((r: { rma_number: string }) => r.rma_number)).toEqual(['RMA-A']);
    expect(queue.headers.get('fulfil-cursor')).toBeTruthy();

    const credit = {
      credit: {
        rma_number: 'RMA-A',
        credit_note_number: 'CN-1',
        items: [{ item_id: a.items[0]?.id }],
        amount_incl_tax: 20,
      },
    };
    const credited = await post('/V1/return/credit', TOKENS.erp, credit, 'json');
    expect(credited.status, credited.text).toBe(200);
    expect(credited.body).toMatchObject({ status: 'credited' });
    const repeat = await post('/V1/return/credit', TOKENS.erp, credit, 'xml');
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ status: 'credited' });

    const view = await call(server, 'GET', '/V1/salesOrders/100001001', { token: TOKENS.all });
    expect(view.body.returns).toMatchObject([{ rma_number: 'RMA-A', status: 'credited' }]);
  });

  test('a partner scoped to one warehouse sees and receives only returns to its warehouses', async () => {
    const opened = await post(
      '/V1/returns',
      TOKENS.all,
      { return: { rma_number: 'RMA-B', sales_order_number: '100001003', items: [line(b, 0, 1)] } },
      'json',
    );
    expect(opened.status, opened.text).toBe(201);
    expect(opened.body.warehouse_code).toBe('WH-B');
    const seen = async (token: string) =>
      (await call(server, 'GET', '/V1/returns/pending_receipt', { token })).body.map(
        (r: { rma_number: string }) => r.rma_number,
      );
    expect(await seen(TOKENS.partnerB)).toEqual(['RMA-B']);
    expect(await seen(TOKENS.partnerA)).not.toContain('RMA-B');
    const receipt = {
      receipt: {
        rma_number: 'RMA-B',
        receipt_number: 'RCV-B',
        items: [{ item_id: b.items[0]?.id, qty_restocked: 1 }],
      },
    };
    const before = await state();
    const hidden = await post('/V1/return/receive', TOKENS.partnerA, receipt, 'json');
    expect(hidden.status).toBe(404);
    expect(await state()).toEqual(before);
    expect((await post('/V1/return/receive', TOKENS.partnerB, receipt, 'json')).status).toBe(200);
    // The partner's token may not credit, nor the ERP's receive.
    const forbidden = await post('/V1/return/credit', TOKENS.partnerB, { credit: {} }, 'json');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.parameters).toEqual([{ resources: 'Fulfil_Return::api_credit' }]);
  });

  /**
   * Each refusal of the rules, in JSON and in XML: its status, the code, and the field it names.
   * Set up on order 100001001-1, whose SKU-1 line RMA-A took back whole (2 of 2).
   */
  const refusals: {
    name: string;
    path: string;
    token: string;
    body: () => object;
    code: number;
    field: string;
    says?: string;
  }[] = [
    {
      name: 'a return of more than shipped less already returned',
      path: '/V1/returns',
      token: TOKENS.all,
      body: () => ({
        return: { rma_number: 'RMA-X', sales_order_number: '100001001', items: [line(a, 0, 1)] },
      }),
      code: 1004,
      field: 'return.items[0].qty',
      says: 'at most 0: 2 shipped, 2 already returned',
    },
    {
      name: 'a return of a line that did not ship',
      path: '/V1/returns',
      token: TOKENS.all,
      body: () => ({
        return: {
          rma_number: 'RMA-X',
          sales_order_number: '100001002',
          items: [
            { fulfillment_order_number: '100001002-1', item_id: 999999, qty: 1, reason: 'other' },
          ],
        },
      }),
      code: 1002,
      field: 'return.items[0].item_id',
    },
    {
      name: 'a return of a line of the order that never shipped',
      path: '/V1/returns',
      token: TOKENS.all,
      body: () => ({
        return: {
          rma_number: 'RMA-X',
          sales_order_number: '000123',
          items: [
            { fulfillment_order_number: '000123-1', item_id: unshipped, qty: 1, reason: 'other' },
          ],
        },
      }),
      code: 1002,
      field: 'return.items[0].item_id',
      says: 'has not shipped',
    },
    {
      name: 'a return naming a fulfillment order of another sales order',
      path: '/V1/returns',
      token: TOKENS.all,
      body: () => ({
        return: { rma_number: 'RMA-X', sales_order_number: '100001002', items: [line(a, 1, 1)] },
      }),
      code: 1002,
      field: 'return.items[0].fulfillment_order_number',
    },
    {
      name: 'a return with an unknown reason',
      path: '/V1/returns',
      token: TOKENS.all,
      body: () => ({
        return: {
          rma_number: 'RMA-X',
          sales_order_number: '100001001',
          items: [{ ...line(a, 1, 1), reason: 'changed_mind' }],
        },
      }),
      code: 1001,
      field: 'return.items[0].reason',
    },
    {
      name: 'a return to an unknown warehouse',
      path: '/V1/returns',
      token: TOKENS.all,
      body: () => ({
        return: {
          rma_number: 'RMA-X',
          sales_order_number: '100001002',
          warehouse_code: 'WH-NOWHERE',
          items: [line(c, 0, 1)],
        },
      }),
      code: 1001,
      field: 'return.warehouse_code',
    },
    {
      name: 'a receipt of more than the line still expects',
      path: '/V1/return/receive',
      token: TOKENS.partnerA,
      body: () => ({
        receipt: {
          rma_number: 'RMA-A',
          receipt_number: 'RCV-9',
          items: [{ item_id: a.items[0]?.id, qty_disposed: 1 }],
        },
      }),
      code: 1004,
      field: 'receipt.items[0]',
      says: 'at most 0 units',
    },
    {
      name: 'a receipt number again with other lines',
      path: '/V1/return/receive',
      token: TOKENS.partnerA,
      body: () => ({
        receipt: {
          rma_number: 'RMA-A',
          receipt_number: 'RCV-1',
          items: [{ item_id: a.items[0]?.id, qty_restocked: 2 }],
        },
      }),
      code: 1008,
      field: 'receipt.receipt_number',
    },
    {
      name: 'a receipt line that neither receives nor declares anything missing',
      path: '/V1/return/receive',
      token: TOKENS.partnerA,
      body: () => ({
        receipt: {
          rma_number: 'RMA-A',
          receipt_number: 'RCV-0',
          items: [{ item_id: a.items[0]?.id }],
        },
      }),
      code: 1001,
      field: 'receipt.items[0]',
    },
    {
      name: 'a credit of an item that is no line of the return',
      path: '/V1/return/credit',
      token: TOKENS.erp,
      body: () => ({
        credit: {
          rma_number: 'RMA-C',
          credit_note_number: 'CN-9',
          items: [{ item_id: a.items[0]?.id }],
        },
      }),
      code: 1002,
      field: 'credit.items[0].item_id',
    },
    {
      name: 'a credit of lines other than the received, uncredited ones',
      path: '/V1/return/credit',
      token: TOKENS.erp,
      body: () => ({
        credit: {
          rma_number: 'RMA-A',
          credit_note_number: 'CN-8',
          items: [{ item_id: a.items[0]?.id }],
        },
      }),
      code: 1011,
      field: 'credit.items',
      says: 'exactly the received items awaiting credit: []',
    },
    {
      name: 'a credit whose amount is not received qty at unit price plus the refund',
      path: '/V1/return/credit',
      token: TOKENS.erp,
      body: () => ({
        credit: {
          rma_number: 'RMA-C',
          credit_note_number: 'CN-9',
          items: [{ item_id: a.items[1]?.id }],
          amount_incl_tax: 99,
        },
      }),
      code: 1011,
      field: 'credit.amount_incl_tax',
      says: 'must be 10.0000',
    },
    {
      name: 'a shipping refund beyond what the sales order paid',
      path: '/V1/return/credit',
      token: TOKENS.erp,
      body: () => ({
        credit: {
          rma_number: 'RMA-C',
          credit_note_number: 'CN-9',
          items: [{ item_id: a.items[1]?.id }],
          shipping_refund_incl_tax: 5.01,
        },
      }),
      code: 1011,
      field: 'credit.shipping_refund_incl_tax',
      says: 'at most 5.0000',
    },
    {
      name: 'a credit note number again for other lines',
      path: '/V1/return/credit',
      token: TOKENS.erp,
      body: () => ({
        credit: {
          rma_number: 'RMA-A',
          credit_note_number: 'CN-1',
          items: [{ item_id: a.items[1]?.id }],
        },
      }),
      code: 1002,
      field: 'credit.items[0].item_id',
    },
    {
      name: 'a receipt on a canceled return',
      path: '/V1/return/receive',
      token: TOKENS.partnerA,
      body: () => ({
        receipt: {
          rma_number: 'RMA-CANCELED',
          receipt_number: 'RCV-C',
          items: [{ item_id: c.items[0]?.id, qty_restocked: 1 }],
        },
      }),
      code: 1005,
      field: 'receipt.rma_number',
    },
  ];

  test('setting up the refusals: a return of the SKU-2 line received, one canceled', async () => {
    // RMA-C: SKU-2 received, not credited; RMA-CANCELED: order 100001002's line, canceled.
    const opened = await post(
      '/V1/returns',
      TOKENS.all,
      { return: { rma_number: 'RMA-C', sales_order_number: '100001001', items: [line(a, 1, 1)] } },
      'json',
    );
    expect(opened.status, opened.text).toBe(201);
    const received = await post(
      '/V1/return/receive',
      TOKENS.partnerA,
      {
        receipt: {
          rma_number: 'RMA-C',
          receipt_number: 'RCV-C1',
          items: [{ item_id: a.items[1]?.id, qty_restocked: 1 }],
        },
      },
      'json',
    );
    expect(received.status, received.text).toBe(200);
    const operator = { name: 'ops', role: 'operator' as const, store_code: null, request_id: null };
    // A return opened and canceled at once: a canceled return takes back nothing.
    await server.engine.admin.openReturn(operator, 'default', {
      rma_number: 'RMA-CANCELED',
      sales_order_number: '100001002',
      items: [line(c, 0, 1)],
    });
    await server.engine.admin.cancelReturn(operator, 'default', 'RMA-CANCELED', {});
    expect((await server.engine.admin.getReturn(operator, 'default', 'RMA-CANCELED')).status).toBe(
      'canceled',
    );
  });

  for (const refusal of refusals) {
    for (const format of ['json', 'xml'] as const) {
      test(`${refusal.name} (${format}): 400 naming ${refusal.field}; nothing changes`, async () => {
        const before = await state();
        const reply = await post(refusal.path, refusal.token, refusal.body(), format);
        expect(reply.status, reply.text).toBe(400);
        if (format === 'json') {
          expect(reply.body.code).toBe(refusal.code);
          const fields = reply.body.errors.flatMap((e: { parameters: { fieldName?: string }[] }) =>
            e.parameters.map((p) => p.fieldName),
          );
          expect(fields).toContain(refusal.field);
          if (refusal.says) expect(reply.text).toContain(refusal.says);
        } else {
          expect(reply.text).toContain(`<code>${refusal.code}</code>`);
          expect(reply.text).toContain(`<fieldName>${refusal.field}</fieldName>`);
          if (refusal.says) expect(reply.text).toContain(refusal.says);
        }
        expect(await state()).toEqual(before);
      });
    }
  }
});
