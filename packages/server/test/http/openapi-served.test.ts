import {
  AcceptRequest,
  AllocateRequest,
  InvoiceRequest,
  parseWith,
  RejectRequest,
  ShipRequest,
  StockAdjustmentRequest,
  StockItemsRequest,
} from '@fulfil/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parsePublicUrl } from '../../src/http/public-url.js';
import {
  buildOpenApiDocument,
  createRequestHandler,
  type HttpEngine,
  OPERATIONS,
} from '../../src/index.js';
import { jsonOf, startTestServer, type TestServer } from './support.js';

/**
 * Issue 16 item 12: the document a store serves names that store's absolute URL; the CLI's copy
 * keeps the template. Request bodies are named components, every schema of a request or a
 * resource has a valid example, every operationId is camelCase, and 405 is declared.
 */

// biome-ignore lint/suspicious/noExplicitAny: a JSON document, read by path
type Json = any;

const document: Json = JSON.parse(JSON.stringify(buildOpenApiDocument()));

describe('the server URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test('is the absolute URL of the store the document was fetched for', async () => {
    const served = await jsonOf(await fetch(`${server.url}/rest/other/schema`));
    expect(served.servers).toEqual([
      { url: `${server.url}/rest/other`, description: 'The store other.' },
    ]);
    // The rest is the document the CLI prints.
    expect({ ...served, servers: document.servers }).toEqual(document);
  });

  // What the server cannot vouch for is not written into a URL.
  const schemaWith = (headers: Record<string, string>, publicUrl?: string) =>
    createRequestHandler({} as HttpEngine, {
      log: () => {},
      ...(publicUrl === undefined ? {} : { publicUrl }),
    })({ method: 'GET', path: '/rest/a%20b/schema', query: {}, headers, body: Buffer.alloc(0) });

  test.each([
    [{ host: 'api.example.com:8443' }, 'http://api.example.com:8443/rest/a%20b'],
    [{ host: '[::1]:8080' }, 'http://[::1]:8080/rest/a%20b'],
    [{ host: 'evil.example/phish?' }, '/rest/a%20b'],
    [{ host: 'a@b' }, '/rest/a%20b'],
    [{}, '/rest/a%20b'],
    [
      { host: 'h', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
      'http://h/rest/a%20b',
    ],
  ])('headers %j: %s', async (headers, url) => {
    const response = await schemaWith(headers);
    expect(JSON.parse(String(response.body)).servers[0].url).toBe(url);
  });

  test('behind a proxy, the configured public URL', async () => {
    const response = await schemaWith({ host: 'internal:8080' }, 'https://api.example.com/fulfil/');
    expect(JSON.parse(String(response.body)).servers[0].url).toBe(
      'https://api.example.com/fulfil/rest/a%20b',
    );
  });

  test.each(['api.example.com', 'ftp://x', 'https://x/?a=1', 'https://u:p@x/'])(
    'a public URL %j is refused',
    (url) => {
      expect(() => parsePublicUrl(url)).toThrow();
    },
  );

  test("the CLI's copy keeps the template", () => {
    expect(document.servers).toEqual([
      expect.objectContaining({
        url: '/rest/{store_code}',
        variables: { store_code: expect.objectContaining({ default: 'default' }) },
      }),
    ]);
  });
});

describe('the operations', () => {
  const operations: Json[] = Object.values(document.paths).flatMap((item: Json) =>
    Object.values(item),
  );

  test('every operationId is camelCase, and unique', () => {
    const ids = operations.map((operation: Json) => operation.operationId);
    expect(ids).toHaveLength(OPERATIONS.length + 1);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(ids).toEqual(
      expect.arrayContaining(['pollPendingAccept', 'acceptOrder', 'syncStockItems']),
    );
  });

  test('every one declares 405 with its Allow header', () => {
    for (const operation of operations) {
      expect(operation.responses['405']).toEqual({
        $ref: '#/components/responses/MethodNotAllowed',
      });
    }
    expect(document.components.responses.MethodNotAllowed.headers).toEqual({
      Allow: { $ref: '#/components/headers/Allow' },
    });
  });

  test('request bodies are named components', () => {
    const names = [
      'AcceptRequest',
      'RejectRequest',
      'AllocateRequest',
      'ShipRequest',
      'InvoiceRequest',
      'StockItemsRequest',
      'StockAdjustmentRequest',
      'SalesOrderRequest',
      'SalesOrdersRequest',
      'ReturnRequest',
      'ReceiptRequest',
      'CreditRequest',
      'HoldRequest',
      'ReleaseRequest',
      'CancelSalesOrderRequest',
      'AcceptCancellationRequest',
      'RejectCancellationRequest',
    ];
    expect(Object.keys(document.components.requestBodies).sort()).toEqual([...names].sort());
    const bodies = operations
      .filter((operation: Json) => operation.requestBody)
      .map((operation: Json) => operation.requestBody.$ref);
    expect(bodies.sort()).toEqual(names.map((name) => `#/components/requestBodies/${name}`).sort());
  });
});

describe('examples', () => {
  const schemas: Record<string, Json> = document.components.schemas;
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  for (const keyword of new Set(['xml', ...Object.keys(document)])) ajv.addKeyword(keyword);
  ajv.addSchema({ ...document, $id: 'fulfil:openapi' });

  test('every request and resource schema has one', () => {
    const without = Object.keys(schemas).filter((name) => !schemas[name].examples);
    expect(without).toEqual([]);
  });

  test.each(Object.keys(schemas))('%s: its example is valid against it', (name) => {
    const validate = ajv.compile({ $ref: `fulfil:openapi#/components/schemas/${name}` });
    for (const example of schemas[name].examples) {
      expect(validate(example) ? [] : validate.errors).toEqual([]);
    }
  });

  const ENGINE_SCHEMAS: Record<string, v.GenericSchema> = {
    AcceptRequest,
    RejectRequest,
    AllocateRequest,
    ShipRequest,
    InvoiceRequest,
    StockItemsRequest,
    StockAdjustmentRequest,
  };
  test.each(Object.keys(ENGINE_SCHEMAS))(
    '%s: its example passes the engine’s validation',
    (name) => {
      for (const example of schemas[name].examples) {
        expect(() => parseWith(ENGINE_SCHEMAS[name] as v.GenericSchema, example)).not.toThrow();
      }
    },
  );
});
