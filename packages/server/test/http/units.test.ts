import {
  AcceptRequest,
  AllocateRequest,
  InvoiceRequest,
  ShipRequest,
  StockItemsRequest,
} from '@fulfil/core';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import {
  coerceBySchema,
  createRouter,
  encodeXmlResponse,
  HTTP_STATUS_OF_ERROR,
  negotiate,
  parseXmlRequest,
} from '../../src/index.js';

/** The pure pieces: router, negotiation, XML codec and schema-driven typing. */

describe('router', () => {
  const router = createRouter<string>();
  router.add('GET', '/rest/:store/V1/warehouses', 'list');
  router.add('POST', '/rest/:store/V1/stockItems', 'sync');
  router.add('PUT', '/rest/:store/V1/stockItems', 'put');

  test('found, with decoded parameters and the route template', () => {
    expect(router.match('get', '/rest/my%20store/V1/warehouses')).toEqual({
      kind: 'found',
      handler: 'list',
      params: { store: 'my store' },
      template: '/rest/{store}/V1/warehouses',
    });
  });

  test('405 lists the methods the path has', () => {
    expect(router.match('DELETE', '/rest/x/V1/stockItems')).toEqual({
      kind: 'method_not_allowed',
      allow: ['POST', 'PUT'],
    });
  });

  test.each([
    '/rest/x/V1/warehouses/',
    '/rest//V1/warehouses',
    '/rest/x/V1',
    '/rest/%zz/V1/warehouses',
    '',
  ])('404 for %j', (path) => {
    expect(router.match('GET', path)).toEqual({ kind: 'not_found' });
  });
});

describe('negotiate', () => {
  test.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['APPLICATION/XML; q=1', 'xml'],
    ['application/json;q=0.2, application/xml;q=0.8', 'xml'],
    ['*/*;q=0.1, application/xml', 'xml'],
    ['application/xml;q=0, */*', 'json'],
    ['text/html', null],
    ['*/*;q=0', null],
    ['application/json;q=x', null],
    ['garbage', null],
  ])('%j → %s', (accept, format) => {
    expect(negotiate(accept)?.format ?? null).toBe(format);
  });
});

describe('XML', () => {
  test('repeated elements, one child, empty elements, entities and CDATA', async () => {
    expect(
      await parseXmlRequest(
        '<?xml version="1.0"?><request><a>x &amp; &lt;y&gt; &#65;&#x42;</a><b/><c><![CDATA[<raw> &amp;]]></c><d><item>1</item></d><e><item>1</item><item>2</item></e></request>',
      ),
    ).toEqual({
      a: 'x & <y> AB',
      b: '',
      c: '<raw> &amp;',
      d: { item: '1' },
      e: { item: ['1', '2'] },
    });
  });

  test('comments, processing instructions and attributes (a ">" in quotes too) are skipped', async () => {
    expect(
      await parseXmlRequest(
        '<?xml version="1.0"?>\n<!-- a note --><request kind="a>b" x=\'1\'><a unit="kg">  5 </a><!-- x --><?pi y?><b x="/"/></request>\n',
      ),
    ).toEqual({ a: '5', b: '' });
  });

  test.each([
    ['<request><a></b></request>', '</b> closes <a> (line 1)'],
    ['<request>\n<a>', '<a> is never closed (line 2)'],
    ['<request/>x', 'text outside the root element (line 1)'],
    ['<request/><request/>', 'a second root element (line 1)'],
    ['<request><1a/></request>', 'a "<" that starts no element (line 1)'],
    ['<request><a x="></request>', 'unterminated tag <a> (line 1)'],
    ['<request><![CDATA[x</request>', 'unterminated CDATA section (line 1)'],
    ['', 'no root element (line 1)'],
  ])('malformed %j is 400 saying where', async (xml, detail) => {
    await expect(parseXmlRequest(xml)).rejects.toMatchObject({
      status: 400,
      parameters: [{ fieldName: 'body', fieldValue: detail }],
    });
  });

  test('an empty <request/> is an empty object', async () => {
    expect(await parseXmlRequest('<request/>')).toEqual({});
  });

  test('responses: arrays as <item>, booleans, absent fields omitted, text escaped', () => {
    expect(
      encodeXmlResponse({
        a: [1, { b: true }],
        c: undefined,
        d: null,
        e: 'x<&>"\'\u0001',
        f: '',
        g: [],
      }),
    ).toBe(
      '<?xml version="1.0"?>\n<response><a><item>1</item><item><b>true</b></item></a><e>x&lt;&amp;&gt;&quot;&apos;\ufffd</e><f></f><g></g></response>',
    );
    expect(encodeXmlResponse([])).toBe('<?xml version="1.0"?>\n<response></response>');
  });
});

describe('coerceBySchema', () => {
  test('numbers where the schema says number, strings stay strings', async () => {
    const tree = await parseXmlRequest(
      '<request><order><order_id>000123</order_id><items><item><item_id>7</item_id><qty>1.5</qty></item></items></order></request>',
    );
    expect(coerceBySchema(AcceptRequest, tree)).toEqual({
      order: { order_id: '000123', items: [{ item_id: 7, qty: 1.5 }] },
    });
  });

  test('text that is no number is left for validation to report', () => {
    const tree = { stock_items: { item: { warehouse_code: '1', sku: '2', qty: '0x10' } } };
    expect(coerceBySchema(StockItemsRequest, tree)).toEqual({
      stock_items: [{ warehouse_code: '1', sku: '2', qty: '0x10' }],
    });
    expect(coerceBySchema(StockItemsRequest, { stock_items: { item: { qty: '' } } })).toEqual({
      stock_items: [{ qty: '' }],
    });
    expect(coerceBySchema(StockItemsRequest, { stock_items: { item: { qty: '1e400' } } })).toEqual({
      stock_items: [{ qty: '1e400' }],
    });
  });

  test('optional fields and empty elements', async () => {
    const tree = await parseXmlRequest(
      '<request><invoice><order_id>1</order_id><items><item><item_id>2</item_id></item></items><invoice_number>007</invoice_number><shipping_amount_incl_tax>5.00</shipping_amount_incl_tax><additional_data/></invoice></request>',
    );
    expect(coerceBySchema(InvoiceRequest, tree)).toEqual({
      invoice: {
        order_id: '1',
        items: [{ item_id: 2 }],
        invoice_number: '007',
        shipping_amount_incl_tax: 5,
        additional_data: '',
      },
    });
    const empty = coerceBySchema(
      ShipRequest,
      await parseXmlRequest(
        '<request><shipment><order_id>1</order_id><items/><tracks/></shipment></request>',
      ),
    );
    expect(empty).toEqual({ shipment: { order_id: '1', items: [], tracks: [] } });
  });

  test('a union picks the branch whose fields the value has', async () => {
    for (const key of ['allocation', 'order']) {
      const tree = await parseXmlRequest(
        `<request><${key}><order_id>5</order_id><items><item><item_id>3</item_id><qty>2</qty></item></items></${key}></request>`,
      );
      const coerced = coerceBySchema(AllocateRequest, tree);
      expect(coerced).toEqual({ [key]: { order_id: '5', items: [{ item_id: 3, qty: 2 }] } });
      expect(v.parse(AllocateRequest, coerced)).toEqual({
        allocation: { order_id: '5', items: [{ item_id: 3, qty: 2 }] },
      });
    }
  });

  test('booleans and nullable wrappers', () => {
    const schema = v.object({
      on: v.boolean(),
      maybe: v.nullable(v.optional(v.number())),
      list: v.array(v.boolean()),
    });
    expect(
      coerceBySchema(schema, { on: 'true', maybe: '4', list: { item: ['false', '1', 'yes'] } }),
    ).toEqual({
      on: true,
      maybe: 4,
      list: [false, true, 'yes'],
    });
  });
});

test('every domain error code has one HTTP status', () => {
  expect(HTTP_STATUS_OF_ERROR).toMatchObject({
    invalid_request: 400,
    not_found: 404,
    already_exists: 409,
    unauthenticated: 401,
    forbidden: 403,
  });
});
