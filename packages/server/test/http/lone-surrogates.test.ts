import { describe, expect, it } from 'vitest';
import { call, readXml, serverPerTest, type TestServer, TOKENS } from './support.js';

const start = serverPerTest();

/** 100001002-1 accepted, allocated and shipped: waiting for its invoice. Its item's id. */
async function awaitingInvoice(server: TestServer): Promise<number> {
  const order_id = '100001002-1';
  const [item] = (await server.engine.getOrder('default', order_id)).items;
  const items = [{ item_id: item?.id, qty: 1 }];
  for (const [action, token, json] of [
    ['accept', TOKENS.partnerA, { order: { order_id, items } }],
    ['allocate', TOKENS.erp, { allocation: { order_id, items } }],
    ['ship', TOKENS.partnerA, { shipment: { order_id, items } }],
  ] as const) {
    expect(
      (await call(server, 'POST', `/V1/fulfillmentOrder/${action}`, { token, json })).status,
    ).toBe(200);
  }
  return item?.id as number;
}

/** Everything the requests below could have changed. */
async function state(server: TestServer) {
  return {
    order: await server.engine.getOrderHistory('default', '100001002-1'),
    stock: await server.engine.listStock('default'),
  };
}

/**
 * Issue 16, item 6: strings that are not well-formed Unicode (`"\ud800"` in JSON, `&#xD800;` in
 * XML) are 400 naming the field, and change nothing, so they are never stored altered.
 */
describe('lone surrogates in requests', () => {
  it('an invoice number with one is 400 naming invoice.invoice_number, in JSON and XML, and stays so when retried', async () => {
    const server = await start();
    const itemId = await awaitingInvoice(server);
    const before = await state(server);
    const invoice = (invoice_number: string) =>
      call(server, 'POST', '/V1/fulfillmentOrder/invoice', {
        token: TOKENS.erp,
        json: {
          invoice: { order_id: '100001002-1', items: [{ item_id: itemId }], invoice_number },
        },
      });

    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await invoice('INV-7\ud800');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: 1001,
        parameters: [{ fieldName: 'invoice.invoice_number', fieldValue: 'INV-7\\uD800' }],
        errors: [
          {
            message: 'Invalid value of "%fieldName": not well-formed Unicode (a lone surrogate).',
          },
        ],
      });
    }
    const xml = await call(server, 'POST', '/V1/fulfillmentOrder/invoice', {
      token: TOKENS.erp,
      accept: 'application/xml',
      xml: `<request><invoice><order_id>100001002-1</order_id><items><item><item_id>${itemId}</item_id></item></items><invoice_number>INV-7&#xD800;</invoice_number></invoice></request>`,
    });
    expect(xml.status).toBe(400);
    expect(readXml(xml.text)).toMatchObject({
      response: {
        code: '1001',
        parameters: { item: { fieldName: 'invoice.invoice_number', fieldValue: 'INV-7\\uD800' } },
      },
    });
    expect(await state(server)).toEqual(before);

    // The well-formed number is acknowledged, and its identical retry is too.
    expect((await invoice('INV-7')).status).toBe(200);
    const invoiced = await state(server);
    expect((await invoice('INV-7')).status).toBe(200);
    expect(await state(server)).toEqual(invoiced);
  });

  it('skus that differ only in a lone surrogate are refused, not merged; field names with one too', async () => {
    const server = await start();
    const before = await state(server);
    const sync = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.partnerA,
      json: {
        stock_items: [
          { warehouse_code: 'WH-A', sku: 'LONE\ud800', qty: 1 },
          { warehouse_code: 'WH-A', sku: 'LONE\udfff', qty: 2 },
        ],
      },
    });
    expect(sync.status).toBe(400);
    expect(sync.body.parameters).toEqual([
      { fieldName: 'stock_items[0].sku', fieldValue: 'LONE\\uD800' },
      { fieldName: 'stock_items[1].sku', fieldValue: 'LONE\\uDFFF' },
    ]);
    const xml = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.partnerA,
      xml: '<request><stock_items><item><warehouse_code>WH-A</warehouse_code><sku>LONE&#55296;</sku><qty>1</qty></item></stock_items></request>',
    });
    expect(xml.status).toBe(400);
    expect(xml.body.parameters).toEqual([
      { fieldName: 'stock_items[0].sku', fieldValue: 'LONE\\uD800' },
    ]);

    const [item] = (await server.engine.getOrder('default', '100001002-1')).items;
    const keyed = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: {
        order: { order_id: '100001002-1', items: [{ item_id: item?.id, qty: 1 }], 'x\ud800': 1 },
      },
    });
    expect(keyed.status).toBe(400);
    expect(keyed.body.parameters).toEqual([
      { fieldName: 'order.x\\uD800', fieldValue: 'x\\uD800' },
    ]);
    expect(await state(server)).toEqual(before);
  });
});
