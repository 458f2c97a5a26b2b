import { performance } from 'node:perf_hooks';
import { DEFAULT_ACL_PREFIX, hashTokenSecret, type Principal } from '@fulfil/core';
import { AdminFile } from './admin-file.js';
import {
  type AdminOptions,
  type AdminRoute,
  createAdminServer,
  requestIdOf,
} from './admin-handler.js';
import { answer, answerFixed, answerValue, headersOf, respond, statusOf } from './answers.js';
import { type AuthThrottle, createAuthThrottle } from './auth-throttle.js';
import { createAuthenticator } from './authentication.js';
import { stdoutLog } from './batched-lines.js';
import { docsAsset } from './docs-assets.js';
import { type DocsPage, loadDocsPage } from './docs-page.js';
import { describeError, HttpError } from './errors.js';
import { heldToken } from './held-token.js';
import { homeAnswer } from './home-page.js';
import { createLoginThrottle, type LoginThrottle } from './login-throttle.js';
import { DEFAULT_LONG_POLL_LIMITS, type LongPollLimits, LongPolls } from './long-poll.js';
import { JSON_MEDIA, negotiate, type Produced, parseContentType, requestFormat } from './media.js';
import type { Metrics } from './metrics.js';
import { buildOpenApiDocument, type OpenApiDocument, storeServers } from './openapi/document.js';
import { health, ready } from './probes.js';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus.js';
import { parsePublicUrl, requestBaseUrl } from './public-url.js';
import { lookShare, queueLook } from './queue-look.js';
import { randomHex } from './random-hex.js';
import { methodNotAllowed, noRoute, notAcceptable, tooLarge } from './refusals.js';
import { decodeBody } from './request-body.js';
import { type Credentials, credentialsOf, header, queryValue } from './request-parts.js';
import { nameRoute } from './request-span.js';
import {
  DEFAULT_RESPONSE_CACHE_LIMITS,
  ResponseCache,
  type ResponseCacheLimits,
} from './response-cache.js';
import { operationOf, type Route, routeTable } from './route-table.js';
import type { RouteMatch } from './router.js';
import { sharedRead } from './shared-read.js';
import type { HttpEngine, HttpRequest, HttpResponse, LogFn } from './types.js';
import { logEntry } from './types.js';

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

/** The plain request handler: request in, response out, no socket involved. It never throws. */
export interface RequestHandler {
  (request: HttpRequest): Promise<HttpResponse>;
  /**
   * Answers a request with an error found before it could be handled (the node adapter's 413):
   * the same error body, negotiated format and log line as any other.
   */
  fail(request: Omit<HttpRequest, 'body'>, error: unknown): HttpResponse;
  /** Answers every held long poll now with what it last found, and holds no more (shutdown). */
  endWaits(): void;
  /** The long polls held now. */
  readonly waiting: number;
}

export { METRICS_PATH } from './prometheus.js';
export { tooLarge } from './refusals.js';

function defaultReportId(): string {
  return randomHex(6);
}

/** Per-request facts the error path and the log line need. */
interface Exchange {
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

/**
 * The REST surface (the contract and docs/behaviour.md) as one function. Per request: route (404/405) →
 * authenticate (401) → authorize (403) → negotiate (406) → decode the body (415/400) → the
 * engine's use case (which validates) → encode as JSON or XML. Every failure is an error body in
 * the negotiated format.
 */
export function createRequestHandler(
  engine: HttpEngine,
  options: RequestHandlerOptions = {},
): RequestHandler {
  const debug = options.debug ?? false;
  const log = options.log ?? stdoutLog;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const makeReportId = options.reportId ?? defaultReportId;
  const aclPrefix = options.aclPrefix ?? engine.aclPrefix ?? DEFAULT_ACL_PREFIX;
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

  let docsPage: DocsPage | null | undefined;
  let document: OpenApiDocument | undefined;
  const schemaFor = (storeCode: string, host: string | undefined): OpenApiDocument => {
    document ??= buildOpenApiDocument({ aclPrefix });
    return { ...document, servers: storeServers(requestBaseUrl(publicUrl, host), storeCode) };
  };

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
    if (route.kind === 'docs') {
      docsPage ??= loadDocsPage();
      if (!docsPage) throw new HttpError(404, 'The API reference page is not built.');
      // Relative, so that the page works behind a proxy that mounts the server under a prefix.
      const openApiUrl = match.params.store_code === undefined ? 'rest/default/schema' : 'schema';
      return answerFixed(request, await docsPage.page(openApiUrl));
    }
    if (route.kind === 'asset') {
      const asset = docsAsset(route.name ?? (match.params.asset as string));
      if (!asset) throw noRoute(request.path);
      return answerFixed(request, await asset);
    }
    if (route.kind === 'home') {
      docsPage ??= loadDocsPage();
      const home = homeAnswer(
        header(request.headers, 'accept'),
        requestBaseUrl(publicUrl, header(request.headers, 'host')),
        { docs: docsPage !== null, console: !!options.console, admin: !!admin, metrics: !!metrics },
      );
      return answer(200, home.contentType, home.body, home.headers);
    }
    if (route.kind === 'health') return respond(200, health(), JSON_MEDIA);
    if (route.kind === 'ready') {
      const status = await ready(engine, (error) => {
        exchange.logDetail = { error: error instanceof Error ? error.message : String(error) };
      });
      return respond(200, status, JSON_MEDIA);
    }
    if (route.kind === 'metrics') {
      const depths = await engine.queueDepths().catch(() => null);
      const returns = (await engine.returnCounts?.().catch(() => null)) ?? [];
      const waiting = (await engine.waitingByAge?.().catch(() => null)) ?? [];
      const held = { waiting: longPolls.waiting };
      return answer(
        200,
        PROMETHEUS_CONTENT_TYPE,
        metrics?.render(depths, held, returns, waiting) ?? '',
      );
    }
    if (route.kind === 'admin' || route.kind === 'admin_session' || route.kind === 'admin_schema') {
      return serveAdmin(request, exchange, route, match.params);
    }
    const storeCode = match.params.store_code as string;
    const accept = header(request.headers, 'accept');
    if (route.kind === 'schema') {
      const media = negotiate(accept, ['json']);
      if (!media) throw notAcceptable(accept, 'application/json');
      return respond(200, schemaFor(storeCode, header(request.headers, 'host')), media);
    }

    const { operation } = route;
    const { secret } = exchange.credentials;
    // The stamp is read before anything else: what is read after it may be kept under it.
    const cached =
      cache && changeStamp && operation.cacheable && secret !== null
        ? { stamp: await changeStamp(), identity: `${storeCode}\u0000${hashTokenSecret(secret)}` }
        : undefined;
    // Not a spread: in this server, spreading the principal made a new hidden class per request,
    // kept alive (with its descriptors) as long as the request is held.
    const principal: Principal = Object.assign(
      {},
      await authenticate(request, storeCode, exchange.credentials, cached),
      { request_id: exchange.requestId },
    );
    exchange.tokenName = principal.name;
    await engine.authorize(principal, operation.action);

    const media = negotiate(accept);
    if (!media) throw notAcceptable(accept, 'application/json or application/xml');
    if (request.body.length > bodyLimit) throw tooLarge(bodyLimit);
    const body = operation.method === 'POST' ? await decodeBody(request, operation) : undefined;
    const query: Record<string, string> = {};
    for (const name of operation.query) {
      const value = queryValue(request.query, name);
      if (value !== undefined) query[name] = value;
    }
    const seconds = operation.longPoll ? waitSeconds(query.wait) : 0;
    if (seconds > 0 && longPolls.holdMs(seconds) > 0) {
      // Not awaited here: while the request is held, this function's frame is let go.
      const input = { principal, body, query, params: match.params };
      return longPolls
        .hold(
          heldToken(engine, storeCode, secret as string, principal),
          seconds,
          queueLook(engine, operation, input),
          request.signal,
          lookShare(operation, input),
        )
        .then((result) => respond(200, result, media, headersOf(result)));
    }
    // The token (not only its scope) is part of the key: no answer ever crosses tokens.
    const key =
      cached &&
      JSON.stringify([
        cached.identity,
        operation.operationId,
        // The path names the resource (`/V1/salesOrders/{sales_order_number}`).
        request.path,
        media.contentType,
        ...operation.query.map((name) => query[name] ?? null),
      ]);
    if (cache && cached && key) {
      const hit = cache.response(cached.stamp, key);
      if (hit) {
        exchange.logDetail = { cache: 'hit' };
        return hit;
      }
    }
    const result = await operation.run(engine, { principal, body, query, params: match.params });
    const response = respond(statusOf(result), answerValue(result), media, headersOf(result));
    return cache && cached && key ? cache.keepResponse(cached.stamp, key, response) : response;
  }

  /** The admin API: JSON only, answered with the same headers and error bodies as `/V1`. */
  async function serveAdmin(
    request: HttpRequest,
    exchange: Exchange,
    route: AdminRoute,
    params: Record<string, string>,
  ): Promise<HttpResponse> {
    if (!admin) throw new HttpError(404, 'Request does not match any route.');
    const accept = header(request.headers, 'accept');
    if (!negotiate(accept, ['json'])) throw notAcceptable(accept, 'application/json');
    if (request.body.length > bodyLimit) throw tooLarge(bodyLimit);
    const method = request.method.toUpperCase();
    let body: unknown;
    if (method !== 'GET' && request.body.length > 0) {
      const type = parseContentType(header(request.headers, 'content-type'));
      if (type && requestFormat(type.mediaType) === 'xml') {
        throw new HttpError(415, 'The admin API takes application/json only.');
      }
      body = await decodeBody(request, {});
    }
    const answered = await admin.serve(request, route, params, body, exchange.requestId);
    if (answered.operator !== undefined) exchange.tokenName = answered.operator;
    const { value } = answered;
    if (value instanceof AdminFile) {
      return answer(answered.status, value.contentType, value.body, {
        ...answered.headers,
        ...value.headers,
      });
    }
    return respond(answered.status, answered.value, JSON_MEDIA, {
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      ...answered.headers,
    });
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

/** The seconds a `wait` asks for; 0 when absent or not a number (the engine then answers 400). */
function waitSeconds(wait: string | undefined): number {
  return wait !== undefined && /^\d{1,9}$/.test(wait) ? Number(wait) : 0;
}
