import { DEFAULT_ACL_PREFIX } from '@fulfil/core';
import { type AdminOptions, createAdminServer } from './admin-handler.js';
import { type AuthThrottle, createAuthThrottle } from './auth-throttle.js';
import { createAuthenticator } from './authentication.js';
import { stdoutLog } from './batched-lines.js';
import { createExchanges, type Exchange } from './exchange.js';
import { createLoginThrottle, type LoginThrottle } from './login-throttle.js';
import { DEFAULT_LONG_POLL_LIMITS, type LongPollLimits, LongPolls } from './long-poll.js';
import type { Metrics } from './metrics.js';
import { parsePublicUrl } from './public-url.js';
import { randomHex } from './random-hex.js';
import { methodNotAllowed, noRoute } from './refusals.js';
import {
  DEFAULT_RESPONSE_CACHE_LIMITS,
  ResponseCache,
  type ResponseCacheLimits,
} from './response-cache.js';
import { routeTable } from './route-table.js';
import { createAdminRoutes } from './serve-admin.js';
import { createPageRoutes } from './serve-pages.js';
import { createProbeRoutes } from './serve-probes.js';
import { createStoreRoutes } from './serve-store.js';
import { sharedRead } from './shared-read.js';
import type { HttpEngine, HttpRequest, HttpResponse, LogFn, RequestHandler } from './types.js';

/**
 * The largest legitimate body is a stock batch of 10,000 items (the most one batch may hold) with
 * codes and skus at their 128-character limit: about 3 MiB as JSON, 3.4 MiB as indented XML.
 * What a body costs to read is bounded by its number of values (xml.ts, json-cost.ts), not by
 * its size.
 */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

export interface RequestHandlerOptions {
  /** Adds `trace` (the stack) to error bodies. Never on in production. */
  debug?: boolean;
  /** Where the one line per request goes; default stdout. Tokens and bodies are never logged. */
  log?: LogFn;
  /** Bodies longer than this are refused with 413; the node adapter enforces it while reading. */
  bodyLimit?: number;
  /** The ACL prefix named in the OpenAPI document; default the engine's. */
  aclPrefix?: string;
  /** Makes the ids that tie a 500 to its log line. */
  reportId?: () => string;
  /** Counts failed authentications per client address (429); default 20 per 10 s. */
  authThrottle?: AuthThrottle;
  /** Counts failed operator logins per name and address (429); default 10 per 10 minutes. */
  loginThrottle?: LoginThrottle;
  /**
   * Behind a proxy that sets them: the client's address is the last `X-Forwarded-For` entry
   * (failed authentications are counted by it), and `X-Forwarded-Proto: https` means https.
   */
  trustProxy?: boolean;
  /** Counts every request and serves the series at `GET /metrics`; off by default. */
  metrics?: Metrics;
  /**
   * How many finished queue poll responses (and authentications) to keep while the database
   * does not change (response-cache.ts); `entries: 0` turns it off. On by default.
   */
  responseCache?: ResponseCacheLimits;
  /**
   * The absolute URL clients reach the server at, e.g. `https://api.example.com/fulfil` behind
   * a proxy: the OpenAPI document of a store names its URL below it. Default `http://` and the
   * request's Host (public-url.ts).
   */
  publicUrl?: string;
  /**
   * Serves the admin API under `/admin/api` (docs/admin-api.md); off when absent. The engine
   * must then have its `admin` side.
   */
  admin?: AdminOptions;
  /**
   * Answers the requests it recognises before any route: the console's pages under `/admin/`
   * (@fulfil/console's `createConsoleHandler()`); null for the others.
   */
  console?: { respond(request: HttpRequest): HttpResponse | null };
  /** How queue GETs with `wait` are held (long-poll.ts); default 25 s at most. */
  longPoll?: LongPollLimits;
}

export { METRICS_PATH } from './prometheus.js';
export { tooLarge } from './refusals.js';
export type { RequestHandler } from './types.js';

function defaultReportId(): string {
  return randomHex(6);
}

/**
 * The whole HTTP surface (the contract and docs/behaviour.md). Per request: route (404/405),
 * then the route's module: a store's REST surface (serve-store.ts), the admin API
 * (serve-admin.ts), the pages (serve-pages.ts), the probes and metrics (serve-probes.ts). Every
 * failure is answered in one place (exchange.ts): an error body in the negotiated format.
 */
export function createRequestHandler(
  engine: HttpEngine,
  options: RequestHandlerOptions = {},
): RequestHandler {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const throttle = options.authThrottle ?? createAuthThrottle();
  const trustProxy = options.trustProxy ?? options.admin?.trustProxy ?? false;
  const metrics = options.metrics;
  const observeAuthFailure = metrics?.observeAuthFailure.bind(metrics);
  const cacheLimits = options.responseCache ?? DEFAULT_RESPONSE_CACHE_LIMITS;
  const publicUrl = options.publicUrl === undefined ? undefined : parsePublicUrl(options.publicUrl);
  const { now } = engine;
  const longPolls = new LongPolls(options.longPoll ?? DEFAULT_LONG_POLL_LIMITS, {
    queues: engine.onQueueChange,
    tokens: engine.onTokenChange,
    ...(metrics ? { onRefused: metrics.observeWaitRefused.bind(metrics) } : {}),
  });
  const changeStamp = engine.changeStamp && sharedRead(engine.changeStamp);
  // Only an engine that can say when its data changed can have answers kept.
  const cache =
    changeStamp && now && cacheLimits.entries > 0 ? new ResponseCache(cacheLimits) : undefined;

  const authenticate = createAuthenticator({
    engine,
    throttle,
    cache,
    now,
    trustProxy,
    observeAuthFailure,
  });

  let admin: ReturnType<typeof createAdminServer> | undefined;
  if (options.admin) {
    if (!engine.admin) throw new Error('fulfil: the admin API needs an engine with its admin side');
    admin = createAdminServer(
      engine.admin,
      {
        addresses: throttle,
        logins: options.loginThrottle ?? createLoginThrottle(),
        observe: observeAuthFailure,
      },
      { ...options.admin, trustProxy },
    );
  }
  const router = routeTable({ metrics: metrics !== undefined, admin: admin !== undefined });
  const { begin, unrouted, finish, failWith } = createExchanges({
    router,
    log: options.log ?? stdoutLog,
    metrics,
    debug: options.debug ?? false,
    makeReportId: options.reportId ?? defaultReportId,
  });

  const pages = createPageRoutes({
    publicUrl,
    on: { console: !!options.console, admin: !!admin, metrics: !!metrics },
  });
  const probes = createProbeRoutes({ engine, metrics, longPolls });
  const adminRoutes = createAdminRoutes({ admin, bodyLimit });
  const store = createStoreRoutes({
    engine,
    aclPrefix: options.aclPrefix ?? engine.aclPrefix ?? DEFAULT_ACL_PREFIX,
    publicUrl,
    bodyLimit,
    authenticate,
    longPolls,
    cache,
    changeStamp,
  });

  async function serve(request: HttpRequest, exchange: Exchange): Promise<HttpResponse> {
    const method = request.method.toUpperCase();
    const { match } = exchange;
    // Nothing here is a tunnel: CONNECT is refused whatever its target, a `host:port` included.
    if (method === 'CONNECT') {
      throw methodNotAllowed(method, match.kind === 'method_not_allowed' ? match.allow : []);
    }
    if (match.kind === 'not_found') throw noRoute(request.path);
    if (match.kind === 'method_not_allowed') throw methodNotAllowed(method, match.allow);
    const route = match.handler;
    switch (route.kind) {
      case 'docs':
      case 'asset':
      case 'home':
        return pages(request, exchange, route, match.params);
      case 'health':
      case 'ready':
      case 'metrics':
        return probes(request, exchange, route, match.params);
      case 'admin':
      case 'admin_session':
      case 'admin_schema':
        return adminRoutes(request, exchange, route, match.params);
      case 'schema':
      case 'operation':
        return store(request, exchange, route, match.params);
    }
  }

  const handler = ((request: HttpRequest): Promise<HttpResponse> => {
    let exchange: Exchange | undefined;
    const fail = (error: unknown) => failWith(request, exchange ?? unrouted(request), error);
    try {
      exchange = begin(request);
      const page = options.console?.respond(request);
      if (page)
        return Promise.resolve(finish(request, { ...exchange, operation: 'console' }, page));
    } catch (error) {
      return Promise.resolve(fail(error));
    }
    const served = exchange;
    // Chained, not awaited: a held long poll keeps no suspended frame of this function alive.
    return serve(request, served).then((response) => finish(request, served, response), fail);
  }) as RequestHandler;
  handler.fail = (request, error) => failWith(request, begin(request), error);
  handler.endWaits = () => longPolls.close();
  Object.defineProperty(handler, 'waiting', { get: () => longPolls.waiting });
  return handler;
}
