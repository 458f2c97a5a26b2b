import {
  AcceptRequest,
  AllocateRequest,
  type ApiAction,
  InvoiceRequest,
  OrderResourceSchema,
  type Principal,
  type QueueName,
  type QueuePollParams,
  RejectRequest,
  ShipRequest,
  StockItemResourceSchema,
  StockItemsRequest,
  unverified,
  WarehouseResourceSchema,
} from '@fulfil/core';
import type * as v from 'valibot';
import { JsonDocuments } from './json-documents.js';
import type { HttpEngine } from './types.js';

/**
 * The public REST surface as data: each operation's method, path, ACL action, request schema,
 * response schema and the engine call behind it. The request handler serves it and the OpenAPI
 * document describes it, so the two cannot drift apart.
 */

/** The response header of every queue GET: the change cursor of what it saw (docs/polling.md). */
export const CURSOR_HEADER = 'fulfil-cursor';

/** Every operation lives under this prefix; `store_code` picks the tenant. */
export const STORE_PREFIX = '/rest/:store_code';

/** What an operation gets from the request once it is authenticated and decoded. */
export interface OperationInput {
  principal: Principal;
  /** The decoded body (POST) or undefined. */
  body: unknown;
  /** The query parameters the operation declares, as text; absent ones are not there. */
  query: Record<string, string>;
}

export interface Operation {
  method: 'GET' | 'POST';
  /** Below `STORE_PREFIX`, with OpenAPI's `{name}` style left out: these paths have none. */
  path: string;
  operationId: string;
  tag: 'Warehouses' | 'Fulfillment orders';
  summary: string;
  /** The ACL action (docs/behaviour.md, Tokens and ACL) whose resource the token must grant. */
  action: ApiAction;
  /** The valibot schema of the request body: validation in the engine, XML typing here. */
  request?: v.GenericSchema;
  /** Query parameters, each described by its entry of the core's QueuePollParams schema. */
  query: readonly (keyof typeof QueuePollParams.entries)[];
  /** A queue GET that `wait` may hold until the queue has something new (long-poll.ts). */
  longPoll?: boolean;
  /**
   * A GET whose answer depends only on the stored data, the token and the declared query: its
   * finished response may be kept while the repository's change stamp stays the same.
   */
  cacheable?: boolean;
  /** The response resource; `many` answers an array of it. */
  response: { schema: v.GenericSchema; many: boolean };
  run(engine: HttpEngine, input: OperationInput): Promise<unknown>;
}

const QUEUES: readonly { queue: QueueName; summary: string }[] = [
  {
    queue: 'pending_accept',
    summary: "Orders routed to the caller's warehouses, awaiting accept or reject.",
  },
  {
    queue: 'pending_allocation',
    summary: 'Orders accepted by a warehouse, awaiting stock allocation by the ERP.',
  },
  {
    queue: 'pending_shipment',
    summary: 'Orders allocated and ready to be picked, packed and dispatched.',
  },
  { queue: 'pending_invoice', summary: 'Orders shipped and ready to be invoiced by the ERP.' },
  { queue: 'failed', summary: 'Orders that ended in a failed state; diagnostic only.' },
];

type ActionName = 'accept' | 'reject' | 'allocate' | 'ship' | 'invoice';

const ACTIONS: readonly { action: ActionName; request: v.GenericSchema; summary: string }[] = [
  {
    action: 'accept',
    request: AcceptRequest,
    summary: 'Accept (qty > 0) or reject (qty = 0) the items of an order.',
  },
  {
    action: 'reject',
    request: RejectRequest,
    summary: 'Reject items: stock unavailable or damaged.',
  },
  {
    action: 'allocate',
    request: AllocateRequest,
    summary: 'Confirm stock allocation; the order moves to shipping.',
  },
  { action: 'ship', request: ShipRequest, summary: 'Report a (partial) shipment with its tracks.' },
  {
    action: 'invoice',
    request: InvoiceRequest,
    summary: 'Record the fiscal invoice of the shipped items.',
  },
];

/** `pending_accept` → `PendingAccept`: every operationId is camelCase. */
function camelCase(name: string): string {
  return name.replace(/(?:^|_)(\w)/g, (_, letter: string) => letter.toUpperCase());
}

const order = { schema: OrderResourceSchema, many: false } as const;
const orders = { schema: OrderResourceSchema, many: true } as const;

export const OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    path: '/V1/warehouses',
    operationId: 'listWarehouses',
    tag: 'Warehouses',
    summary: "The store's warehouses (a scoped token: its own), ordered by code.",
    action: 'warehouses',
    query: ['page'],
    response: { schema: WarehouseResourceSchema, many: true },
    run: (engine, { principal, query }) => engine.listWarehouses(principal, query),
  },
  {
    method: 'POST',
    path: '/V1/stockItems',
    operationId: 'syncStockItems',
    tag: 'Warehouses',
    summary: 'Set absolute on-hand quantities per warehouse and sku; the batch is all or nothing.',
    action: 'stock_items',
    request: StockItemsRequest,
    query: [],
    response: { schema: StockItemResourceSchema, many: true },
    run: (engine, { principal, body }) => engine.syncStock(principal, unverified(body)),
  },
  ...QUEUES.map(
    ({ queue, summary }): Operation => ({
      method: 'GET',
      path: `/V1/fulfillmentOrders/${queue}`,
      operationId: `poll${camelCase(queue)}`,
      tag: 'Fulfillment orders',
      summary,
      action: queue,
      // `after`, `since` and `wait` are extensions (docs/polling.md): without them, the contract.
      query: ['page', 'date', 'after', 'since', 'wait'],
      cacheable: true,
      longPoll: true,
      response: orders,
      run: async (engine, { principal, query }) => {
        const page = await engine.pollPage(principal, queue, query);
        return new JsonDocuments(
          page.documents,
          { [CURSOR_HEADER]: page.cursor },
          { pending: page.pending, storeId: page.store_id },
          page.json,
        );
      },
    }),
  ),
  ...ACTIONS.map(
    ({ action, request, summary }): Operation => ({
      method: 'POST',
      path: `/V1/fulfillmentOrder/${action}`,
      operationId: `${action}Order`,
      tag: 'Fulfillment orders',
      summary,
      action,
      request,
      query: [],
      response: order,
      run: (engine, { principal, body }) => engine[action](principal, unverified(body)),
    }),
  ),
];

/** The OpenAPI document's own path, public like the contract it describes. */
export const SCHEMA_PATH = '/schema';

/** The API reference page rendering that document: at the root (default store), and per store. */
export const DOCS_PATH = '/docs';
