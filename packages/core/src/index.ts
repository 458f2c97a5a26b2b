export type { AdminEngine } from './admin-engine.js';
export * from './domain/acl.js';
export * from './domain/actions/accept.js';
export * from './domain/actions/allocate.js';
export * from './domain/actions/cancellation.js';
export * from './domain/actions/correct-tracks.js';
export * from './domain/actions/courier.js';
export * from './domain/actions/holds.js';
export * from './domain/actions/interventions.js';
export * from './domain/actions/invoice.js';
export * from './domain/actions/operator.js';
export * from './domain/actions/outcome.js';
export * from './domain/actions/reject.js';
export * from './domain/actions/ship.js';
export * from './domain/append-all.js';
export * from './domain/attention.js';
export * from './domain/carrier-accounts.js';
export * from './domain/carrier-codes.js';
export * from './domain/change-cursor.js';
export * from './domain/compare-codes.js';
export * from './domain/countries.js';
export * from './domain/courier-labels.js';
export * from './domain/deadline.js';
export * from './domain/differences.js';
export * from './domain/errors.js';
export * from './domain/feeds.js';
export * from './domain/invariants.js';
export * from './domain/item-line.js';
export * from './domain/item-stage.js';
export * from './domain/live-totals.js';
export * from './domain/money.js';
export * from './domain/new-order.js';
export * from './domain/operator.js';
export * from './domain/order-status.js';
export * from './domain/paging.js';
export * from './domain/partials.js';
export * from './domain/present.js';
export * from './domain/queue-documents.js';
export * from './domain/queues.js';
export type {
  ItemResource,
  OrderResource,
  StockItemResource,
  WarehouseResource,
} from './domain/resources.js';
export * from './domain/returns/cancel-return.js';
export * from './domain/returns/credit-return.js';
export * from './domain/returns/open-return.js';
export * from './domain/returns/quarantined.js';
export * from './domain/returns/receive-return.js';
export * from './domain/returns/return-outcome.js';
export * from './domain/returns/return-record.js';
export * from './domain/returns/return-resource.js';
export * from './domain/returns/return-status.js';
export * from './domain/returns/return-view.js';
export * from './domain/routing/build-snapshot.js';
export * from './domain/routing/decide.js';
export * from './domain/routing/distance.js';
export * from './domain/routing/explanation.js';
export { SEARCH_BOUND, SEARCH_WORK_BOUND } from './domain/routing/fewest-shipments.js';
export * from './domain/routing/record.js';
export * from './domain/routing/rules.js';
export * from './domain/routing/snapshot.js';
export type { WarehouseFacts } from './domain/routing/sorts.js';
export * from './domain/routing/words.js';
export * from './domain/routing.js';
export * from './domain/safety-stock.js';
export * from './domain/sales-order.js';
export * from './domain/sales-order-resource.js';
export * from './domain/sales-order-status.js';
export * from './domain/sales-order-view.js';
export * from './domain/stock-adjustment.js';
export * from './domain/stock-batch.js';
export * from './domain/stock-history.js';
export * from './domain/timestamp.js';
export * from './domain/token-secret.js';
export * from './domain/tracking-urls.js';
export * from './domain/types.js';
export * from './domain/waiting.js';
export * from './engine.js';
export * from './ports/admin-repository.js';
export * from './ports/clock.js';
export * from './ports/courier.js';
export * from './ports/locate.js';
export * from './ports/repository.js';
export * from './ports/simulated-courier.js';
export * from './schemas/admin.js';
export * from './schemas/cancellation.js';
export * from './schemas/fields.js';
export * from './schemas/operator.js';
export * from './schemas/parse.js';
export * from './schemas/requests.js';
export * from './schemas/resources.js';
export * from './schemas/return-resource.js';
export * from './schemas/returns.js';
export * from './schemas/sales-order.js';
export * from './schemas/sales-order-view.js';
export * from './schemas/track-correction.js';
export * from './schemas/unverified.js';
export * from './schemas/well-formed.js';
export * from './state-machine/transitions.js';
export type { CourierMessage } from './tracing/courier-spans.js';
export {
  currentSpanContext,
  currentTraceIds,
  traceContextHeaders,
} from './tracing/open-telemetry.js';
export * from './tracing/probe.js';
export type { RouteMessage } from './tracing/routing-spans.js';
export type { ActionMessage } from './tracing/use-case-spans.js';
export { BulkFulfillByInput, FulfillByInput } from './use-cases/admin-deadlines.js';
export type {
  BulkOutcome,
  BulkResult,
  SalesOrderAction,
} from './use-cases/admin-interventions.js';
export {
  COUNT_CAP,
  type OrderDetail,
  type OrderList,
  type TimelineEntry,
} from './use-cases/admin-orders.js';
export type {
  CancellationRequestList,
  HoldList,
  ListTotal,
  RequestThreshold,
  WaitingByAge,
  WaitingSummary,
} from './use-cases/admin-waiting.js';
export type { DispatchReport } from './use-cases/courier-dispatch.js';
export type { DeadlineMetrics, WarehouseDeadlines } from './use-cases/deadline-counts.js';
export {
  DEFAULT_DOCUMENT_CACHE_BYTES,
  DocumentCache,
  type KeptDocument,
} from './use-cases/document-cache.js';
export type { HoldAnswer, NotHeld } from './use-cases/holds.js';
export { INTAKE_BATCH_SIZE, type IntakeOutcome } from './use-cases/intake-batch.js';
export { locateDestination } from './use-cases/locate-destination.js';
export {
  type CreatedOperator,
  type OperatorPrincipal,
  SESSION_HOURS,
} from './use-cases/operator-accounts.js';
export type { OrderHistory } from './use-cases/orders.js';
export type { QueuePage } from './use-cases/poll.js';
export type { QueueDepth, ReturnCount } from './use-cases/queue-depths.js';
export type { OpenedReturn } from './use-cases/returns.js';
export type { RoutingPreview } from './use-cases/routing-preview.js';
export type { SalesOrderIntake } from './use-cases/sales-orders.js';
export type { SeedOptions, SeedReport } from './use-cases/seed.js';
export type { AppliedAdjustment } from './use-cases/stock-adjustments.js';
export type { CreatedToken, Principal, TokenInfo } from './use-cases/tokens.js';
