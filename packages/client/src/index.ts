/** @fulfil/client: a typed client of Fulfil's REST API over fetch, for Node 20+ and browsers. */
export {
  type CallOptions,
  type ClientOptions,
  createClient,
  type FulfilClient,
  type PollOptions,
  type QueuePage,
  type ReturnsPage,
  type SalesOrdersPage,
} from './client.js';
export { FulfilApiError } from './errors.js';
export type { AbortSignalLike, FetchInit, FetchLike, FetchResponseLike } from './fetch-like.js';
export type {
  AcceptCancellationRequest,
  AcceptRequest,
  AllocateRequest,
  CancellationRequest,
  CreditRequest,
  ErrorBody,
  FulfillmentOrder,
  FulfillmentOrderItem,
  HoldAnswer,
  HoldRequest,
  InvoiceRequest,
  QueueName,
  ReceiptRequest,
  RejectCancellationRequest,
  RejectRequest,
  ReleaseRequest,
  Return,
  ReturnQueue,
  ReturnRequest,
  SalesOrder,
  SalesOrderBatchEntry,
  SalesOrderInput,
  ShipRequest,
  StockItem,
  StockItemsRequest,
  Warehouse,
} from './generated/index.js';
export { type InvoiceDetails, invoiceFor } from './invoice.js';
export type { RetryOptions } from './retry.js';
export type { WatchOptions } from './watch.js';
export { XmlDecodeError } from './xml.js';
