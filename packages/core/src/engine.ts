import * as v from 'valibot';
import { createAdminEngine } from './admin-engine.js';
import { type ApiAction, DEFAULT_ACL_PREFIX } from './domain/acl.js';
import { type CarrierAccounts, SIMULATED_COURIER } from './domain/carrier-accounts.js';
import type { ReturnQueue } from './domain/returns/return-status.js';
import { decideRouting } from './domain/routing/decide.js';
import type { Router } from './domain/routing.js';
import type { FailureStage, QueueName } from './domain/types.js';
import { type Clock, systemClock } from './ports/clock.js';
import type { CourierCallEvent, CourierFactory } from './ports/courier.js';
import type { Locate } from './ports/locate.js';
import type { Repository } from './ports/repository.js';
import { createSimulatedCarrier } from './ports/simulated-courier.js';
import type {
  AcceptCancellationInput,
  CancellationFieldsInput,
  CancellationInput,
  HoldFieldsInput,
  HoldInput,
  RejectCancellationInput,
  ReleaseFieldsInput,
  ReleaseInput,
} from './schemas/cancellation.js';
import {
  CarrierAccountsInput,
  type SeedInput,
  type StoreSettingsInput,
  type TokenInput,
  type WarehouseInput,
} from './schemas/operator.js';
import { issuePath } from './schemas/parse.js';
import type {
  AcceptInput,
  AllocateInput,
  InvoiceInput,
  PollParamsInput,
  QueuePollParamsInput,
  RejectInput,
  ShipInput,
  StockAdjustmentInput,
  StockItemsInput,
} from './schemas/requests.js';
import type { CreditInput, ReceiptInput, ReturnRequestInput } from './schemas/returns.js';
import type {
  SalesOrderInput,
  SalesOrderRequestInput,
  SalesOrdersRequestInput,
} from './schemas/sales-order.js';
import type { TrackCorrectionInput } from './schemas/track-correction.js';
import type { Unverified } from './schemas/unverified.js';
import { traceDecisions, traceRouting } from './tracing/routing-spans.js';
import { traceUseCases } from './tracing/use-case-spans.js';
import { waitingByAge } from './use-cases/admin-waiting.js';
import {
  acceptCancellationOf,
  cancelByNumber,
  cancelSalesOrder,
  rejectCancellationOf,
} from './use-cases/cancellations.js';
import { correctShipmentTracks } from './use-cases/correct-tracks.js';
import { dispatchCourier } from './use-cases/courier-dispatch.js';
import { CourierRateLimiter } from './use-cases/courier-rate-limit.js';
import { deadlineMetrics } from './use-cases/deadline-counts.js';
import { type EngineDeps, now, operatorActor } from './use-cases/deps.js';
import { DEFAULT_DOCUMENT_CACHE_BYTES, DocumentCache } from './use-cases/document-cache.js';
import {
  holdByNumber,
  holdSalesOrder,
  releaseByNumber,
  releaseSalesOrder,
} from './use-cases/holds.js';
import { intakeBatch, intakeSalesOrder } from './use-cases/intake-batch.js';
import { listStock, listWarehouses, syncStock } from './use-cases/inventory.js';
import { listOrderLabels, reprintLabels } from './use-cases/labels.js';
import { abandonOrder, cancelOrder, failOrder, requeueOrder } from './use-cases/operator.js';
import {
  acceptOrder,
  allocateOrder,
  invoiceOrder,
  rejectOrder,
  shipOrder,
} from './use-cases/order-actions.js';
import { getOrder, getOrderHistory } from './use-cases/orders.js';
import { pollQueue, pollQueueDocuments, pollQueuePage } from './use-cases/poll.js';
import { queueDepths, returnCounts } from './use-cases/queue-depths.js';
import {
  createReturn,
  creditReturnGoods,
  pollReturns,
  receiveReturnGoods,
} from './use-cases/returns.js';
import {
  createSalesOrder,
  createSalesOrders,
  getSalesOrder,
  pollSalesOrders,
} from './use-cases/sales-orders.js';
import { loadSeed, type SeedOptions } from './use-cases/seed.js';
import { adjustStock } from './use-cases/stock-adjustments.js';
import { getStore, listStores, upsertStore, upsertWarehouse } from './use-cases/stores.js';
import { tokenUseTracker } from './use-cases/token-use.js';
import {
  authenticate,
  authorize,
  createToken,
  listTokens,
  operatorPrincipal,
  type Principal,
  revokeToken,
} from './use-cases/tokens.js';

export interface EngineOptions {
  repository: Repository;
  clock?: Clock;
  /**
   * Splits sales orders into fulfillment orders, for routing no rule list can say. Absent, each
   * store's routing rules decide (docs/routing.md), every decision explained.
   */
  router?: Router;
  /**
   * Where a shipping address without coordinates is, for the `distance` routing rule
   * (`@fulfil/geo`'s `locate`, or a geocoder of your own); absent, only an address's own
   * `latitude`/`longitude` locate it.
   */
  locate?: Locate;
  /** Courier integrations by type, in addition to the built-in `simulated`. */
  couriers?: Record<string, CourierFactory>;
  /**
   * The installation's carrier accounts, by name (docs/couriers.md): each a courier type, the URL
   * its calls go to and the environment variable holding its secret, and optionally the stores
   * that may pick it. A store's settings pick one by name (`courier.account`) and can name no URL
   * or variable of their own. None by default: stores can then use the simulated courier only.
   */
  carrierAccounts?: CarrierAccounts;
  /** Prefix of ACL resources: `<prefix>_FulfillmentOrder::api_accept`. Default `Fulfil`. */
  aclPrefix?: string;
  /**
   * Courier retry backoff base (doubles per failure), claim lease, and how long before the lease
   * runs out every carrier call is given up (default a quarter of the lease).
   */
  courier?: { retry_base_ms?: number; lease_ms?: number; call_margin_ms?: number };
  /** Told of every carrier call (carrier, operation, outcome kind, duration), for metrics. */
  onCourierCall?: (event: CourierCallEvent) => void;
  /**
   * Record each token's last use, to the minute, off the request path (token-use.ts); off by
   * default, since each such write is a commit that empties caches of answers.
   */
  trackTokenUse?: boolean;
  /**
   * Bytes of queue documents kept in memory for polls (document-cache.ts): a poll then reads only
   * which changes its page holds, and each document once per change. Default 64 MiB; 0 turns it
   * off, and every poll reads its documents.
   */
  documentCacheBytes?: number;
  /**
   * How long an operator's session (the console's login) lasts, in hours; default 12. Expired
   * sessions are refused at once, and deleted by `admin.deleteExpiredSessions()` and by logins.
   */
  sessionHours?: number;
  /**
   * Spans through `@opentelemetry/api` and messages on the `fulfil:*` diagnostics channels
   * (docs/monitoring.md, Traces): one per use case, routing decision and carrier call. On by
   * default, and free while no SDK is registered and no channel has a subscriber; false removes
   * every probe of this engine.
   */
  tracing?: boolean;
}

/**
 * The engine: every use case of the service, each one transaction over the repository.
 * Public actions are typed with what a caller sends (`AcceptInput`, `SalesOrderInput`, ...) and
 * still validate it at run time, so an embedding app gets exactly the checks the REST server
 * applies to bodies it received as bytes.
 */
function documentCacheOf(bytes: number): { documentCache?: DocumentCache } {
  if (!(Number.isSafeInteger(bytes) && bytes >= 0)) {
    throw new TypeError(`fulfil: documentCacheBytes must be an integer >= 0, got ${bytes}`);
  }
  return bytes === 0 ? {} : { documentCache: new DocumentCache(bytes) };
}

function sessionHoursOf(hours: number | undefined): { sessionHours?: number } {
  if (hours === undefined) return {};
  if (!(Number.isFinite(hours) && hours > 0)) {
    throw new TypeError(`fulfil: sessionHours must be a number of hours > 0, got ${hours}`);
  }
  return { sessionHours: hours };
}

/** The accounts, checked: well-formed, and each of a type some courier is registered for. */
function carrierAccountsOf(
  accounts: CarrierAccounts,
  couriers: Readonly<Record<string, CourierFactory>>,
): CarrierAccounts {
  const checked = v.safeParse(CarrierAccountsInput, accounts);
  if (!checked.success) {
    const issue = checked.issues[0];
    throw new TypeError(
      `fulfil: carrierAccounts.${issue ? issuePath(issue) : ''}: ${issue?.message ?? 'invalid'}`,
    );
  }
  for (const [name, account] of Object.entries(checked.output)) {
    if (!Object.hasOwn(couriers, account.type)) {
      throw new TypeError(
        `fulfil: carrier account "${name}" is of type "${account.type}", which no courier is registered for (registered: ${Object.keys(couriers).join(', ')})`,
      );
    }
  }
  return checked.output;
}

export function createEngine(options: EngineOptions) {
  const lease_ms = options.courier?.lease_ms ?? 120_000;
  const couriers = { [SIMULATED_COURIER]: createSimulatedCarrier().factory, ...options.couriers };
  const tracing = options.tracing !== false;
  const router = options.router ?? null;
  const deps: EngineDeps = {
    repository: options.repository,
    clock: options.clock ?? systemClock,
    router: router && tracing ? traceRouting(router) : router,
    decide: tracing ? traceDecisions(decideRouting) : decideRouting,
    locate: options.locate ?? null,
    couriers,
    carrierAccounts: carrierAccountsOf(options.carrierAccounts ?? {}, couriers),
    aclPrefix: options.aclPrefix ?? DEFAULT_ACL_PREFIX,
    courierPolicy: {
      retry_base_ms: options.courier?.retry_base_ms ?? 30_000,
      lease_ms,
      call_margin_ms: options.courier?.call_margin_ms ?? Math.ceil(lease_ms / 4),
    },
    rateLimiter: new CourierRateLimiter(),
    ...(options.onCourierCall ? { onCourierCall: options.onCourierCall } : {}),
    ...(options.trackTokenUse ? { tokenUse: tokenUseTracker(options.repository) } : {}),
    ...documentCacheOf(options.documentCacheBytes ?? DEFAULT_DOCUMENT_CACHE_BYTES),
    ...sessionHoursOf(options.sessionHours),
    tracing,
  };
  const admin = createAdminEngine(deps);
  const engine = {
    /** The prefix of this engine's ACL resources. */
    aclPrefix: deps.aclPrefix,
    /** The installation's carrier accounts, as checked at creation. */
    carrierAccounts: deps.carrierAccounts,

    // ── the public surface (REST) ─────────────────────────────────────────────────────────
    authenticate: (storeCode: string, secret: string | null) =>
      authenticate(deps, storeCode, secret),
    authorize: (principal: Principal, action: ApiAction) => authorize(deps, principal, action),
    listWarehouses: (actor: Principal, query?: Pick<PollParamsInput, 'page'> | Unverified) =>
      listWarehouses(deps, actor, query),
    syncStock: (actor: Principal, body: StockItemsInput | Unverified) =>
      syncStock(deps, actor, body),
    /** Changes on hand by deltas, once per adjustment number (201 applied, 200 a repeat). */
    adjustStock: (actor: Principal, body: StockAdjustmentInput | Unverified) =>
      adjustStock(deps, actor, body),
    poll: (actor: Principal, queue: QueueName, query?: PollParamsInput | Unverified) =>
      pollQueue(deps, actor, queue, query),
    /** The page `poll` answers, as the stored JSON text of each order: for writing it out as is. */
    pollDocuments: (actor: Principal, queue: QueueName, query?: PollParamsInput | Unverified) =>
      pollQueueDocuments(deps, actor, queue, query),
    /**
     * A queue GET with the extensions `after` and `since` (docs/polling.md): the page's stored
     * documents and the `Fulfil-Cursor` of what it saw.
     */
    pollPage: (actor: Principal, queue: QueueName, query?: QueuePollParamsInput | Unverified) =>
      pollQueuePage(deps, actor, queue, query),
    accept: (actor: Principal, body: AcceptInput | Unverified) => acceptOrder(deps, actor, body),
    reject: (actor: Principal, body: RejectInput | Unverified) => rejectOrder(deps, actor, body),
    allocate: (actor: Principal, body: AllocateInput | Unverified) =>
      allocateOrder(deps, actor, body),
    ship: (actor: Principal, body: ShipInput | Unverified) => shipOrder(deps, actor, body),
    invoice: (actor: Principal, body: InvoiceInput | Unverified) => invoiceOrder(deps, actor, body),
    /** The partner cancels the requested lines (docs/partner-guide.md); a repeat is a no-op. */
    acceptCancellation: (actor: Principal, body: AcceptCancellationInput | Unverified) =>
      acceptCancellationOf(deps, actor, body),
    /** The partner keeps the requested lines in the flow, saying why; a repeat is a no-op. */
    rejectCancellation: (actor: Principal, body: RejectCancellationInput | Unverified) =>
      rejectCancellationOf(deps, actor, body),
    /**
     * A sales channel's intake (docs/channel-guide.md): `{ sales_order }`, taken in once by its
     * number. `created` the first time, `exists` for a repeat with the same content; the number
     * taken in with other content is `already_exists` (409) naming each differing field.
     */
    createSalesOrder: (actor: Principal, body: SalesOrderRequestInput | Unverified) =>
      createSalesOrder(deps, actor, body),
    /** `{ sales_orders }`, 1 to 100, in one transaction, each answered on its own, in order. */
    createSalesOrders: (actor: Principal, body: SalesOrdersRequestInput | Unverified) =>
      createSalesOrders(deps, actor, body),
    /** The Sales order view: status, fulfillment orders, shipments with tracks, invoices. */
    getSalesOrder: (actor: Principal, salesOrderNumber: string) =>
      getSalesOrder(deps, actor, salesOrderNumber),
    /** The sales orders feed, paged and followed like a queue (docs/polling.md). */
    pollSalesOrders: (actor: Principal, query?: QueuePollParamsInput | Unverified) =>
      pollSalesOrders(deps, actor, query),
    /**
     * Opens a return of shipped lines (`{ return }`, docs/channel-guide.md): `created` the first
     * time, `exists` for a repeat of the same rma number and content, 409 for other content.
     */
    createReturn: (actor: Principal, body: ReturnRequestInput | Unverified) =>
      createReturn(deps, actor, body),
    /** A returns queue (`pending_receipt`, `pending_credit`), paged and followed like a queue. */
    pollReturns: (
      actor: Principal,
      queue: ReturnQueue,
      query?: QueuePollParamsInput | Unverified,
    ) => pollReturns(deps, actor, queue, query),
    /** A receipt of returned goods (`{ receipt }`), idempotent by `receipt_number`. */
    receiveReturn: (actor: Principal, body: ReceiptInput | Unverified) =>
      receiveReturnGoods(deps, actor, body),
    /** A credit of received goods (`{ credit }`), reconciled like an invoice. */
    creditReturn: (actor: Principal, body: CreditInput | Unverified) =>
      creditReturnGoods(deps, actor, body),
    /**
     * Holds the sales order's fulfillment orders that no line of is allocated yet, under a handle
     * (docs/channel-guide.md): they leave every queue until the last hold is released.
     */
    holdSalesOrder: (actor: Principal, body: HoldInput | Unverified) =>
      holdSalesOrder(deps, actor, body),
    /** Releases the hold of a handle; an order left with none is back in its queues at once. */
    releaseSalesOrder: (actor: Principal, body: ReleaseInput | Unverified) =>
      releaseSalesOrder(deps, actor, body),
    /**
     * Cancels the sales order or some lines: unaccepted lines at once, accepted ones by a
     * cancellation request to their partner, a courier warehouse's at once with its labels voided.
     */
    cancelSalesOrder: (actor: Principal, body: CancellationInput | Unverified) =>
      cancelSalesOrder(deps, actor, body),

    // ── the operator side (docs/behaviour.md) ──────────────────────────────────────────────────
    /**
     * The operator as a principal (the whole store, every resource), for calling the public
     * actions directly; they check it like any token's principal.
     */
    operator: (storeCode: string, name?: string) => operatorPrincipal(deps, storeCode, name),
    upsertStore: (code: string, settings?: StoreSettingsInput | Unverified) =>
      upsertStore(deps, code, settings),
    getStore: (code: string) => getStore(deps, code),
    listStores: () => listStores(deps),
    upsertWarehouse: (storeCode: string, spec: WarehouseInput | Unverified) =>
      upsertWarehouse(deps, storeCode, spec),
    listStock: (storeCode: string, filter?: { sku?: string }) =>
      listStock(deps, operatorActor(storeCode), filter),
    createToken: (storeCode: string, spec: TokenInput | Unverified) =>
      createToken(deps, storeCode, spec),
    listTokens: (storeCode: string) => listTokens(deps, storeCode),
    revokeToken: (storeCode: string, name: string) => revokeToken(deps, storeCode, name),
    intake: (storeCode: string, salesOrder: SalesOrderInput | Unverified, actorName?: string) =>
      intakeSalesOrder(deps, storeCode, salesOrder, actorName),
    /**
     * Takes in many sales orders in one transaction, one outcome per order: created, already
     * there (kept), or refused with the reason; a refused order never rolls back the others.
     */
    intakeBatch: (
      storeCode: string,
      salesOrders: readonly (SalesOrderInput | Unverified)[],
      actorName?: string,
    ) => intakeBatch(deps, storeCode, salesOrders, actorName),
    getOrder: (storeCode: string, number: string) => getOrder(deps, storeCode, number),
    getOrderHistory: (storeCode: string, number: string) =>
      getOrderHistory(deps, storeCode, number),
    failOrder: (storeCode: string, number: string, reason: string, stage?: FailureStage) =>
      failOrder(deps, storeCode, number, reason, stage),
    requeueOrder: (storeCode: string, number: string) => requeueOrder(deps, storeCode, number),
    abandonOrder: (storeCode: string, number: string) => abandonOrder(deps, storeCode, number),
    cancelOrder: (storeCode: string, number: string) => cancelOrder(deps, storeCode, number),
    /**
     * Holds the sales order `salesOrderNumber` as the operator `actorName` (`{ handle, reason,
     * note }`), by the rules of `holdSalesOrder`.
     */
    holdSalesOrderAs: (
      storeCode: string,
      salesOrderNumber: string,
      hold: HoldFieldsInput | Unverified,
      actorName = 'operator',
    ) => holdByNumber(deps, operatorActor(storeCode, actorName), salesOrderNumber, hold),
    /** Releases the hold `{ handle }` of the sales order as the operator `actorName`. */
    releaseSalesOrderAs: (
      storeCode: string,
      salesOrderNumber: string,
      release: ReleaseFieldsInput | Unverified,
      actorName = 'operator',
    ) => releaseByNumber(deps, operatorActor(storeCode, actorName), salesOrderNumber, release),
    /**
     * Cancels the sales order, or the lines `items` names, as the operator `actorName`: by the
     * rules of `cancelSalesOrder`, so accepted lines are asked of their partner.
     */
    cancelSalesOrderAs: (
      storeCode: string,
      salesOrderNumber: string,
      cancellation: CancellationFieldsInput | Unverified,
      actorName = 'operator',
    ) => cancelByNumber(deps, operatorActor(storeCode, actorName), salesOrderNumber, cancellation),
    /**
     * Replaces the tracks of one recorded shipment of the order (its id as `getOrderHistory`
     * shows it): one audited transaction, a no-op when repeated. Returns the shipment.
     */
    correctTracks: (
      storeCode: string,
      number: string,
      correction: TrackCorrectionInput | Unverified,
      actorName = 'operator',
    ) => correctShipmentTracks(deps, storeCode, number, correction, { name: actorName }),
    dispatchCourier: (limit?: number) => dispatchCourier(deps, limit),
    /** Every label of the order (live, voided, being voided), oldest first. */
    listLabels: (storeCode: string, number: string) => listOrderLabels(deps, storeCode, number),
    /** The order's live labels with their documents, read back: never buys another label. */
    reprintLabel: (storeCode: string, number: string) => reprintLabels(deps, storeCode, number),
    /**
     * The repository's change stamp (`Repository.changeStamp`): what was read after it returned
     * a value stays valid while it returns the same value. For caches of answers.
     */
    changeStamp: () => deps.repository.changeStamp(),
    /**
     * The repository's `onQueueChange`, when it has one: calls after commits that changed a
     * store's queues, in any process, for waking long polls.
     */
    onQueueChange: options.repository.onQueueChange?.bind(options.repository),
    /**
     * The repository's `onTokenChange`, when it has one: calls after commits that may have
     * changed a token, in any process, so that a held long poll checks its token again.
     */
    onTokenChange: options.repository.onTokenChange?.bind(options.repository),
    /** The engine's clock, as stored timestamps are written: for checking `expires_at`. */
    now: () => now(deps),
    /** How many orders each queue of each store lists, for monitoring. */
    queueDepths: () => queueDepths(deps),
    /** How many returns each store has in each status, for monitoring. */
    returnCounts: () => returnCounts(deps),
    /** How many open holds and cancellation requests each store has, by age, for monitoring. */
    waitingByAge: () => waitingByAge(deps),
    /** Orders by deadline status and the late shipments of the last 30 days, for monitoring. */
    deadlineMetrics: () => deadlineMetrics(deps),
    /** The operator's side: operators, sessions and what the admin API serves (admin-engine.ts). */
    admin: tracing ? traceUseCases(admin, { prefix: 'admin.', scoped: false }) : admin,
    loadSeed: (document: SeedInput | Unverified, options?: SeedOptions) =>
      loadSeed(deps, document, options),
    close: () => deps.repository.close(),
  };
  return tracing ? traceUseCases(engine) : engine;
}

export type Engine = ReturnType<typeof createEngine>;
