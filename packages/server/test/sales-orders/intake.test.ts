import { fixtures } from '@fulfil/core/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, readXml, startTestServer, type TestServer } from '../http/support.js';

/** Intake over HTTP (docs/channel-guide.md): idempotent by number, strict, in JSON and XML. */

const { channel: CHANNEL, partner: PARTNER } = fixtures.SEED_TOKENS;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    seed: fixtures.seed({
      warehouses: [
        { code: 'WH-A', name: 'Partner A', fulfilled_by: 'partner', priority: 10 },
        { code: 'WH-B', name: 'Partner B', fulfilled_by: 'partner', priority: 5 },
      ],
      stock: [
        { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 },
        { warehouse_code: 'WH-B', sku: 'SKU-2', qty: 100 },
      ],
    }),
  });
});
afterAll(() => server.close());

const post = (json: unknown, path = '/V1/salesOrders') =>
  call(server, 'POST', path, { token: CHANNEL, json });

/** What the store holds: every sales order's view and every pending_accept entry, as bytes. */
async function stored(): Promise<string[]> {
  const feed = await call(server, 'GET', '/V1/salesOrders?after=0', { token: CHANNEL });
  const queue = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept?after=0', {
    token: PARTNER,
  });
  return [feed.text, queue.text];
}

describe('POST /V1/salesOrders', () => {
  test('201 the first time, 200 with the same view for a repeat, 409 naming what differs', async () => {
    const order = fixtures.salesOrder('9100', [{ sku: 'SKU-1', qty: 2 }]);
    const first = await post({ sales_order: order });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ sales_order_number: '9100', status: 'open' });
    const again = await post({ sales_order: order });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const before = await stored();
    const other = await post({
      sales_order: { ...order, customer_email: 'someone@example.com' },
    });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      code: 1409,
      parameters: [{ fieldName: 'sales_order.sales_order_number', fieldValue: '9100' }],
      errors: [{ parameters: [{ fieldName: 'sales_order.customer_email' }] }],
    });
    expect(await stored()).toEqual(before);
  });

  test('XML in and out: <request><sales_order>, numbers typed by the schema', async () => {
    const xml = `<request><sales_order>
      <sales_order_id>9200</sales_order_id><sales_order_number>009200</sales_order_number>
      <customer_firstname>Ada</customer_firstname><customer_lastname>L</customer_lastname>
      <customer_email>ada@example.com</customer_email><customer_is_guest>false</customer_is_guest>
      <shipping_amount>5</shipping_amount>
      <payment><method_code>card</method_code><method_name>Card</method_name></payment>
      <shipping><method_code>std</method_code><method_name>Standard</method_name><internal_method_code>std</internal_method_code></shipping>
      <billing_address><firstname>Ada</firstname><lastname>L</lastname><email>a@example.com</email><street>1 Main &amp; Co</street><city>T</city><postcode>1</postcode><region>R</region><country_id>IT</country_id><telephone>1</telephone><company></company><vat_id></vat_id></billing_address>
      <shipping_address><firstname>Ada</firstname><lastname>L</lastname><email>a@example.com</email><street>1 Main &amp; Co</street><city>T</city><postcode>1</postcode><region>R</region><country_id>IT</country_id><telephone>1</telephone><company></company><vat_id></vat_id></shipping_address>
      <items><item><sku>SKU-1</sku><name>Widget</name><qty>1</qty><price>10</price></item></items>
    </sales_order></request>`;
    const reply = await call(server, 'POST', '/V1/salesOrders', {
      token: CHANNEL,
      xml,
      accept: 'application/xml',
    });
    expect(reply.status, reply.text).toBe(201);
    const view = readXml(reply.text).response as Record<string, unknown>;
    expect(view.sales_order_number).toBe('009200');
    const json = await call(server, 'GET', '/V1/salesOrders/009200', { token: CHANNEL });
    expect(json.body.fulfillment_orders[0].shipping_address.street).toBe('1 Main & Co');
  });

  test('a token without the resource is 403; an unknown number is 404, its encoded slash kept', async () => {
    const order = fixtures.salesOrder('9300');
    const partner = await call(server, 'POST', '/V1/salesOrders', {
      token: PARTNER,
      json: { sales_order: order },
    });
    expect(partner.status).toBe(403);
    expect(partner.body.parameters).toEqual([{ resources: 'Fulfil_SalesOrder::api_create' }]);
    const missing = await call(server, 'GET', '/V1/salesOrders/no%2Fsuch', { token: CHANNEL });
    expect(missing.status).toBe(404);
    expect(missing.body.parameters).toEqual([
      { fieldName: 'sales_order_number', fieldValue: 'no/such' },
    ]);
  });
});

describe('POST /V1/salesOrders/batch', () => {
  test('each entry answered on its own, in order; one bad entry holds back no other', async () => {
    const ok = fixtures.salesOrder('9400', [{ sku: 'SKU-1', qty: 1 }]);
    const reply = await post(
      {
        sales_orders: [
          ok,
          { ...fixtures.salesOrder('9401'), customer_is_guest: 'no' },
          ok,
          { ...ok, customer_lastname: 'Other' },
        ],
      },
      '/V1/salesOrders/batch',
    );
    expect(reply.status, reply.text).toBe(200);
    expect(
      reply.body.map((entry: { status: number; sales_order_number: string }) => [
        entry.sales_order_number,
        entry.status,
      ]),
    ).toEqual([
      ['9400', 201],
      ['9401', 400],
      ['9400', 200],
      ['9400', 409],
    ]);
    expect(reply.body[1].error.parameters[0].fieldName).toBe('sales_orders[1].customer_is_guest');
    expect(reply.body[2].sales_order).toEqual(reply.body[0].sales_order);
    const none = await call(server, 'GET', '/V1/salesOrders/9401', { token: CHANNEL });
    expect(none.status).toBe(404);
    const tooMany = await post(
      { sales_orders: Array.from({ length: 101 }, (_, i) => fixtures.salesOrder(`95${i}`)) },
      '/V1/salesOrders/batch',
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.parameters[0].fieldName).toBe('sales_orders');
  });
});

describe('the contract never changes by one byte', () => {
  test("a fulfillment order's queue documents are the same bytes before and after its sales order moves in the feed", async () => {
    // Split over two warehouses: two fulfillment orders of one sales order.
    const order = fixtures.salesOrder('9500', [
      { sku: 'SKU-1', qty: 1 },
      { sku: 'SKU-2', qty: 1 },
    ]);
    const created = await post({ sales_order: order });
    const [one, two] = created.body.fulfillment_orders;
    expect([one.warehouse_code, two.warehouse_code]).toEqual(['WH-A', 'WH-B']);
    const all = (await server.engine.poll(server.engine.operator('default'), 'pending_accept')).map(
      (fo) => fo.fulfillment_order_number,
    );
    expect(all).toContain('9500-2');
    const documents = async () =>
      (
        await server.engine.pollDocuments(server.engine.operator('default'), 'pending_accept')
      ).filter((text) => text.includes('"9500-2"'));
    const before = await documents();
    const cursor = (
      await call(server, 'GET', '/V1/salesOrders?after=0', { token: CHANNEL })
    ).headers.get('fulfil-cursor');
    // Accepting the WH-A one moves the sales order; the WH-B one is untouched, byte for byte.
    await server.engine.accept(server.engine.operator('default'), {
      order: {
        order_id: one.fulfillment_order_number,
        items: [{ item_id: one.items[0].id, qty: 1 }],
      },
    });
    const moved = await call(server, 'GET', `/V1/salesOrders?since=${cursor}`, { token: CHANNEL });
    expect(
      moved.body.map((view: { sales_order_number: string }) => view.sales_order_number),
    ).toEqual(['9500']);
    expect(await documents()).toEqual(before);
    expect(before[0]).not.toContain('holds');
  });
});
