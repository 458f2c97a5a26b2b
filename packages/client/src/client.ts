import { errorBodyOf, FulfilApiError } from './errors.js';
import type { FetchLike, FetchResponseLike } from './fetch-like.js';
import {
  type AcceptCancellationRequest,
  type AcceptRequest,
  type AllocateRequest,
  type CancellationRequest,
  type CreditRequest,
  ERROR_BODY,
  type FulfillmentOrder,
  HOLD_ANSWER,
  type HoldAnswer,
  type HoldRequest,
  type InvoiceRequest,
  ORDER,
  type QueueName,
  RETURN,
  type ReceiptRequest,
  type RejectCancellationRequest,
  type RejectRequest,
  type ReleaseRequest,
  type Return,
  type ReturnQueue,
  type ReturnRequest,
  SALES_ORDER,
  SALES_ORDER_BATCH_ENTRY,
  type SalesOrder,
  type SalesOrderBatchEntry,
  type SalesOrderInput,
  type Shape,
  type ShipRequest,
  STOCK_ADJUSTMENT,
  STOCK_ITEM,
  type StockAdjustment,
  type StockAdjustmentRequest,
  type StockItem,
  type StockItemsRequest,
  WAREHOUSE,
  type Warehouse,
} from './generated/index.js';
import { type InvoiceDetails, invoiceFor } from './invoice.js';
import type {
  CallOptions,
  PollOptions,
  QueuePage,
  ReturnsPage,
  SalesOrdersPage,
} from './poll-options.js';
import {
  DEFAULT_RETRY,
  isRetryableStatus,
  type RetryOptions,
  retryAfterMs,
  retryDelay,
} from './retry.js';
import { passByAfter, type WatchOptions, watchQueue } from './watch.js';
import { decodeXmlResponse, encodeXmlRequest } from './xml.js';

export type {
  CallOptions,
  PollOptions,
  QueuePage,
  ReturnsPage,
  SalesOrdersPage,
} from './poll-options.js';

export interface ClientOptions {
  /** Where the service runs, e.g. `https://fulfil.example.com` (no `/rest/...`). */
  baseUrl: string;
  /** The store (tenant) of every call: the `{store_code}` of `/rest/{store_code}/V1/...`. */
  storeCode: string;
  /** The bearer token the operator issued. */
  token: string;
  /** The wire format; the same typed values either way. Default `json`. */
  format?: 'json' | 'xml';
  /** Retries on network errors, 429 and 503; `false` turns them off. */
  retry?: RetryOptions | false;
  /** A fetch of your own (a proxy agent, a test double). Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Waits between retries; replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
}

const MEDIA = { json: 'application/json', xml: 'application/xml' } as const;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A client of the Fulfil REST API: one typed method per operation, paging as an async iterator,
 * retries where repeating is safe. Every operation of the API is safe to repeat: polls only
 * read, a stock sync sets absolute quantities, and the five actions are idempotent (an action
 * whose effect is already applied answers with the current order and changes nothing), so a
 * call whose answer was lost can simply be sent again.
 */
export function createClient(options: ClientOptions) {
  const format = options.format ?? 'json';
  const base = `${options.baseUrl.replace(/\/+$/, '')}/rest/${encodeURIComponent(options.storeCode)}/V1`;
  const retry =
    options.retry === false
      ? { ...DEFAULT_RETRY, retries: 0 }
      : { ...DEFAULT_RETRY, ...options.retry };
  const sleep = options.sleep ?? defaultSleep;
  const fetchImpl: FetchLike =
    options.fetch ?? ((url, init) => globalThis.fetch(url, init as RequestInit));

  async function send(
    method: 'GET' | 'POST',
    path: string,
    body: object | undefined,
    call: CallOptions,
  ): Promise<FetchResponseLike> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${options.token}`,
      Accept: MEDIA[format],
    };
    let payload: string | undefined;
    if (body !== undefined) {
      headers['Content-Type'] = MEDIA[format];
      payload = format === 'xml' ? encodeXmlRequest(body) : JSON.stringify(body);
    }
    for (let attempt = 0; ; attempt++) {
      let response: FetchResponseLike;
      try {
        response = await fetchImpl(`${base}${path}`, {
          method,
          headers,
          ...(payload === undefined ? {} : { body: payload }),
          ...(call.signal ? { signal: call.signal } : {}),
        });
      } catch (error) {
        // The caller's abort is final; a failed connection may be a passing fault.
        if (call.signal?.aborted || attempt >= retry.retries) throw error;
        await sleep(retryDelay(attempt, undefined, retry));
        continue;
      }
      if (!isRetryableStatus(response.status) || attempt >= retry.retries) return response;
      await response.text().catch(() => '');
      await sleep(retryDelay(attempt, retryAfterMs(response.headers.get('retry-after')), retry));
      if (call.signal?.aborted) return response;
    }
  }

  function decode(text: string, shape: Shape): unknown {
    return format === 'xml' ? decodeXmlResponse(text, shape) : JSON.parse(text);
  }

  async function request<T>(
    method: 'GET' | 'POST',
    path: string,
    shape: Shape,
    body: object | undefined,
    call: CallOptions = {},
  ): Promise<T> {
    return (await exchange<T>(method, path, shape, body, call)).value;
  }

  /** A call's decoded answer and its response, for the headers; a FulfilApiError otherwise. */
  async function exchange<T>(
    method: 'GET' | 'POST',
    path: string,
    shape: Shape,
    body: object | undefined,
    call: CallOptions = {},
  ): Promise<{ value: T; response: FetchResponseLike }> {
    const response = await send(method, path, body, call);
    const text = await response.text();
    if (response.status >= 200 && response.status < 300) {
      return { value: decode(text, shape) as T, response };
    }
    let parsed: unknown;
    try {
      parsed = decode(text, ERROR_BODY);
    } catch {
      parsed = undefined;
    }
    throw new FulfilApiError(response.status, errorBodyOf(response.status, parsed));
  }

  function query(params: Omit<PollOptions, keyof CallOptions>): string {
    const search = new URLSearchParams();
    if (params.page !== undefined) search.set('page', String(params.page));
    if (params.date !== undefined) search.set('date', params.date);
    if (params.after !== undefined) search.set('after', String(params.after));
    if (params.since !== undefined) search.set('since', params.since);
    if (params.wait !== undefined) search.set('wait', String(params.wait));
    if (params.include !== undefined) search.set('include', params.include);
    if (params.sort !== undefined) search.set('sort', params.sort);
    const text = search.toString();
    return text ? `?${text}` : '';
  }

  function poll(queue: QueueName, params: PollOptions = {}): Promise<FulfillmentOrder[]> {
    return request(
      'GET',
      `/fulfillmentOrders/${queue}${query(params)}`,
      [ORDER],
      undefined,
      params,
    );
  }

  /** One page of a queue or feed at `path`: its resources and the `Fulfil-Cursor` it carried. */
  async function pageAt<T>(path: string, shape: Shape, params: PollOptions) {
    const { value, response } = await exchange<T[]>(
      'GET',
      `${path}${query(params)}`,
      [shape],
      undefined,
      params,
    );
    return { value, cursor: response.headers.get('fulfil-cursor') ?? undefined };
  }

  async function pollPage(queue: QueueName, params: PollOptions = {}): Promise<QueuePage> {
    const page = await pageAt<FulfillmentOrder>(`/fulfillmentOrders/${queue}`, ORDER, params);
    return { orders: page.value, cursor: page.cursor };
  }

  async function salesOrdersPage(params: PollOptions = {}): Promise<SalesOrdersPage> {
    const page = await pageAt<SalesOrder>('/salesOrders', SALES_ORDER, params);
    return { salesOrders: page.value, cursor: page.cursor };
  }

  async function returnsPage(queue: ReturnQueue, params: PollOptions = {}): Promise<ReturnsPage> {
    const page = await pageAt<Return>(`/returns/${queue}`, RETURN, params);
    return { returns: page.value, cursor: page.cursor };
  }

  /** A page of the feed as the watch reads it. */
  const feedPage = async (params: PollOptions) => {
    const page = await salesOrdersPage(params);
    return { orders: page.salesOrders, cursor: page.cursor };
  };

  const action =
    <TBody extends object>(name: string) =>
    (body: TBody, call?: CallOptions): Promise<FulfillmentOrder> =>
      request('POST', `/fulfillmentOrder/${name}`, ORDER, body, call);

  const client = {
    /** GET /V1/warehouses: the store's warehouses (a scoped token: its own), by code. */
    warehouses: (params: { page?: number } & CallOptions = {}): Promise<Warehouse[]> =>
      request('GET', `/warehouses${query(params)}`, [WAREHOUSE], undefined, params),
    /** POST /V1/stockItems: sets absolute on-hand quantities; the batch is all or nothing. */
    syncStock: (body: StockItemsRequest, call?: CallOptions): Promise<StockItem[]> =>
      request('POST', '/stockItems', [STOCK_ITEM], body, call),
    /**
     * POST /V1/stockAdjustments: changes on hand by deltas, once per adjustment_number; a repeat
     * with the same content answers the first result, other content is a FulfilApiError 409.
     */
    adjustStock: (
      body: StockAdjustmentRequest['adjustment'],
      call?: CallOptions,
    ): Promise<StockAdjustment> =>
      request('POST', '/stockAdjustments', STOCK_ADJUSTMENT, { adjustment: body }, call),

    /** One page of a queue; `queue()` iterates over all of them. */
    poll,
    /** One page of a queue with its `Fulfil-Cursor` (docs/polling.md). */
    pollPage,
    pendingAccept: (params?: PollOptions) => poll('pending_accept', params),
    pendingAllocation: (params?: PollOptions) => poll('pending_allocation', params),
    pendingShipment: (params?: PollOptions) => poll('pending_shipment', params),
    pendingInvoice: (params?: PollOptions) => poll('pending_invoice', params),
    failed: (params?: PollOptions) => poll('failed', params),
    /** Orders whose cancellation request awaits your answer (`cancellation_request`). */
    pendingCancellation: (params?: PollOptions) => poll('pending_cancellation', params),

    /**
     * Every order of a queue, page after page by id (`after`, the keyset), until an empty one;
     * with `sort: 'fulfill_by'`, the most urgent first (docs/deadlines.md). Pages are read as
     * the loop asks for them; orders acted on meanwhile leave the queue without moving the
     * others, so an order that stays in the queue is never skipped or repeated, however long
     * the loop takes.
     */
    async *queue(
      name: QueueName,
      params: Omit<PollOptions, 'page' | 'after' | 'since' | 'wait'> = {},
    ): AsyncGenerator<FulfillmentOrder, void, undefined> {
      const byId = params.sort !== 'fulfill_by';
      for (let after = 0; ; ) {
        const orders = await poll(name, { ...params, after });
        const last = orders.at(-1);
        if (!last) return;
        // A service that ignored `after` would answer its first page forever.
        if (byId ? last.id <= after : last.id === after)
          throw new Error('fulfil: the service does not page by `after`');
        yield* orders;
        after = last.id;
      }
    },
    /**
     * The orders of a queue as they change, for as long as the loop runs (docs/polling.md):
     * everything in the queue first (without a cursor), then each order again whenever it
     * changes, through long polls that resume from their cursor across network errors and
     * restarts. See `WatchOptions`.
     */
    watch: (name: QueueName, watchOptions: WatchOptions = {}) =>
      watchQueue((params) => pollPage(name, params), {
        sleep,
        ...watchOptions,
        startOver: passByAfter((params) => pollPage(name, params)),
      }),

    // ── a sales channel's side (docs/channel-guide.md) ─────────────────────────────────────
    /**
     * POST /V1/salesOrders: hands a sales order in, once by its number. A repeat with the same
     * content answers the same view (a retried webhook never makes a second order); other
     * content under a number taken in is a FulfilApiError 409 whose body names each field.
     */
    createSalesOrder: (salesOrder: SalesOrderInput, call?: CallOptions): Promise<SalesOrder> =>
      request('POST', '/salesOrders', SALES_ORDER, { sales_order: salesOrder }, call),
    /**
     * POST /V1/salesOrders/batch: 1 to 100 sales orders in one request, each answered on its
     * own, in order (`status` 201, 200, 409 or 400, with its view or error body).
     */
    createSalesOrders: (
      salesOrders: readonly SalesOrderInput[],
      call?: CallOptions,
    ): Promise<SalesOrderBatchEntry[]> =>
      request(
        'POST',
        '/salesOrders/batch',
        [SALES_ORDER_BATCH_ENTRY],
        { sales_orders: salesOrders },
        call,
      ),
    /** GET /V1/salesOrders/{number}: the Sales order view (status, shipments with tracks, …). */
    getSalesOrder: (salesOrderNumber: string, call?: CallOptions): Promise<SalesOrder> =>
      request(
        'GET',
        `/salesOrders/${encodeURIComponent(salesOrderNumber)}`,
        SALES_ORDER,
        undefined,
        call,
      ),
    /** One page of the sales orders feed with its `Fulfil-Cursor` (docs/polling.md). */
    salesOrdersPage,
    /**
     * POST /V1/salesOrder/hold: holds the fulfillment orders no line of which is allocated yet
     * under a handle; they leave every queue until released. A repeated handle is a no-op.
     */
    holdSalesOrder: (hold: HoldRequest['hold'], call?: CallOptions): Promise<HoldAnswer> =>
      request('POST', '/salesOrder/hold', HOLD_ANSWER, { hold }, call),
    /** POST /V1/salesOrder/release: releases the hold of a handle; answers the view. */
    releaseSalesOrder: (
      release: ReleaseRequest['release'],
      call?: CallOptions,
    ): Promise<SalesOrder> =>
      request('POST', '/salesOrder/release', SALES_ORDER, { release }, call),
    /**
     * POST /V1/salesOrder/cancel: the whole sales order, or the `items` listed. Unaccepted lines
     * are canceled at once, accepted ones asked of their partner (see `cancellation_requests`).
     */
    cancelSalesOrder: (
      cancellation: CancellationRequest['cancellation'],
      call?: CallOptions,
    ): Promise<SalesOrder> =>
      request('POST', '/salesOrder/cancel', SALES_ORDER, { cancellation }, call),
    /**
     * The store's sales orders as they change, for as long as the loop runs: every one first,
     * then each again whenever its view changes (a fulfillment order accepted, shipped with its
     * tracks, invoiced, …), through long polls that resume from their cursor, as `watch` does
     * for a queue. See `WatchOptions`.
     */
    watchSalesOrders: (watchOptions: WatchOptions = {}) =>
      watchQueue(feedPage, {
        sleep,
        ...watchOptions,
        startOver: passByAfter(feedPage),
      }),

    // ── returns (docs/channel-guide.md, Returns) ───────────────────────────────────────────
    /**
     * POST /V1/returns: opens a return of shipped lines, once by its rma_number; a repeat with
     * the same content answers the same return, other content is a FulfilApiError 409.
     */
    createReturn: (body: ReturnRequest['return'], call?: CallOptions): Promise<Return> =>
      request('POST', '/returns', RETURN, { return: body }, call),
    /** One page of a returns queue (`pending_receipt`, `pending_credit`) with its cursor. */
    returnsPage,
    /**
     * The returns of a queue as they change, for as long as the loop runs, as `watch` does for
     * a fulfillment queue. See `WatchOptions`.
     */
    watchReturns: (queue: ReturnQueue, watchOptions: WatchOptions = {}) => {
      const page = async (params: PollOptions) => {
        const answer = await returnsPage(queue, params);
        return { orders: answer.returns, cursor: answer.cursor };
      };
      return watchQueue(page, { sleep, ...watchOptions, startOver: passByAfter(page) });
    },
    /** POST /V1/return/receive: a receipt at the receiving warehouse. Idempotent by number. */
    receiveReturn: (body: ReceiptRequest['receipt'], call?: CallOptions): Promise<Return> =>
      request('POST', '/return/receive', RETURN, { receipt: body }, call),
    /** POST /V1/return/credit: the credit note, reconciled like an invoice. Idempotent. */
    creditReturn: (body: CreditRequest['credit'], call?: CallOptions): Promise<Return> =>
      request('POST', '/return/credit', RETURN, { credit: body }, call),

    /** Accept items (qty = the ordered qty) or reject them (qty 0). Idempotent. */
    accept: action<AcceptRequest>('accept'),
    /** Reject items: stock unavailable or damaged. Idempotent. */
    reject: action<RejectRequest>('reject'),
    /** Confirm allocation; the order moves to shipping. Idempotent. */
    allocate: action<AllocateRequest>('allocate'),
    /** Report a shipment (all items, or some when partials are enabled). Idempotent. */
    ship: action<ShipRequest>('ship'),
    /** Record the fiscal invoice of shipped items. Idempotent for the same invoice_number. */
    invoice: action<InvoiceRequest>('invoice'),
    /** Cancel the requested items and release their stock. Idempotent. */
    acceptCancellation: action<AcceptCancellationRequest>('acceptCancellation'),
    /** Keep the requested items in the flow, saying why (`message`). Idempotent. */
    rejectCancellation: action<RejectCancellationRequest>('rejectCancellation'),
    /**
     * Invoices an order as the pending_invoice queue shows it: its items awaiting invoice and
     * the shipping amount the service expects (see `invoiceFor`).
     */
    invoiceOrder: (
      order: FulfillmentOrder,
      details: InvoiceDetails,
      call?: CallOptions,
    ): Promise<FulfillmentOrder> => client.invoice(invoiceFor(order, details), call),
  };
  return client;
}

export type FulfilClient = ReturnType<typeof createClient>;
