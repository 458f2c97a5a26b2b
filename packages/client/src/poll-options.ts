import type { AbortSignalLike } from './fetch-like.js';
import type { FulfillmentOrder, Return, SalesOrder } from './generated/index.js';

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call, and the waits between its retries. */
  signal?: AbortSignalLike;
}

/** The polling parameters of a queue. */
export interface PollOptions extends CallOptions {
  /** Page number from 1; a page holds 100 orders; past the end a page is `[]`. */
  page?: number;
  /** `YYYY-MM-DD HH:MM:SS` (UTC): only orders updated at or after this time. */
  date?: string;
  /** Extension (docs/polling.md): the next 100 orders with an id greater than this. Not with `page`. */
  after?: number;
  /** Extension: a `Fulfil-Cursor`; the orders of the queue changed after it, in change order. */
  since?: string;
  /** Extension: seconds the service may hold the request until it has something new. */
  wait?: number;
  /** Extension (docs/deadlines.md): `fulfill_by`, each order then carries its `fulfill_by`. */
  include?: 'fulfill_by';
  /**
   * Extension: `fulfill_by`, the most urgent orders first (earliest `fulfill_by`, ties by id);
   * `after` then takes the id of the last order of the page before. `id` (default): by id.
   */
  sort?: 'id' | 'fulfill_by';
}

/** One answer of a queue, with the `Fulfil-Cursor` it carried (absent from a service without it). */
export interface QueuePage {
  orders: FulfillmentOrder[];
  cursor: string | undefined;
}

/** One answer of the sales orders feed, with the `Fulfil-Cursor` it carried. */
export interface SalesOrdersPage {
  salesOrders: SalesOrder[];
  cursor: string | undefined;
}

/** One answer of a returns queue, with the `Fulfil-Cursor` it carried. */
export interface ReturnsPage {
  returns: Return[];
  cursor: string | undefined;
}
