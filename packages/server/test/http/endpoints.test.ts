import {
  OrderResourceSchema,
  StockItemResourceSchema,
  WarehouseResourceSchema,
} from '@fulfil/core';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  advance,
  call,
  findInQueue,
  readXml,
  startTestServer,
  type TestServer,
  TOKENS,
} from './support.js';

/** Every endpoint's happy path, in JSON and in XML, checked against the resource schemas. */

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const Orders = v.array(OrderResourceSchema);
const XML = 'application/xml';

function itemIds(order: { items: { id: number }[] }): number[] {
  return order.items.map((item) => item.id);
}

describe('JSON', () => {
  test('GET /V1/warehouses lists the store by code; a scoped token sees its own', async () => {
    const all = await call(server, 'GET', '/V1/warehouses', { token: TOKENS.all });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(v.parse(v.array(WarehouseResourceSchema), all.body)).toEqual([
      { name: 'Own courier', code: 'COURIER', active: true },
      { name: 'Partner A', code: 'WH-A', active: true },
      { name: 'Partner B', code: 'WH-B', active: true },
    ]);
    const scoped = await call(server, 'GET', '/V1/warehouses', { token: TOKENS.partnerA });
    expect(scoped.body).toEqual([{ name: 'Partner A', code: 'WH-A', active: true }]);
  });

  test('POST /V1/stockItems sets the quantities and answers the batch', async () => {
    const batch = [
      { warehouse_code: 'WH-A', sku: 'SKU-1', qty: 7 },
      { warehouse_code: 'WH-A', sku: 'NEW', qty: 0 },
    ];
    const reply = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.partnerA,
      json: { stock_items: batch },
    });
    expect(reply.status).toBe(200);
    expect(v.parse(v.array(StockItemResourceSchema), reply.body)).toEqual(batch);
    const stock = await server.engine.listStock('default', { sku: 'SKU-1' });
    expect(stock.find((row) => row.warehouse_code === 'WH-A')?.on_hand).toBe(7);
  });

  test('GET every queue answers an array of orders', async () => {
    for (const queue of [
      'pending_accept',
      'pending_allocation',
      'pending_shipment',
      'pending_invoice',
      'failed',
    ]) {
      const reply = await call(server, 'GET', `/V1/fulfillmentOrders/${queue}`, {
        token: TOKENS.all,
      });
      expect(reply.status, queue).toBe(200);
      v.parse(Orders, reply.body);
    }
    const pending = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: TOKENS.partnerA,
    });
    expect(
      pending.body.map(
        (order: { fulfillment_order_number: string }) => order.fulfillment_order_number,
      ),
    ).toEqual(['100001001-1', '100001002-1', '000123-1']);
  });

  test('POST accept moves the order to allocation and answers it whole, with prices', async () => {
    const order = await findInQueue(server, 'pending_accept', TOKENS.partnerA, '100001001-1');
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: {
        order: {
          order_id: '100001001-1',
          items: [
            { item_id: order.items[0].id, qty: 2 },
            { item_id: order.items[1].id, qty: 1 },
          ],
        },
      },
    });
    expect(reply.status).toBe(200);
    const accepted = v.parse(OrderResourceSchema, reply.body);
    expect(accepted.status).toBe('pending_allocation');
    expect(accepted.grand_total).toBe(35);
    expect(accepted.items.map((item) => item.status)).toEqual([
      'pending_allocation',
      'pending_allocation',
    ]);
  });

  test('POST reject rejects the listed items', async () => {
    const order = await findInQueue(server, 'pending_accept', TOKENS.partnerB, '100001003-1');
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/reject', {
      token: TOKENS.partnerB,
      json: { order: { order_id: '100001003-1', items: [{ item_id: order.items[0].id }] } },
    });
    expect(reply.status).toBe(200);
    expect(v.parse(OrderResourceSchema, reply.body).status).toBe('rejected');
  });

  test('POST allocate, ship and invoice move the order through the remaining stages', async () => {
    await advance(server, '100001002-1', 'pending_allocation');
    const order = await findInQueue(server, 'pending_allocation', TOKENS.erp, '100001002-1');
    const ids = itemIds(order);
    const allocated = await call(server, 'POST', '/V1/fulfillmentOrder/allocate', {
      token: TOKENS.erp,
      json: {
        allocation: { order_id: '100001002-1', items: ids.map((item_id) => ({ item_id, qty: 1 })) },
      },
    });
    expect(allocated.status).toBe(200);
    expect(allocated.body.status).toBe('pending_shipment');
    expect(allocated.body.allocated_at).toBe('2026-01-01 00:00:00');

    const shipped = await call(server, 'POST', '/V1/fulfillmentOrder/ship', {
      token: TOKENS.partnerA,
      json: {
        shipment: {
          order_id: '100001002-1',
          items: ids.map((item_id) => ({ item_id })),
          tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z999' }],
        },
      },
    });
    expect(shipped.status).toBe(200);
    expect(shipped.body.status).toBe('pending_invoice');

    const invoiced = await call(server, 'POST', '/V1/fulfillmentOrder/invoice', {
      token: TOKENS.erp,
      json: {
        invoice: {
          order_id: '100001002-1',
          items: ids.map((item_id) => ({ item_id })),
          invoice_number: 'INV-1',
          shipping_amount_incl_tax: 5,
          doc_type: 'ignored',
        },
      },
    });
    expect(invoiced.status).toBe(200);
    expect(v.parse(OrderResourceSchema, invoiced.body).status).toBe('invoiced');
  });
});

describe('XML', () => {
  test('GET /V1/warehouses: <response> with one <item> per warehouse, booleans as text', async () => {
    const reply = await call(server, 'GET', '/V1/warehouses', {
      token: TOKENS.partnerA,
      accept: XML,
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(reply.text).toBe(
      '<?xml version="1.0"?>\n<response><item><name>Partner A</name><code>WH-A</code><active>true</active></item></response>',
    );
  });

  test('text/xml is accepted and produced as well', async () => {
    const reply = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.partnerA,
      accept: 'text/xml',
      headers: { 'content-type': 'text/xml; charset=utf-8' },
      xml: '<request><stock_items><item><warehouse_code>WH-A</warehouse_code><sku>SKU-1</sku><qty>7</qty></item></stock_items></request>',
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(readXml(reply.text)).toEqual({
      '?xml': '',
      response: { item: { warehouse_code: 'WH-A', sku: 'SKU-1', qty: '7' } },
    });
  });

  test('POST /V1/stockItems: several <item>s, numbers typed by the schema', async () => {
    const reply = await call(server, 'POST', '/V1/stockItems', {
      token: TOKENS.all,
      accept: XML,
      xml: `<?xml version="1.0" encoding="UTF-8"?>
        <request>
          <stock_items>
            <item><warehouse_code>WH-A</warehouse_code><sku>000777</sku><qty>12</qty></item>
            <item><warehouse_code>WH-B</warehouse_code><sku>SKU-1</sku><qty>0</qty></item>
          </stock_items>
        </request>`,
    });
    expect(reply.status).toBe(200);
    const stock = await server.engine.listStock('default', { sku: '000777' });
    expect(stock).toEqual([
      expect.objectContaining({ warehouse_code: 'WH-A', sku: '000777', on_hand: 12 }),
    ]);
  });

  test('GET every queue answers <response> with <item> orders, nested arrays as <item>s', async () => {
    for (const queue of ['pending_allocation', 'pending_shipment', 'pending_invoice', 'failed']) {
      const reply = await call(server, 'GET', `/V1/fulfillmentOrders/${queue}`, {
        token: TOKENS.all,
        accept: XML,
      });
      expect(reply.status).toBe(200);
      expect(reply.text).toBe('<?xml version="1.0"?>\n<response></response>');
    }
    const reply = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept?page=1', {
      token: TOKENS.partnerA,
      accept: XML,
    });
    expect(reply.status).toBe(200);
    const orders = (readXml(reply.text).response as { item: Record<string, unknown>[] }).item;
    expect(orders.map((order) => order.fulfillment_order_number)).toEqual([
      '100001001-1',
      '100001002-1',
      '000123-1',
    ]);
    const first = orders[0] as {
      items: { item: unknown[] };
      customer_is_guest: string;
      billing_address: { company: string };
    };
    expect(first.items.item).toHaveLength(2);
    expect(first.customer_is_guest).toBe('false');
    expect(first.billing_address.company).toBe('Smith & Sons');
    expect(reply.text).toContain('<company>Smith &amp; Sons</company>');
    expect(reply.text).toContain('<name>Widget SKU-1 &lt;b&gt;</name>');
    // A one-item order still has its <items> wrapper with one <item>.
    expect((orders[2] as { items: { item: { sku: string } } }).items.item.sku).toBe('SKU-2');
    expect(reply.text).not.toContain('<price>');
  });

  test('POST accept with a single <item>, and order_id 000123-1 kept as text', async () => {
    const order = await findInQueue(server, 'pending_accept', TOKENS.partnerA, '000123-1');
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      accept: XML,
      xml: `<request><order><order_id>000123-1</order_id><items><item><item_id>${order.items[0].id}</item_id><qty>3</qty></item></items></order></request>`,
    });
    expect(reply.status).toBe(200);
    const response = readXml(reply.text).response as Record<string, unknown>;
    expect(response.status).toBe('pending_allocation');
    expect(response.sales_order_number).toBe('000123');
    expect(reply.text).toContain('<sales_order_number>000123</sales_order_number>');
    expect(reply.text).toContain('<price>10</price>');
  });

  test('an XML order_id of digits with leading zeros stays a string: 000123, not 123', async () => {
    const order = await findInQueue(server, 'pending_accept', TOKENS.partnerA, '000123-1');
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      xml: `<request><order><order_id>000123</order_id><items><item><item_id>${order.items[0].id}</item_id><qty>3</qty></item></items></order></request>`,
    });
    expect(reply.status).toBe(404);
    expect(reply.body.parameters).toEqual([{ fieldName: 'order.order_id', fieldValue: '000123' }]);
  });

  test('POST reject', async () => {
    const order = await findInQueue(server, 'pending_accept', TOKENS.partnerB, '100001003-1');
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/reject', {
      token: TOKENS.partnerB,
      accept: XML,
      xml: `<request><order><order_id>100001003-1</order_id><items><item><item_id>${order.items[0].id}</item_id></item></items></order></request>`,
    });
    expect(reply.status).toBe(200);
    expect((readXml(reply.text).response as { status: string }).status).toBe('rejected');
  });

  test("POST allocate (under the ERP guide's <order> key too), ship with tracks, invoice", async () => {
    await advance(server, '100001001-1', 'pending_allocation');
    const ids = itemIds(await findInQueue(server, 'pending_allocation', TOKENS.erp, '100001001-1'));
    const items = ids.map((id) => `<item><item_id>${id}</item_id></item>`).join('');

    const allocated = await call(server, 'POST', '/V1/fulfillmentOrder/allocate', {
      token: TOKENS.erp,
      accept: XML,
      xml: `<request><order><order_id>100001001-1</order_id><items>${items}</items></order></request>`,
    });
    expect(allocated.status).toBe(200);
    expect((readXml(allocated.text).response as { status: string }).status).toBe(
      'pending_shipment',
    );

    const shipped = await call(server, 'POST', '/V1/fulfillmentOrder/ship', {
      token: TOKENS.partnerA,
      accept: XML,
      xml: `<request><shipment><order_id>100001001-1</order_id><items>${items}</items>
        <carrier_tracking_number>TRK-1</carrier_tracking_number><carrier_title>DHL</carrier_title>
        <tracks><item><carrier_code>ups</carrier_code><title>UPS</title><track_number>1Z999</track_number></item></tracks>
      </shipment></request>`,
    });
    expect(shipped.status).toBe(200);
    expect((readXml(shipped.text).response as { status: string }).status).toBe('pending_invoice');

    const invoiced = await call(server, 'POST', '/V1/fulfillmentOrder/invoice', {
      token: TOKENS.erp,
      accept: XML,
      xml: `<request><invoice><order_id>100001001-1</order_id><items>${items}</items>
        <invoice_number>000042</invoice_number><shipping_amount_incl_tax>5.0000</shipping_amount_incl_tax>
        <additional_data></additional_data></invoice></request>`,
    });
    expect(invoiced.status).toBe(200);
    const response = readXml(invoiced.text).response as { status: string; invoiced_at: string };
    expect(response.status).toBe('invoiced');
    expect(response.invoiced_at).toBe('2026-01-01 00:00:00');
  });
});
