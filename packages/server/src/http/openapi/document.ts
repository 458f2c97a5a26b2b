import {
  AcceptCancellationRequest,
  AcceptRequest,
  AddressInput,
  AllocateRequest,
  CancellationRequestBody,
  CancellationRequestResourceSchema,
  CancellationRequestViewSchema,
  CreditRequest,
  characterLimitOf,
  DEFAULT_ACL_PREFIX,
  HoldRequest,
  HoldResourceSchema,
  InvoiceRequest,
  InvoiceResourceSchema,
  ItemResourceSchema,
  MAX_PAGE,
  MAX_WAIT_PARAMETER,
  OrderResourceSchema,
  PaymentInput,
  QueuePollParams,
  ReceiptRequest,
  RejectCancellationRequest,
  RejectRequest,
  ReleaseRequest,
  ReturnRequest,
  ReturnResourceSchema,
  resourceOf,
  SalesOrderInput,
  SalesOrderItemInput,
  SalesOrderRequest,
  SalesOrderResourceSchema,
  SalesOrdersRequest,
  ShipmentResourceSchema,
  ShippingInput,
  ShipRequest,
  STRING_LIMITS,
  StockAdjustmentRequest,
  StockAdjustmentResourceSchema,
  StockItem,
  StockItemResourceSchema,
  StockItemsRequest,
  TrackInput,
  TrackResourceSchema,
  WarehouseResourceSchema,
} from '@fulfil/core';
import { type ConversionConfig, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { OPERATIONS, type Operation, SCHEMA_PATH } from '../routes.js';
import { HoldAnswerSchema, SalesOrderBatchEntrySchema } from '../sales-orders.js';
import { EXAMPLES } from './examples.js';
import { ErrorBodySchema, ErrorParameterSchema } from './resources.js';

/**
 * The OpenAPI 3.1 document of the REST surface, generated from the route table and the valibot
 * schemas the engine validates with (requests) and the server answers with (resources). Both
 * security schemes and every media type (JSON, and XML as application/xml or text/xml) are
 * declared; the `xml` annotations describe the XML shape (`<request>` and `<response>` roots,
 * array entries as `<item>`; see docs/behaviour.md).
 */

type Json = { [key: string]: unknown };

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: Json;
  servers: Json[];
  tags: Json[];
  security: Json[];
  paths: Record<string, Json>;
  components: Json;
}

export interface OpenApiOptions {
  /** Prefix of the ACL resources named per operation; default `Fulfil`. */
  aclPrefix?: string;
  /** Default of the `store_code` server variable; default `default`. */
  storeCode?: string;
  /** Scheme and host put before `/rest/{store_code}`; default none (a relative server URL). */
  baseUrl?: string;
}

/** The resource and request components, by name. Each schema object appears once: `$ref`s join them. */
const COMPONENTS: Record<string, v.GenericSchema> = {
  Warehouse: WarehouseResourceSchema,
  StockItem: StockItemResourceSchema,
  StockAdjustment: StockAdjustmentResourceSchema,
  Payment: PaymentInput,
  Shipping: ShippingInput,
  Address: AddressInput,
  FulfillmentOrderItem: ItemResourceSchema,
  FulfillmentOrder: OrderResourceSchema,
  ErrorParameter: ErrorParameterSchema,
  ErrorBody: ErrorBodySchema,
  StockItemInput: StockItem,
  TrackInput,
  StockItemsRequest,
  StockAdjustmentRequest,
  AcceptRequest,
  RejectRequest,
  AllocateRequest,
  ShipRequest,
  InvoiceRequest,
  SalesOrderItem: SalesOrderItemInput,
  SalesOrderInput,
  SalesOrderTrack: TrackResourceSchema,
  SalesOrderShipment: ShipmentResourceSchema,
  SalesOrderInvoice: InvoiceResourceSchema,
  SalesOrder: SalesOrderResourceSchema,
  SalesOrderBatchEntry: SalesOrderBatchEntrySchema,
  SalesOrderRequest,
  SalesOrdersRequest,
  Return: ReturnResourceSchema,
  ReturnRequest,
  ReceiptRequest,
  CreditRequest,
  CancellationRequestDetail: CancellationRequestResourceSchema,
  SalesOrderHold: HoldResourceSchema,
  SalesOrderCancellation: CancellationRequestViewSchema,
  HoldAnswer: HoldAnswerSchema,
  HoldRequest,
  ReleaseRequest,
  CancelSalesOrderRequest: CancellationRequestBody,
  AcceptCancellationRequest,
  RejectCancellationRequest,
};

const REQUEST_COMPONENTS = new Set(
  Object.keys(COMPONENTS).filter((name) => name.endsWith('Request')),
);

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  // Requests are described as clients write them; the resources have no transforms anyway.
  typeMode: 'input',
  // Checks, trims and transforms have no JSON Schema form; the engine enforces them.
  errorMode: 'ignore',
  // Except the length limits, checked in characters: JSON Schema's maxLength says the same.
  overrideAction: ({ valibotAction, jsonSchema }) => {
    const max = characterLimitOf(valibotAction);
    return max === undefined ? undefined : { ...jsonSchema, maxLength: max };
  },
};

/** What the server reads and writes; `text/xml` is the same XML as `application/xml`. */
const MEDIA_TYPES = ['application/json', 'application/xml', 'text/xml'] as const;

function ref(name: string): Json {
  return { $ref: `#/components/schemas/${name}` };
}

/** Adds the XML shape of arrays (a wrapper element holding `<item>`s) everywhere in a schema. */
function annotateXml(node: unknown): void {
  if (Array.isArray(node)) {
    for (const entry of node) annotateXml(entry);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Json;
  for (const value of Object.values(schema)) annotateXml(value);
  if (schema.type === 'array') {
    schema.xml = { wrapped: true };
    if (typeof schema.items === 'object' && schema.items !== null) {
      (schema.items as Json).xml = { name: 'item' };
    }
  }
}

function componentSchemas(): Record<string, Json> {
  const converted = toJsonSchemaDefs(COMPONENTS, {
    ...CONVERSION,
    overrideRef: (context) => `#/components/schemas/${context.referenceId}`,
  }) as Record<string, Json>;
  for (const [name, schema] of Object.entries(converted)) {
    delete schema.$schema;
    annotateXml(schema);
    if (REQUEST_COMPONENTS.has(name)) schema.xml = { name: 'request' };
    if (EXAMPLES[name] !== undefined) schema.examples = [EXAMPLES[name]];
  }
  return converted;
}

/** Each request body by the name of its schema, so generated clients name them alike. */
function requestBodies(): Record<string, Json> {
  return Object.fromEntries(
    [...REQUEST_COMPONENTS].map((name) => [name, { required: true, content: content(ref(name)) }]),
  );
}

function content(schema: Json): Json {
  return Object.fromEntries(MEDIA_TYPES.map((type) => [type, { schema }]));
}

function componentNameOf(schema: v.GenericSchema): string {
  const found = Object.entries(COMPONENTS).find(([, candidate]) => candidate === schema);
  if (!found) throw new Error('an operation uses a schema that is not a component');
  return found[0];
}

/** The response body of an operation, rooted at `<response>` in XML. */
function responseSchema(operation: Operation): Json {
  const name = componentNameOf(operation.response.schema);
  if (!operation.response.many) return { ...ref(name), xml: { name: 'response' } };
  return {
    type: 'array',
    items: { ...ref(name), xml: { name: 'item' } },
    xml: { name: 'response', wrapped: true },
  };
}

const QUERY_DESCRIPTIONS: Record<string, string> = {
  page: 'Page number starting at 1; the page size is fixed at 100. Iterate until an empty array is returned.',
  date: 'Only orders updated since this moment, inclusive: "YYYY-MM-DD HH:MM:SS", UTC.',
  after:
    'Extension. Keyset paging: the next 100 orders of the queue with `id` greater than this, in id order; pass the last id of the previous page. Never skips an order that stays in the queue, never repeats one. Not with `page` (400); may be combined with `date`.',
  since:
    "Extension. A `Fulfil-Cursor` from an earlier answer: the orders of the queue changed after it, in change order, 100 at most; the answer's own `Fulfil-Cursor` continues from there. Not with `page`, `after` or `date` (400). A cursor this database can no longer serve is 410: poll again without it.",
  include:
    'Extension. `fulfill_by`: each order carries its `fulfill_by` ("YYYY-MM-DD HH:MM:SS", UTC), the moment it must leave the warehouse; absent for an order without one.',
  sort: "Extension. `fulfill_by`: the orders with the earliest `fulfill_by` first (ties by id, orders without one last); `after` then takes the id of the last order of the previous page and continues after its place, never skipping nor repeating an order that stays in the queue. With `since`, each page of changes is in this order. `id` (the default) is the contract's order.",
  wait: 'Extension. Long polling: hold the request up to this many seconds (the server caps it, 25 by default) until the answer would not be empty, then answer at once; at the end of the wait, `200 []` with the current `Fulfil-Cursor`.',
};

/** A valibot schema as a standalone JSON Schema, with the document's conversion settings. */
export function jsonSchemaOf(schema: v.GenericSchema): Json {
  const converted = toJsonSchema(schema, CONVERSION) as Json;
  delete converted.$schema;
  return converted;
}

/**
 * Query values are text on the wire; `page` is described by the integer it spells (the engine
 * also takes a number from embedding code, which the URL never carries).
 */
const PAGE_PARAMETER_SCHEMA: Json = { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 };

/** The integers `after` and `wait` spell, like `page`. */
const INTEGER_PARAMETER_SCHEMAS: Record<string, Json> = {
  page: PAGE_PARAMETER_SCHEMA,
  after: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
  wait: { type: 'integer', minimum: 0, maximum: MAX_WAIT_PARAMETER },
};

function queryParameter(name: keyof typeof QueuePollParams.entries): Json {
  const schema = INTEGER_PARAMETER_SCHEMAS[name] ?? jsonSchemaOf(QueuePollParams.entries[name]);
  return { name, in: 'query', required: false, description: QUERY_DESCRIPTIONS[name], schema };
}

/** The headers error responses carry, by header name: the component of each, and what it says. */
const HEADERS = {
  Allow: {
    component: 'Allow',
    description: 'The methods the path takes; empty for a CONNECT to a host and port.',
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    component: 'WwwAuthenticate',
    description:
      'The Bearer challenge: `Bearer realm="fulfil"`, with `error="invalid_token"` when a token was sent.',
    schema: { type: 'string' },
  },
  'Retry-After': {
    component: 'RetryAfter',
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
  },
} as const;

type HeaderName = keyof typeof HEADERS;

const ERROR_RESPONSES: Record<string, { description: string; headers?: HeaderName[] }> = {
  BadRequest: {
    description:
      'Invalid query or body (a string over its maxLength included): the body names each bad field (parameters, errors).',
  },
  Unauthorized: {
    description:
      'Missing, malformed, unknown, revoked or expired token, or a token of another store.',
    headers: ['WWW-Authenticate'],
  },
  Forbidden: {
    description: "The token lacks the operation's ACL resource, named in parameters[].resources.",
  },
  NotFound: {
    description:
      "Unknown route, an order_id that does not exist in the token's scope, or a sales order number the store has not taken in.",
  },
  MethodNotAllowed: {
    description:
      'A method the path does not take (CONNECT on any path): Allow lists those it does.',
    headers: ['Allow'],
  },
  NotAcceptable: { description: 'Accept names none of the media types the operation produces.' },
  PayloadTooLarge: {
    description:
      'The request body exceeds the server limit (4 MiB by default), or the body has more than 100,000 XML elements or JSON values.',
  },
  UnsupportedMediaType: {
    description: 'Content-Type is neither application/json nor application/xml (nor text/xml).',
  },
  TooManyRequests: {
    description:
      'More than 20 failed authentications within 10 s from this address: its failures are refused until Retry-After (seconds) has passed. A valid token is never refused. ' +
      'On a queue GET with `wait`: too many long polls are held for this token or on this server; retry after Retry-After, or poll without `wait`.',
    headers: ['Retry-After'],
  },
  Conflict: {
    description:
      'The sales order number was taken in with other content (code 1409): `errors` names each field that differs. Nothing was written.',
  },
  CursorExpired: {
    description:
      'The `since` cursor can no longer be served here (code 1410: it belongs to another database, one restored or replaced): poll again without `since` and continue from the new `Fulfil-Cursor`.',
  },
  ServiceUnavailable: {
    description:
      'The database cannot be reached right now, or the server is shutting down. The action may have been applied ' +
      'all the same (the connection dropped between the commit and its reply). ' +
      "Repeating the request is safe (every action is idempotent): retry after the Retry-After header's seconds.",
    headers: ['Retry-After'],
  },
  InternalError: {
    description:
      'Unexpected server error; safe to retry with exponential backoff. The message holds a report id.',
  },
};

function headerComponents(): Record<string, Json> {
  return Object.fromEntries(
    Object.values(HEADERS).map(({ component, description, schema }) => [
      component,
      { description, schema },
    ]),
  );
}

function errorResponses(errorContent: Json): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([name, { description, headers }]) => {
      const response: Json = { description, content: errorContent };
      if (headers) {
        response.headers = Object.fromEntries(
          headers.map((header) => [
            header,
            { $ref: `#/components/headers/${HEADERS[header].component}` },
          ]),
        );
      }
      return [name, response];
    }),
  );
}

/** The headers of a queue GET's answer (docs/polling.md). */
const CURSOR_HEADERS: Json = {
  'Fulfil-Cursor': {
    description:
      'Extension. Opaque cursor of what this answer saw: pass it as `since` to get the orders of the queue changed after it.',
    schema: { type: 'string' },
  },
};

function errorResponse(name: string): Json {
  return { $ref: `#/components/responses/${name}` };
}

/** The path parameters of an operation (`{sales_order_number}`), each a whole segment. */
function pathParameters(operation: Operation): Json[] {
  return [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: 'The sales order number, percent-encoded as a path segment.',
    schema: { type: 'string', minLength: 1, maxLength: STRING_LIMITS.sales_order_number },
  }));
}

function operationObject(operation: Operation, aclPrefix: string): Json {
  const resource = resourceOf(operation.action, aclPrefix);
  const ok = { description: 'OK', content: content(responseSchema(operation)) };
  const responses: Json = operation.response.created
    ? {
        200: { ...ok, description: 'Taken in before with the same content: nothing was written.' },
        201: { ...ok, description: 'Taken in now.' },
      }
    : { 200: ok };
  responses[400] = errorResponse('BadRequest');
  responses[401] = errorResponse('Unauthorized');
  responses[403] = errorResponse('Forbidden');
  const params = pathParameters(operation);
  if (operation.method === 'POST' || params.length > 0) responses[404] = errorResponse('NotFound');
  responses[405] = errorResponse('MethodNotAllowed');
  responses[406] = errorResponse('NotAcceptable');
  if (operation.conflict) responses[409] = errorResponse('Conflict');
  if (operation.method === 'POST') {
    responses[413] = errorResponse('PayloadTooLarge');
    responses[415] = errorResponse('UnsupportedMediaType');
  }
  responses[429] = errorResponse('TooManyRequests');
  if (operation.longPoll) {
    responses[200] = { ...(responses[200] as Record<string, Json>), headers: CURSOR_HEADERS };
    responses[410] = errorResponse('CursorExpired');
  }
  responses[500] = errorResponse('InternalError');
  responses[503] = errorResponse('ServiceUnavailable');
  responses.default = errorResponse('InternalError');
  const object: Json = {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: `Requires the ACL resource \`${resource}\`.`,
    'x-acl-resource': resource,
    parameters: [...params, ...operation.query.map(queryParameter)],
    responses,
  };
  if (operation.request) {
    object.requestBody = {
      $ref: `#/components/requestBodies/${componentNameOf(operation.request)}`,
    };
  }
  return object;
}

/**
 * The server entry of the document a store serves: the absolute URL of that store, which
 * generated clients and validating proxies take as it is.
 */
export function storeServers(baseUrl: string, storeCode: string): Json[] {
  return [
    {
      url: `${baseUrl.replace(/\/+$/, '')}/rest/${encodeURIComponent(storeCode)}`,
      description: `The store ${storeCode}.`,
    },
  ];
}

/** The server entry: `/rest/{store_code}` below the base URL, the store code a variable. */
export function serversFor(storeCode = 'default', baseUrl = ''): Json[] {
  return [
    {
      url: `${baseUrl.replace(/\/+$/, '')}/rest/{store_code}`,
      variables: { store_code: { default: storeCode, description: 'The tenant (store) code.' } },
    },
  ];
}

export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const aclPrefix = options.aclPrefix ?? DEFAULT_ACL_PREFIX;
  const paths: Record<string, Json> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] ??= {};
    (paths[operation.path] as Json)[operation.method.toLowerCase()] = operationObject(
      operation,
      aclPrefix,
    );
  }
  paths[SCHEMA_PATH] = {
    get: {
      operationId: 'openApiDocument',
      tags: ['Schema'],
      summary: 'This document. Needs no token.',
      security: [],
      responses: {
        200: {
          description: 'The OpenAPI document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        405: errorResponse('MethodNotAllowed'),
        406: errorResponse('NotAcceptable'),
        500: errorResponse('InternalError'),
      },
    },
  };
  const errorContent = content({ ...ref('ErrorBody'), xml: { name: 'response' } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fulfil fulfillment order service',
      version: '1',
      description:
        'Warehouse listing, stock synchronisation, the staged processing of fulfillment orders, the sales orders a sales channel hands in and follows, and their returns. ' +
        'Requests and responses are JSON or XML (root `<request>` / `<response>`, array entries as `<item>`). ' +
        'Timestamps are UTC "YYYY-MM-DD HH:MM:SS".',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: serversFor(options.storeCode, options.baseUrl),
    tags: [
      { name: 'Warehouses', description: "The store's warehouses and their on-hand stock." },
      {
        name: 'Fulfillment orders',
        description:
          'The four polled queues (pending_accept, pending_allocation, pending_shipment, pending_invoice), the read-only failed queue, and the actions that move an order between them.',
      },
      {
        name: 'Sales orders',
        description:
          "A sales channel's side: sales orders taken in once by their number, the Sales order view of each, and a feed of their changes.",
      },
      {
        name: 'Returns',
        description:
          'Goods coming back: a channel opens a return of shipped lines, the receiving warehouse polls pending_receipt and posts receipts (restocked goods go back on hand), the ERP polls pending_credit and posts credits, reconciled like invoices.',
      },
      { name: 'Schema', description: 'This document.' },
    ],
    security: [{ bearerAuth: [] }, { apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <token>',
        },
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'api_key',
          description: 'The same token, in the header api_key.',
        },
      },
      schemas: componentSchemas(),
      requestBodies: requestBodies(),
      headers: headerComponents(),
      responses: errorResponses(errorContent),
    },
  };
}
