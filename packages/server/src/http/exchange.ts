import { performance } from 'node:perf_hooks';
import { requestIdOf } from './admin-handler.js';
import { respond } from './answers.js';
import { describeError } from './errors.js';
import { JSON_MEDIA, negotiate, type Produced } from './media.js';
import type { Metrics } from './metrics.js';
import { type Credentials, credentialsOf, header } from './request-parts.js';
import { nameRoute } from './request-span.js';
import { operationOf, type Route } from './route-table.js';
import type { RouteMatch, Router } from './router.js';
import type { HttpRequest, HttpResponse, LogFn } from './types.js';
import { logEntry } from './types.js';

/**
 * One request's way through the handler: how it begins (routed, its error format chosen), how it
 * ends (the metrics and the one log line), and the one place a failure becomes a response.
 */

/** Per-request facts the error path and the log line need. */
export interface Exchange {
  started: number;
  match: RouteMatch<Route>;
  /** The label of the route the request matched, for the metrics. */
  operation: string;
  /** The format errors are written in: the negotiated one, JSON when negotiation failed. */
  errorMedia: Produced;
  credentials: Credentials;
  /** The request's `X-Request-Id` when sane, else a new one: on the log line and the timeline. */
  requestId: string;
  tokenName?: string;
  /** Facts for the log line only, such as why a probe failed. */
  logDetail?: Record<string, unknown>;
}

export interface ExchangeOptions {
  router: Router<Route>;
  log: LogFn;
  metrics: Metrics | undefined;
  /** Adds `trace` (the stack) to error bodies. */
  debug: boolean;
  makeReportId: () => string;
}

export function createExchanges({ router, log, metrics, debug, makeReportId }: ExchangeOptions) {
  function finish(
    request: Omit<HttpRequest, 'body'>,
    exchange: Exchange,
    response: HttpResponse,
    extra: Record<string, unknown> = {},
  ) {
    const elapsed = performance.now() - exchange.started;
    metrics?.observeRequest(exchange.operation, response.status, elapsed / 1000);
    const duration = Math.round(elapsed * 10) / 10;
    logEntry(log, {
      level: response.status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: request.method.toUpperCase(),
      path: request.path,
      status: response.status,
      duration_ms: duration,
      ...(exchange.tokenName === undefined ? {} : { token: exchange.tokenName }),
      request_id: exchange.requestId,
      ...exchange.logDetail,
      ...extra,
    });
    return response;
  }

  function failWith(
    request: Omit<HttpRequest, 'body'>,
    exchange: Exchange,
    error: unknown,
  ): HttpResponse {
    const outcome = describeError(error, {
      debug,
      reportId: makeReportId,
      tokenSent: exchange.credentials.secret !== null,
      malformedCredentials: exchange.credentials.malformed,
    });
    const response = respond(outcome.status, outcome.body, exchange.errorMedia, outcome.headers);
    const extra: Record<string, string> =
      outcome.reportId === undefined
        ? {}
        : {
            report_id: outcome.reportId,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          };
    if (outcome.cause !== undefined) extra.cause = outcome.cause;
    return finish(request, exchange, response, extra);
  }

  function begin(request: Omit<HttpRequest, 'body'>): Exchange {
    const match = router.match(request.method, request.path);
    nameRoute(request.method, match);
    const adminRoute = match.kind === 'found' && match.handler.kind.startsWith('admin');
    return {
      started: performance.now(),
      match,
      operation: operationOf(match),
      errorMedia: adminRoute
        ? JSON_MEDIA
        : (negotiate(header(request.headers, 'accept')) ?? JSON_MEDIA),
      credentials: credentialsOf(request.headers),
      requestId: requestIdOf(request.headers),
    };
  }

  /** The exchange of a request that failed before it was routed. */
  const unrouted = (request: HttpRequest): Exchange => ({
    started: performance.now(),
    match: { kind: 'not_found' },
    operation: 'unmatched',
    errorMedia: JSON_MEDIA,
    credentials: { secret: null, malformed: false },
    requestId: requestIdOf(request.headers),
  });

  return { begin, unrouted, finish, failWith };
}

/** How a route module answers one routed request; what it throws, `failWith` answers. */
export type ServeRoute<R extends Route> = (
  request: HttpRequest,
  exchange: Exchange,
  route: R,
  params: Record<string, string>,
) => Promise<HttpResponse>;

/** The routes of some kinds, for the module that answers them. */
export type RouteOf<K extends Route['kind']> = Extract<Route, { kind: K }>;
