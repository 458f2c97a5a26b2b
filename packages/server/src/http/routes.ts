import {
  AcceptCancellationRequest,
  AcceptRequest,
  AllocateRequest,
  type ApiAction,
  CancellationRequestBody,
  CreditRequest,
  HoldRequest,
  InvoiceRequest,
  OrderResourceSchema,
  type Principal,
  type QueueName,
  type QueuePage,
  type QueuePollParams,
  ReceiptRequest,
  RejectCancellationRequest,
  RejectRequest,
  ReleaseRequest,
  type ReturnQueue,
  ReturnRequest,
  ReturnResourceSchema,
  SalesOrderRequest,
  SalesOrderResourceSchema,
  SalesOrdersRequest,
  ShipRequest,
  StockAdjustmentRequest,
  StockAdjustmentResourceSchema,
  StockItemResourceSchema,
  StockItemsRequest,
  unverified,
  WarehouseResourceSchema,
} from '@fulfil/core';
import type * as v from 'valibot';
import { WithStatus } from './answers.js';
import { JsonDocuments } from './json-documents.js';
import { batchEntryOf, HoldAnswerSchema, SalesOrderBatchEntrySchema } from './sales-orders.js';
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
  /** The path's parameters (`{sales_order_number}`), percent-decoded. */
  params: Record<string, string>;
}

export interface Operation {
  method: 'GET' | 'POST';
  /** Below `STORE_PREFIX`; a path parameter in OpenAPI's style, `{name}`, a whole segment. */
  path: string;
  operationId: string;
  tag: 'Warehouses' | 'Fulfillment orders' | 'Sales orders' | 'Returns';
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
  /**
   * The response resource; `many` answers an array of it; `created`: 201 when the run answers
   * a `WithStatus` of 201 (the first intake), else 200.
   */
  response: { schema: v.GenericSchema; many: boolean; created?: boolean };
  /** Error statuses the operation answers beyond those of every operation (409 of an intake). */
  conflict?: boolean;
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
  {
    queue: 'pending_cancellation',
    summary:
      'Orders with a cancellation request awaiting your answer (its `cancellation_request`, the requested items).',
  },
];

const RETURN_QUEUES: readonly { queue: ReturnQueue; summary: string }[] = [
  {
    queue: 'pending_receipt',
    summary:
      "Returns to the caller's warehouses with goods still expected: neither received nor declared missing.",
  },
  {
    queue: 'pending_credit',
    summary: 'Returns with received goods not yet credited, awaiting the credit note of the ERP.',
  },
];

type ActionName =
  | 'accept'
  | 'reject'
  | 'allocate'
  | 'ship'
  | 'invoice'
  | 'acceptCancellation'
  | 'rejectCancellation';

/** The POST actions on one fulfillment order: the contract's, then the answers to cancellations. */
const ACTIONS: readonly {
  action: ActionName;
  /** The ACL action, when it is not the action's own name. */
  acl?: ApiAction;
  /** The operationId, when it is not `<action>Order`. */
  operationId?: string;
  request: v.GenericSchema;
  summary: string;
}[] = [
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
  {
    action: 'acceptCancellation',
    acl: 'accept_cancellation',
    operationId: 'acceptCancellation',
    request: AcceptCancellationRequest,
    summary:
      'Cancel the requested items and release their stock; a repeat is a no-op, a request whose items shipped is 400.',
  },
  {
    action: 'rejectCancellation',
    acl: 'reject_cancellation',
    operationId: 'rejectCancellation',
    request: RejectCancellationRequest,
    summary: 'Keep the requested items in the flow, saying why (`message`); a repeat is a no-op.',
  },
];

/** `pending_accept` → `PendingAccept`: every operationId is camelCase. */
function camelCase(name: string): string {
  return name.replace(/(?:^|_)(\w)/g, (_, letter: string) => letter.toUpperCase());
}

const order = { schema: OrderResourceSchema, many: false } as const;
const orders = { schema: OrderResourceSchema, many: true } as const;

/** A page of a queue or feed: its stored documents, its cursor, what a long poll needs. */
function pageAnswer(page: QueuePage): JsonDocuments {
  return new JsonDocuments(
    page.documents,
    { [CURSOR_HEADER]: page.cursor },
    { pending: page.pending, storeId: page.store_id },
    page.json,
  );
}

/** The polling parameters of a queue GET and of a feed (docs/polling.md). */
const PAGED = ['page', 'date', 'after', 'since', 'wait'] as const;
/** A queue's: with the deadline extensions (docs/deadlines.md). */
const QUEUE_PAGED = [...PAGED, 'include', 'sort'] as const;

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
  {
    method: 'POST',
    path: '/V1/stockAdjustments',
    operationId: 'adjustStock',
    tag: 'Warehouses',
    summary:
      'Change on hand by deltas, each with its reason, all or nothing and never below 0, once by adjustment_number: 201 the first time, 200 and the same answer for a repeat with the same content, 409 naming each differing field for other content.',
    action: 'stock_adjust',
    request: StockAdjustmentRequest,
    query: [],
    response: { schema: StockAdjustmentResourceSchema, many: false, created: true },
    conflict: true,
    run: async (engine, { principal, body }) => {
      const applied = await engine.adjustStock(principal, unverified(body));
      return new WithStatus(applied.outcome === 'created' ? 201 : 200, applied.adjustment);
    },
  },
  ...QUEUES.map(
    ({ queue, summary }): Operation => ({
      method: 'GET',
      path: `/V1/fulfillmentOrders/${queue}`,
      operationId: `poll${camelCase(queue)}`,
      tag: 'Fulfillment orders',
      summary,
      action: queue,
      // `after`, `since`, `wait`, `include` and `sort` are extensions (docs/polling.md,
      // docs/deadlines.md): without them, the contract.
      query: QUEUE_PAGED,
      cacheable: true,
      longPoll: true,
      response: orders,
      run: async (engine, { principal, query }) =>
        pageAnswer(await engine.pollPage(principal, queue, query)),
    }),
  ),
  ...ACTIONS.map(
    ({ action, acl, operationId, request, summary }): Operation => ({
      method: 'POST',
      path: `/V1/fulfillmentOrder/${action}`,
      operationId: operationId ?? `${action}Order`,
      tag: 'Fulfillment orders',
      summary,
      action: acl ?? (action as ApiAction),
      request,
      query: [],
      response: order,
      run: (engine, { principal, body }) => engine[action](principal, unverified(body)),
    }),
  ),
  // A sales channel's operations (docs/channel-guide.md).
  {
    method: 'POST',
    path: '/V1/salesOrders',
    operationId: 'createSalesOrder',
    tag: 'Sales orders',
    summary:
      'Take in a sales order, once by its number: 201 the first time, 200 and the same view for a repeat with the same content, 409 naming each differing field for other content.',
    action: 'create_sales_order',
    request: SalesOrderRequest,
    query: [],
    response: { schema: SalesOrderResourceSchema, many: false, created: true },
    conflict: true,
    run: async (engine, { principal, body }) => {
      const taken = await engine.createSalesOrder(principal, unverified(body));
      return new WithStatus(taken.outcome === 'created' ? 201 : 200, taken.sales_order);
    },
  },
  {
    method: 'POST',
    path: '/V1/salesOrders/batch',
    operationId: 'createSalesOrders',
    tag: 'Sales orders',
    summary:
      'Take in 1 to 100 sales orders in one transaction, each answered on its own, in order: its status (201, 200, 409 or 400) and its view or error body.',
    action: 'create_sales_order',
    request: SalesOrdersRequest,
    query: [],
    response: { schema: SalesOrderBatchEntrySchema, many: true },
    run: async (engine, { principal, body }) =>
      (await engine.createSalesOrders(principal, unverified(body))).map(batchEntryOf),
  },
  {
    method: 'GET',
    path: '/V1/salesOrders/{sales_order_number}',
    operationId: 'getSalesOrder',
    tag: 'Sales orders',
    summary:
      'The Sales order view: status, fulfillment orders, shipments with their tracks, invoices.',
    action: 'read_sales_orders',
    query: [],
    cacheable: true,
    response: { schema: SalesOrderResourceSchema, many: false },
    run: (engine, { principal, params }) =>
      engine.getSalesOrder(principal, params.sales_order_number ?? ''),
  },
  {
    method: 'GET',
    path: '/V1/salesOrders',
    operationId: 'listSalesOrders',
    tag: 'Sales orders',
    summary:
      "The store's sales orders as their views, by id; followed with `since` and `wait`, a sales order comes again whenever its view changes.",
    action: 'read_sales_orders',
    query: PAGED,
    cacheable: true,
    longPoll: true,
    response: { schema: SalesOrderResourceSchema, many: true },
    run: async (engine, { principal, query }) =>
      pageAnswer(await engine.pollSalesOrders(principal, query)),
  },
  // Returns (docs/channel-guide.md, Returns): a channel opens, a partner receives, an ERP credits.
  {
    method: 'POST',
    path: '/V1/returns',
    operationId: 'createReturn',
    tag: 'Returns',
    summary:
      'Open a return of shipped lines, once by its rma_number: 201 the first time, 200 and the same return for a repeat with the same content, 409 naming each differing field for other content.',
    action: 'create_return',
    request: ReturnRequest,
    query: [],
    response: { schema: ReturnResourceSchema, many: false, created: true },
    conflict: true,
    run: async (engine, { principal, body }) => {
      const opened = await engine.createReturn(principal, unverified(body));
      return new WithStatus(opened.outcome === 'created' ? 201 : 200, opened.return);
    },
  },
  ...RETURN_QUEUES.map(
    ({ queue, summary }): Operation => ({
      method: 'GET',
      path: `/V1/returns/${queue}`,
      operationId: `pollReturns${camelCase(queue)}`,
      tag: 'Returns',
      summary,
      action: queue === 'pending_receipt' ? 'returns_pending_receipt' : 'returns_pending_credit',
      query: PAGED,
      cacheable: true,
      longPoll: true,
      response: { schema: ReturnResourceSchema, many: true },
      run: async (engine, { principal, query }) =>
        pageAnswer(await engine.pollReturns(principal, queue, query)),
    }),
  ),
  {
    method: 'POST',
    path: '/V1/return/receive',
    operationId: 'receiveReturn',
    tag: 'Returns',
    summary:
      'Record a receipt of returned goods, partial or whole, per line: restocked (back on hand at the receiving warehouse), quarantined (counted apart), disposed, missing. Idempotent by receipt_number.',
    action: 'receive_return',
    request: ReceiptRequest,
    query: [],
    response: { schema: ReturnResourceSchema, many: false },
    run: (engine, { principal, body }) => engine.receiveReturn(principal, unverified(body)),
  },
  {
    method: 'POST',
    path: '/V1/return/credit',
    operationId: 'creditReturn',
    tag: 'Returns',
    summary:
      'Record the credit note of the received goods, reconciled like an invoice: a mismatch names each field and the expected value. Idempotent by credit_note_number.',
    action: 'credit_return',
    request: CreditRequest,
    query: [],
    response: { schema: ReturnResourceSchema, many: false },
    run: (engine, { principal, body }) => engine.creditReturn(principal, unverified(body)),
  },
  {
    method: 'POST',
    path: '/V1/salesOrder/hold',
    operationId: 'holdSalesOrder',
    tag: 'Sales orders',
    summary:
      'Hold the fulfillment orders no line of which is allocated yet, under a handle: they leave every queue until released. Answers which were held and why the others were not.',
    action: 'hold_sales_order',
    request: HoldRequest,
    query: [],
    response: { schema: HoldAnswerSchema, many: false },
    run: (engine, { principal, body }) => engine.holdSalesOrder(principal, unverified(body)),
  },
  {
    method: 'POST',
    path: '/V1/salesOrder/release',
    operationId: 'releaseSalesOrder',
    tag: 'Sales orders',
    summary:
      'Release the hold of a handle; a fulfillment order left with no hold is back in its queue at once.',
    action: 'hold_sales_order',
    request: ReleaseRequest,
    query: [],
    response: { schema: SalesOrderResourceSchema, many: false },
    run: (engine, { principal, body }) => engine.releaseSalesOrder(principal, unverified(body)),
  },
  {
    method: 'POST',
    path: '/V1/salesOrder/cancel',
    operationId: 'cancelSalesOrder',
    tag: 'Sales orders',
    summary:
      "Cancel the sales order, or some lines: unaccepted lines at once; accepted ones by a cancellation request to their partner; a courier warehouse's at once. Shipped lines cannot be canceled.",
    action: 'cancel_sales_order',
    request: CancellationRequestBody,
    query: [],
    response: { schema: SalesOrderResourceSchema, many: false },
    run: (engine, { principal, body }) => engine.cancelSalesOrder(principal, unverified(body)),
  },
];

/** The router's pattern of an operation's path: `{name}` as `:name`. */
export function routePattern(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The OpenAPI document's own path, public like the contract it describes. */
export const SCHEMA_PATH = '/schema';

/** The API reference page rendering that document: at the root (default store), and per store. */
export const DOCS_PATH = '/docs';
