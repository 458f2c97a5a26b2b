import {
  AGE_BUCKETS,
  type CourierCallEvent,
  type DeadlineMetrics,
  type DispatchReport,
  type QueueDepth,
  type ReturnCount,
  type WaitingByAge,
} from '@fulfil/core';
import type { AuthSurface } from './auth-throttle.js';
import type { WaiterCap } from './long-poll.js';
import { Counter, family, Histogram } from './prometheus.js';

/**
 * The series `/metrics` exposes (`fulfil serve --metrics`). Counters live in this process; with
 * `--workers N` each worker counts its own requests and courier rounds, while queue depths are
 * read from the database and are the same from every worker.
 */
export interface Metrics {
  /** One answered request: its operation (a route's name, or `unmatched`), status and time. */
  observeRequest(operation: string, status: number, seconds: number): void;
  /** One courier dispatch round: its report, or the error it failed with. */
  observeCourierRound(outcome: DispatchReport | Error): void;
  /** One carrier call: its carrier, operation, outcome kind and duration. */
  observeCourierCall(event: CourierCallEvent): void;
  /** One failed authentication: where (a `/V1` token, an operator secret, a login), and 401 or 429. */
  observeAuthFailure(surface: AuthSurface, status: 401 | 429): void;
  /** One queue GET with `wait` refused over a waiter cap: per token, or in all. */
  observeWaitRefused(cap: WaiterCap): void;
  /**
   * The exposition text; `depths` is null when the database could not be read, `process` is what
   * the process holds now (default nothing), `returns` the returns by status (default none),
   * `waiting` the open holds and cancellation requests by age (default none).
   */
  render(
    depths: readonly QueueDepth[] | null,
    process?: ProcessState,
    returns?: readonly ReturnCount[] | null,
    waiting?: readonly WaitingByAge[] | null,
    deadlines?: DeadlineMetrics | null,
  ): string;
}

/** What the serving process holds at the moment of a scrape. */
export interface ProcessState {
  /** Queue GETs with `wait` held now. */
  waiting: number;
}

/** Request latency buckets, in seconds: from a cached poll to a slow stock batch. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(): Metrics {
  const requests = new Counter();
  const latency = new Histogram(LATENCY_BUCKETS);
  const courierOrders = new Counter();
  const courierRounds = new Counter();
  const carrierCalls = new Counter();
  const carrierLatency = new Histogram(LATENCY_BUCKETS);
  const authFailures = new Counter();
  const waitRefusals = new Counter();
  return {
    observeAuthFailure(surface, status) {
      authFailures.add({ surface, status: String(status) });
    },
    observeWaitRefused(cap) {
      waitRefusals.add({ cap });
    },
    observeCourierCall({ carrier, op, kind, ms }) {
      carrierCalls.add({ carrier, operation: op, outcome: kind });
      carrierLatency.observe({ carrier, operation: op }, ms / 1000);
    },
    observeRequest(operation, status, seconds) {
      requests.add({ operation, status: String(status) });
      latency.observe({ operation }, seconds);
    },
    observeCourierRound(outcome) {
      if (outcome instanceof Error) {
        courierRounds.add({ result: 'error' });
        return;
      }
      courierRounds.add({ result: 'ok' });
      for (const kind of ['shipped', 'retrying', 'failed', 'voided', 'void_failed'] as const) {
        if (outcome[kind].length) courierOrders.add({ outcome: kind }, outcome[kind].length);
      }
    },
    render(depths, process = { waiting: 0 }, returns = [], waiting = [], deadlines = null) {
      const byAge = (kind: 'holds' | 'cancellation_requests') =>
        (waiting ?? []).flatMap((store) =>
          AGE_BUCKETS.map((age) => ({
            labels: { store: store.store_code, age },
            value: store[kind][age],
          })),
        );
      return [
        family(
          'fulfil_http_requests_total',
          'counter',
          'Requests answered, by operation and HTTP status.',
          requests.samples(),
        ),
        family(
          'fulfil_http_request_duration_seconds',
          'histogram',
          'Time from a request read to its answer, by operation.',
          latency.samples(),
        ),
        family(
          'fulfil_queue_depth',
          'gauge',
          'Orders each queue of each store lists; for failed, the open failures only (not the abandoned).',
          (depths ?? []).map((depth) => ({
            labels: { store: depth.store_code, queue: depth.queue },
            value: depth.orders,
          })),
        ),
        family(
          'fulfil_failed_orders',
          'gauge',
          'Orders of the failed queue of each store, by state: open (still to deal with), or abandoned (listed for good).',
          (depths ?? [])
            .filter((depth) => depth.queue === 'failed')
            .flatMap((depth) => [
              { labels: { store: depth.store_code, state: 'open' }, value: depth.orders },
              {
                labels: { store: depth.store_code, state: 'abandoned' },
                value: depth.abandoned ?? 0,
              },
            ]),
        ),
        family(
          'fulfil_returns',
          'gauge',
          'Returns of each store by status: pending_receipt, pending_credit, credited, closed, canceled.',
          (returns ?? []).map((count) => ({
            labels: { store: count.store_code, status: count.status },
            value: count.returns,
          })),
        ),
        family(
          'fulfil_open_holds',
          'gauge',
          'Open holds of each store (one per hold and order), by how long ago they were placed: under_1h, 1h_to_4h, 4h_to_24h, over_24h.',
          byAge('holds'),
        ),
        family(
          'fulfil_open_cancellation_requests',
          'gauge',
          "Cancellation requests of each store awaiting their partner's answer, by how long ago they were made: under_1h, 1h_to_4h, 4h_to_24h, over_24h.",
          byAge('cancellation_requests'),
        ),
        family(
          'fulfil_orders_by_deadline',
          'gauge',
          'Orders of each store and warehouse by deadline status: on_track, at_risk, overdue (not shipped, with a deadline), met, missed (shipped in the last 30 days).',
          (deadlines?.by_status ?? []).map((count) => ({
            labels: {
              store: count.store_code,
              warehouse: count.warehouse_code,
              status: count.status,
            },
            value: count.orders,
          })),
        ),
        family(
          'fulfil_late_shipments_ratio',
          'gauge',
          'Of the orders with a deadline shipped in the last 30 days, the share shipped after it, by warehouse code.',
          (deadlines?.late_ratio ?? []).map((row) => ({
            labels: { warehouse: row.warehouse_code },
            value: row.ratio,
          })),
        ),
        family('fulfil_database_up', 'gauge', 'Whether the last read of the database succeeded.', [
          { labels: {}, value: depths === null ? 0 : 1 },
        ]),
        family(
          'fulfil_auth_failures_total',
          'counter',
          'Failed authentications, by surface (api: /V1 tokens, admin: operator secrets, login) and status: 401, or 429 once throttled.',
          authFailures.samples(),
        ),
        family(
          'fulfil_long_polls_waiting',
          'gauge',
          'Queue GETs with wait held by this process now.',
          [{ labels: {}, value: process.waiting }],
        ),
        family(
          'fulfil_long_poll_refusals_total',
          'counter',
          'Queue GETs with wait refused (429) over a waiter cap: token (per token) or server (in all).',
          waitRefusals.samples(),
        ),
        family(
          'fulfil_courier_orders_total',
          'counter',
          'Orders the courier dispatch handled, by outcome: shipped, retrying, failed, voided (labels), void_failed.',
          courierOrders.samples(),
        ),
        family(
          'fulfil_courier_rounds_total',
          'counter',
          'Courier dispatch rounds, by result: ok, or error when the round itself failed.',
          courierRounds.samples(),
        ),
        family(
          'fulfil_courier_calls_total',
          'counter',
          'Carrier calls, by carrier, operation and outcome: ok, retriable, permanent, unknown.',
          carrierCalls.samples(),
        ),
        family(
          'fulfil_courier_call_duration_seconds',
          'histogram',
          'Time a carrier call took, rate-limit wait included, by carrier and operation.',
          carrierLatency.samples(),
        ),
      ].join('');
    },
  };
}
