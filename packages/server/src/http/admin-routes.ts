import {
  type AdminEngine,
  AllowPartialInput,
  BULK_ACTIONS,
  BulkFulfillByInput,
  BulkInput,
  CancellationFields,
  CancellationRequestListInput,
  FailInput,
  FulfillByInput,
  HoldFields,
  HoldListInput,
  MoveLinesInput,
  OperatorInput,
  type OperatorPrincipal,
  type OperatorRole,
  OrderSearchInput,
  ReasonInput,
  ReleaseFields,
  ReturnInput,
  ReturnListInput,
  RotateInput,
  SalesOrderInput,
  SetOnHandInput,
  StockHistoryInput,
  StockSearchInput,
  StoreSettingsPatchInput,
  TokenInput,
  TrackCorrectionInput,
  unverified,
} from '@fulfil/core';
import * as v from 'valibot';
import { labelFile } from './admin-file.js';

/**
 * The admin API (docs/admin-api.md) as data, like routes.ts is for `/V1`: each operation's
 * method, path, the least role it needs, its inputs and the engine call behind it. The request
 * handler serves it, the admin OpenAPI document describes it, and the security tests enumerate
 * it, so a route cannot be added without its authentication.
 */

export const ADMIN_PREFIX = '/admin/api';

export interface AdminInput {
  operator: OperatorPrincipal;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  /** The query parameters the operation declares, as text; absent ones are not there. */
  query: Record<string, string>;
  /** The decoded JSON body (POST, PUT), or undefined. */
  body: unknown;
}

export interface AdminOperation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below `ADMIN_PREFIX`, parameters as `:name`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  /** The least role allowed; the engine checks it (and the store scope) again itself. */
  role: OperatorRole;
  query?: v.ObjectSchema<v.ObjectEntries, undefined>;
  request?: v.GenericSchema;
  /** 201 for what creates a secret; 200 otherwise. */
  status?: 200 | 201;
  /** Answers a file (`AdminFile`), not JSON. */
  file?: true;
  run(admin: AdminEngine, input: AdminInput): Promise<unknown>;
}

const STORE = '/stores/:store';
const ORDER = `${STORE}/orders/:number`;

const RevokeInput = v.object({});

/** Every authenticated operation. The session routes (login, logout) live in the handler. */
export const ADMIN_OPERATIONS: readonly AdminOperation[] = [
  {
    method: 'GET',
    path: '/dashboard',
    operationId: 'dashboard',
    tag: 'Dashboard',
    summary:
      'Per store: each queue with its depth per warehouse and its oldest order; failed and courier counts.',
    role: 'viewer',
    run: (admin, { operator }) => admin.dashboard(operator),
  },
  {
    method: 'GET',
    path: '/stores',
    operationId: 'listStores',
    tag: 'Stores',
    summary: 'The stores the operator sees, with their settings.',
    role: 'viewer',
    run: (admin, { operator }) => admin.listStores(operator),
  },
  {
    method: 'GET',
    path: STORE,
    operationId: 'getStore',
    tag: 'Stores',
    summary: 'One store and its settings.',
    role: 'viewer',
    run: (admin, { operator, params }) => admin.getStore(operator, params.store as string),
  },
  {
    method: 'PUT',
    path: STORE,
    operationId: 'putStore',
    tag: 'Stores',
    summary: 'Creates the store or patches its settings.',
    role: 'admin',
    request: v.object({ settings: StoreSettingsPatchInput }),
    run: (admin, { operator, params, body }) =>
      admin.putStore(operator, params.store as string, body),
  },
  {
    method: 'GET',
    path: `${STORE}/warehouses`,
    operationId: 'listWarehouses',
    tag: 'Stores',
    summary: "The store's warehouses.",
    role: 'viewer',
    run: (admin, { operator, params }) => admin.listWarehouses(operator, params.store as string),
  },
  {
    method: 'PUT',
    path: `${STORE}/warehouses/:code`,
    operationId: 'putWarehouse',
    tag: 'Stores',
    summary: 'Creates the warehouse or replaces its fields.',
    role: 'admin',
    request: v.object({
      name: v.optional(v.string()),
      active: v.optional(v.boolean()),
      fulfilled_by: v.optional(v.picklist(['partner', 'courier'])),
      priority: v.optional(v.number()),
      // Routing (docs/routing.md).
      latitude: v.optional(v.nullable(v.number())),
      longitude: v.optional(v.nullable(v.number())),
      countries: v.optional(v.nullable(v.array(v.string()))),
      daily_capacity: v.optional(v.nullable(v.number())),
      // Its calendar (docs/deadlines.md): null, the store's.
      processing_days: v.optional(v.nullable(v.number())),
      working_days: v.optional(v.nullable(v.array(v.string()))),
      holidays: v.optional(v.nullable(v.array(v.string()))),
      cutoff: v.optional(v.nullable(v.string())),
      timezone: v.optional(v.nullable(v.string())),
    }),
    run: (admin, { operator, params, body }) =>
      admin.putWarehouse(operator, params.store as string, params.code as string, body),
  },
  {
    method: 'POST',
    path: `${STORE}/routing/preview`,
    operationId: 'previewRouting',
    tag: 'Stores',
    summary:
      'What intake would do with a sales order now: its fulfillment orders and every line explained; writes nothing.',
    role: 'viewer',
    request: SalesOrderInput,
    run: (admin, { operator, params, body }) =>
      admin.previewRouting(operator, params.store as string, body),
  },
  {
    method: 'GET',
    path: `${STORE}/stock`,
    operationId: 'listStock',
    tag: 'Stock',
    summary: 'Stock per warehouse and sku (sku: a prefix): on hand, reserved, available.',
    role: 'viewer',
    query: StockSearchInput,
    run: (admin, { operator, params, query }) =>
      admin.listStock(operator, params.store as string, query),
  },
  {
    method: 'GET',
    path: `${STORE}/stock/:warehouse/:sku/history`,
    operationId: 'stockHistory',
    tag: 'Stock',
    summary:
      'Every absolute set and adjustment of one warehouse and sku, newest first, 100 a page: who, why, on hand before and after.',
    role: 'viewer',
    query: StockHistoryInput,
    run: (admin, { operator, params, query }) =>
      admin.stockHistory(
        operator,
        params.store as string,
        params.warehouse as string,
        params.sku as string,
        query,
      ),
  },
  {
    method: 'PUT',
    path: `${STORE}/stock/:warehouse/:sku`,
    operationId: 'setOnHand',
    tag: 'Stock',
    summary: 'Sets the on hand and/or the safety stock of one warehouse and sku; reserved stays.',
    role: 'operator',
    request: SetOnHandInput,
    run: (admin, { operator, params, body }) =>
      admin.setOnHand(
        operator,
        params.store as string,
        params.warehouse as string,
        params.sku as string,
        body,
      ),
  },
  {
    method: 'GET',
    path: `${STORE}/tokens`,
    operationId: 'listTokens',
    tag: 'Tokens',
    summary: "The store's partner and ERP tokens: ACL, scope, expiry, last use. Never a secret.",
    role: 'viewer',
    run: (admin, { operator, params }) => admin.listTokens(operator, params.store as string),
  },
  {
    method: 'POST',
    path: `${STORE}/tokens`,
    operationId: 'createToken',
    tag: 'Tokens',
    summary: 'Creates a token; its secret is in this answer only.',
    role: 'admin',
    request: v.omit(TokenInput, ['token']),
    status: 201,
    run: (admin, { operator, params, body }) =>
      admin.createToken(operator, params.store as string, body),
  },
  {
    method: 'POST',
    path: `${STORE}/tokens/:name/revoke`,
    operationId: 'revokeToken',
    tag: 'Tokens',
    summary: 'Revokes the token: the next /V1 call with it is refused.',
    role: 'admin',
    run: (admin, { operator, params }) =>
      admin.revokeToken(operator, params.store as string, params.name as string),
  },
  {
    method: 'POST',
    path: `${STORE}/tokens/:name/rotate`,
    operationId: 'rotateToken',
    tag: 'Tokens',
    summary: 'A new secret under the name; the old one works until the overlap ends.',
    role: 'admin',
    request: RotateInput,
    status: 201,
    run: (admin, { operator, params, body }) =>
      admin.rotateToken(operator, params.store as string, params.name as string, body),
  },
  {
    method: 'GET',
    path: `${STORE}/orders`,
    operationId: 'searchOrders',
    tag: 'Orders',
    summary: 'Orders matching the filters, newest first, keyset paged; the count stops at 10,000.',
    role: 'viewer',
    query: OrderSearchInput,
    run: (admin, { operator, params, query }) =>
      admin.searchOrders(operator, params.store as string, query),
  },
  {
    method: 'GET',
    path: ORDER,
    operationId: 'getOrder',
    tag: 'Orders',
    summary: 'One order with its items, amounts, addresses, shipments, invoices and timeline.',
    role: 'viewer',
    run: (admin, { operator, params }) =>
      admin.order(operator, params.store as string, params.number as string),
  },
  {
    method: 'GET',
    path: `${ORDER}/labels`,
    operationId: 'listLabels',
    tag: 'Orders',
    summary: 'The courier labels of the order, with their documents, to print again (buys none).',
    role: 'viewer',
    run: (admin, { operator, params }) =>
      admin.labels(operator, params.store as string, params.number as string),
  },
  {
    method: 'GET',
    path: `${ORDER}/labels/:label/document`,
    operationId: 'getLabelDocument',
    tag: 'Orders',
    summary:
      "A live label's document as a file: a PDF or PNG to view in the browser, any other format (ZPL) to download.",
    role: 'viewer',
    file: true,
    run: async (admin, { operator, params }) =>
      labelFile(
        await admin.labelDocument(
          operator,
          params.store as string,
          params.number as string,
          params.label as string,
        ),
      ),
  },
  {
    method: 'POST',
    path: `${ORDER}/fail`,
    operationId: 'failOrder',
    tag: 'Interventions',
    summary: 'Takes the order out of the flow into the failed queue, with the reason.',
    role: 'operator',
    request: FailInput,
    run: (admin, { operator, params, body }) =>
      admin.fail(operator, params.store as string, params.number as string, body),
  },
  ...BULK_ACTIONS.map(
    (action): AdminOperation => ({
      method: 'POST',
      path: `${ORDER}/${action}`,
      operationId: `${action}Order`,
      tag: 'Interventions',
      summary: {
        requeue: 'Puts a failed order back into its queues.',
        abandon: 'Leaves a failed order failed for good and frees its stock.',
        cancel: 'Cancels every line not shipped yet and frees its stock.',
      }[action],
      role: 'operator',
      request: ReasonInput,
      run: (admin, { operator, params, body }) =>
        admin.intervene(operator, params.store as string, params.number as string, action, body),
    }),
  ),
  ...(
    [
      ['hold', HoldFields, 'Holds the sales order under a handle, with a reason and a note.'],
      ['release', ReleaseFields, "Releases the sales order's hold of a handle."],
      [
        'cancel',
        CancellationFields,
        'Cancels the sales order or some lines: accepted lines by a request to their partner.',
      ],
    ] as const
  ).map(
    ([action, request, summary]): AdminOperation => ({
      method: 'POST',
      path: `${STORE}/sales-orders/:sales_order_number/${action}`,
      operationId: `${action}SalesOrder`,
      tag: 'Interventions',
      summary,
      role: 'operator',
      request,
      run: (admin, { operator, params, body }) =>
        admin.salesOrderAction(
          operator,
          params.store as string,
          params.sales_order_number as string,
          action,
          body,
        ),
    }),
  ),
  {
    method: 'POST',
    path: `${ORDER}/allow-partial`,
    operationId: 'allowPartial',
    tag: 'Interventions',
    summary: 'The per-order partials override: true, false, or null to follow the store settings.',
    role: 'operator',
    request: AllowPartialInput,
    run: (admin, { operator, params, body }) =>
      admin.allowPartial(operator, params.store as string, params.number as string, body),
  },
  {
    method: 'POST',
    path: `${ORDER}/fulfill-by`,
    operationId: 'changeFulfillBy',
    tag: 'Interventions',
    summary: "Changes the order's fulfill_by (ISO 8601), with a reason, on its timeline.",
    role: 'operator',
    request: FulfillByInput,
    run: (admin, { operator, params, body }) =>
      admin.changeFulfillBy(operator, params.store as string, params.number as string, body),
  },
  {
    method: 'POST',
    path: `${STORE}/bulk-fulfill-by`,
    operationId: 'bulkChangeFulfillBy',
    tag: 'Interventions',
    summary:
      'Changes the fulfill_by of every order the filter selects (at most 10,000), with a reason; dry_run counts them.',
    role: 'operator',
    request: BulkFulfillByInput,
    run: (admin, { operator, params, body }) =>
      admin.bulkChangeFulfillBy(operator, params.store as string, body),
  },
  {
    method: 'POST',
    path: `${ORDER}/move-lines`,
    operationId: 'moveLines',
    tag: 'Interventions',
    summary: 'Moves lines still pending accept to another warehouse, in a new fulfillment order.',
    role: 'operator',
    request: MoveLinesInput,
    run: (admin, { operator, params, body }) =>
      admin.moveLines(operator, params.store as string, params.number as string, body),
  },
  {
    method: 'POST',
    path: `${ORDER}/correct-tracks`,
    operationId: 'correctTracks',
    tag: 'Interventions',
    summary:
      'Replaces the tracks of one recorded shipment (its id in the order detail), with the reason.',
    role: 'operator',
    request: TrackCorrectionInput,
    run: (admin, { operator, params, body }) =>
      admin.correctTracks(operator, params.store as string, params.number as string, body),
  },
  ...BULK_ACTIONS.map(
    (action): AdminOperation => ({
      method: 'POST',
      path: `${STORE}/bulk/${action}`,
      operationId: `bulk${action[0]?.toUpperCase()}${action.slice(1)}`,
      tag: 'Interventions',
      summary: `The ${action} of every order a filter selects (at most 10,000): a dry run counts them.`,
      role: 'operator',
      request: BulkInput,
      run: (admin, { operator, params, body }) =>
        admin.bulk(operator, params.store as string, action, body),
    }),
  ),
  {
    method: 'GET',
    path: `${STORE}/reservations`,
    operationId: 'checkReservations',
    tag: 'Stock',
    summary: 'Stock rows whose reserved differs from what the open lines hold.',
    role: 'viewer',
    run: (admin, { operator, params }) => admin.checkReservations(operator, params.store as string),
  },
  {
    method: 'POST',
    path: `${STORE}/reservations/fix`,
    operationId: 'fixReservations',
    tag: 'Stock',
    summary: 'Sets each mismatched reserved to what the open lines hold, in one transaction.',
    role: 'operator',
    request: ReasonInput,
    run: (admin, { operator, params, body }) =>
      admin.fixReservations(operator, params.store as string, body),
  },
  {
    method: 'GET',
    path: `${STORE}/holds`,
    operationId: 'listHolds',
    tag: 'Holds and cancellation requests',
    summary:
      "The store's open holds, one row per hold and order, oldest placed first: `limit` of them after the first `offset`, and their total.",
    role: 'viewer',
    query: HoldListInput,
    run: (admin, { operator, params, query }) =>
      admin.holds(operator, params.store as string, query),
  },
  {
    method: 'GET',
    path: `${STORE}/cancellation-requests`,
    operationId: 'listCancellationRequests',
    tag: 'Holds and cancellation requests',
    summary:
      "The store's cancellation requests awaiting their partner's answer, oldest first, each marked `overdue` past the store's time (`overdue=true` keeps those only), and their total.",
    role: 'viewer',
    query: CancellationRequestListInput,
    run: (admin, { operator, params, query }) =>
      admin.cancellationRequests(operator, params.store as string, query),
  },
  {
    method: 'GET',
    path: `${STORE}/returns`,
    operationId: 'listReturns',
    tag: 'Returns',
    summary: "The store's returns by id, 100 a page after `after`, in one `status` or all.",
    role: 'viewer',
    query: ReturnListInput,
    run: (admin, { operator, params, query }) =>
      admin.returns(operator, params.store as string, query),
  },
  {
    method: 'GET',
    path: `${STORE}/returns/:rma`,
    operationId: 'getReturn',
    tag: 'Returns',
    summary: 'One return with its lines, receipts and credits.',
    role: 'viewer',
    run: (admin, { operator, params }) =>
      admin.getReturn(operator, params.store as string, params.rma as string),
  },
  {
    method: 'POST',
    path: `${STORE}/returns`,
    operationId: 'openReturn',
    tag: 'Returns',
    summary:
      'Opens a return of shipped lines for the store, as a sales channel would; the same rma_number and content again answers the same return.',
    role: 'operator',
    request: ReturnInput,
    run: (admin, { operator, params, body }) =>
      admin.openReturn(operator, params.store as string, body).then((opened) => opened.return),
  },
  {
    method: 'POST',
    path: `${STORE}/returns/:rma/cancel`,
    operationId: 'cancelReturn',
    tag: 'Returns',
    summary: 'Cancels a return before any receipt; canceling it again changes nothing.',
    role: 'operator',
    request: ReasonInput,
    run: (admin, { operator, params, body }) =>
      admin.cancelReturn(operator, params.store as string, params.rma as string, body),
  },
  {
    method: 'GET',
    path: '/operators',
    operationId: 'listOperators',
    tag: 'Operators',
    summary: 'Every operator (an admin of every store only).',
    role: 'admin',
    run: (admin, { operator }) => admin.listOperatorsAs(operator),
  },
  {
    method: 'POST',
    path: '/operators',
    operationId: 'createOperator',
    tag: 'Operators',
    summary: 'Creates an operator; its secret is in this answer only.',
    role: 'admin',
    request: OperatorInput,
    status: 201,
    run: (admin, { operator, body }) => admin.createOperatorAs(operator, unverified(body)),
  },
  {
    method: 'POST',
    path: '/operators/:name/revoke',
    operationId: 'revokeOperator',
    tag: 'Operators',
    summary: 'Revokes the operator and ends its sessions.',
    role: 'admin',
    request: RevokeInput,
    run: (admin, { operator, params }) => admin.revokeOperatorAs(operator, params.name as string),
  },
];

/** The session resource: login (public), who am I, logout. */
export const SESSION_PATH = '/session';

/** The admin OpenAPI document's own path: public, like `/V1`'s schema. */
export const ADMIN_SCHEMA_PATH = '/openapi.json';
