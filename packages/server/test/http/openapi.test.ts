import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { jsonSchemaOf } from '../../src/http/openapi/document.js';
import { createOpenApiValidator } from './openapi-validator.js';
import { call, startTestServer, type TestServer, TOKENS } from './support.js';

let server: TestServer;
// biome-ignore lint/suspicious/noExplicitAny: the served document, read loosely for assertions
let document: any;

beforeAll(async () => {
  server = await startTestServer();
  document = (await call(server, 'GET', '/schema')).body;
});
afterAll(() => server.close());

/** The problems the validator finds in a JSON response. */
function problemsOf(method: string, path: string, status: number, body: unknown): string[] {
  const headers = new Headers({ 'content-type': 'application/json' });
  return createOpenApiValidator(document).problems({ method, path, status, headers, body });
}

describe('the served OpenAPI document tells the truth', () => {
  test('page is an integer of at least 1; date carries its pattern', () => {
    const [page, date] = document.paths['/V1/fulfillmentOrders/pending_invoice'].get.parameters;
    expect(page.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(date.schema.type).toBe('string');
    const pattern = new RegExp(date.schema.pattern);
    expect(pattern.test('2026-01-31 23:59:59')).toBe(true);
    expect(pattern.test('2026-01-31T23:59:59Z')).toBe(false);
  });

  test('text/xml is read and written like application/xml', () => {
    const ship = document.paths['/V1/fulfillmentOrder/ship'].post;
    expect(Object.keys(document.components.requestBodies.ShipRequest.content)).toContain(
      'text/xml',
    );
    expect(Object.keys(ship.responses[200].content)).toContain('text/xml');
  });

  test('statuses are enumerated', () => {
    const { FulfillmentOrder, FulfillmentOrderItem } = document.components.schemas;
    expect(FulfillmentOrder.properties.status.enum).toEqual(
      expect.arrayContaining(['pending_accept', 'partially_shipped', 'invoiced', 'failed']),
    );
    expect(FulfillmentOrderItem.properties.status.enum).toEqual(
      expect.arrayContaining(['pending_invoice', 'rejected', 'canceled']),
    );
  });

  test('401 declares WWW-Authenticate; 429 and 503 declare Retry-After', () => {
    const responses = document.components.responses;
    expect(Object.keys(responses.Unauthorized.headers)).toEqual(['WWW-Authenticate']);
    expect(Object.keys(responses.TooManyRequests.headers)).toEqual(['Retry-After']);
    expect(Object.keys(responses.ServiceUnavailable.headers)).toEqual(['Retry-After']);
    for (const path of Object.keys(document.paths).filter((path) => path !== '/schema')) {
      for (const operation of Object.values(document.paths[path]) as { responses: object }[]) {
        expect(Object.keys(operation.responses)).toEqual(
          expect.arrayContaining(['401', '429', '503']),
        );
      }
    }
  });

  test('/schema declares its 406', async () => {
    expect(document.paths['/schema'].get.responses).toHaveProperty('406');
    const reply = await call(server, 'GET', '/schema', { accept: 'application/xml' });
    expect(reply.status).toBe(406);
  });

  test('every string limit the engine enforces is a maxLength in the document', () => {
    const schemas = document.components.schemas;
    expect(schemas.StockItemInput.properties.sku).toMatchObject({ type: 'string', maxLength: 128 });
    const ship = schemas.ShipRequest.properties.shipment.properties;
    expect(ship.carrier_title).toMatchObject({ maxLength: 255 });
    expect(schemas.TrackInput.properties.track_number).toMatchObject({ maxLength: 128 });
    const invoice = schemas.InvoiceRequest.properties.invoice.properties;
    expect(invoice.invoice_number).toMatchObject({ maxLength: 128 });
    expect(invoice.doc_binary).toMatchObject({ maxLength: 1_048_576 });
  });

  test("a string's maxLength in the valibot schema reaches the document", () => {
    const bounded = v.object({ sku: v.pipe(v.string(), v.maxLength(128)) });
    expect(jsonSchemaOf(bounded)).toMatchObject({
      properties: { sku: { type: 'string', maxLength: 128 } },
    });
  });
});

describe('responses are checked against the document', () => {
  test('a response of the wrong shape is caught', () => {
    const order = { id: 1, fulfillment_order_number: '1-1', status: 'shipped_somehow' };
    const problems = problemsOf('GET', '/V1/fulfillmentOrders/pending_accept', 200, [order]);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining("must have required property 'sales_order_id'"),
        expect.stringContaining('body/0/status must be equal to one of the allowed values'),
      ]),
    );
  });

  test('a 401 without its WWW-Authenticate header is caught', () => {
    const problems = problemsOf('GET', '/V1/warehouses', 401, {
      message: 'no',
      detail: 'no',
      code: 1401,
      parameters: [],
      errors: [{ message: 'no', detail: 'no', parameters: [] }],
    });
    expect(problems).toEqual([expect.stringContaining('header WWW-Authenticate is missing')]);
  });

  test('an error body of the wrong shape on an unknown route is caught', () => {
    const problems = problemsOf('GET', '/V1/nothing', 404, { error: 'not found' });
    expect(problems).toEqual(
      expect.arrayContaining([expect.stringContaining("must have required property 'message'")]),
    );
  });

  test('a real reply passes', async () => {
    const reply = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: TOKENS.all,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.length).toBeGreaterThan(0);
  });
});
