import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  DEFAULT_ACL_PREFIX,
  DomainError,
  hashTokenSecret,
  isDomainError,
  type Principal,
} from '@fulfil/core';
import { type AuthThrottle, createAuthThrottle, tooManyFailures } from './auth-throttle.js';
import { type DocsPage, loadDocsPage } from './docs-page.js';
import { describeError, HttpError, undecodableBody } from './errors.js';
import { assertJsonValuesWithin, DEFAULT_JSON_VALUES } from './json-cost.js';
import { JsonDocuments } from './json-documents.js';
import { JSON_MEDIA, negotiate, type Produced, parseContentType, requestFormat } from './media.js';
import type { Metrics } from './metrics.js';
import { buildOpenApiDocument, type OpenApiDocument, serversFor } from './openapi/document.js';
import { HEALTH_PATH, health, READY_PATH, ready } from './probes.js';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus.js';
import {
  DEFAULT_RESPONSE_CACHE_LIMITS,
  ResponseCache,
  type ResponseCacheLimits,
} from './response-cache.js';
import { createRouter, type RouteMatch } from './router.js';
import { DOCS_PATH, OPERATIONS, type Operation, SCHEMA_PATH, STORE_PREFIX } from './routes.js';
import { coerceBySchema } from './schema-coerce.js';
import { sharedRead } from './shared-read.js';
import {
  type HttpEngine,
  type HttpHeaders,
  type HttpRequest,
  type HttpResponse,
  type LogFn,
  logEntry,
  stdoutLog,
} from './types.js';
import { encodeXmlResponse, parseXmlRequest } from './xml.js';

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
  /** Counts every request and serves the series at `GET /metrics`; off by default. */
  metrics?: Metrics;
  /**
   * How many finished queue poll responses (and authentications) to keep while the database
   * does not change (response-cache.ts); `entries: 0` turns it off. On by default.
   */
  responseCache?: ResponseCacheLimits;
}

/** The plain request handler: request in, response out, no socket involved. It never throws. */
export interface RequestHandler {
  (request: HttpRequest): Promise<HttpResponse>;
  /**
   * Answers a request with an error found before it could be handled (the node adapter's 413):
   * the same error body, negotiated format and log line as any other.
   */
  fail(request: Omit<HttpRequest, 'body'>, error: unknown): HttpResponse;
}

type Route =
  | { kind: 'operation'; operation: Operation }
  | { kind: 'schema' }
  | { kind: 'docs' }
  | { kind: 'health' }
  | { kind: 'ready' }
  | { kind: 'metrics' };

/** The path of the Prometheus exposition, when metrics are on. */
export const METRICS_PATH = '/metrics';

function header(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

function queryValue(query: HttpRequest['query'], name: string): string | undefined {
  if (query instanceof URLSearchParams) return query.get(name) ?? undefined;
  const value = query[name];
  return typeof value === 'string' ? value : value?.[0];
}

/** What a request says about its credentials (docs/behaviour.md): Bearer and `api_key` are one. */
interface Credentials {
  secret: string | null;
  malformed: boolean;
}

function credentialsOf(headers: HttpHeaders): Credentials {
  const authorization = header(headers, 'authorization');
  if (authorization !== undefined) {
    const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    return bearer
      ? { secret: bearer[1] as string, malformed: false }
      : { secret: null, malformed: true };
  }
  const apiKey = header(headers, 'api_key')?.trim();
  return { secret: apiKey || null, malformed: false };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/** The body as a value: JSON as it is, XML typed by the operation's request schema. */
async function decodeBody(request: HttpRequest, operation: Operation): Promise<unknown> {
  const contentType = parseContentType(header(request.headers, 'content-type'));
  const format = contentType ? requestFormat(contentType.mediaType) : null;
  if (!contentType || !format) {
    throw new HttpError(
      415,
      'Content type %fieldValue is not supported: send application/json or application/xml.',
      [{ fieldName: 'Content-Type', fieldValue: contentType?.mediaType ?? '(none)' }],
    );
  }
  if (contentType.charset !== null && !CHARSETS.has(contentType.charset)) {
    throw new HttpError(415, 'Charset %fieldValue is not supported: send UTF-8.', [
      { fieldName: 'Content-Type', fieldValue: contentType.charset },
    ]);
  }
  let text: string;
  try {
    text = UTF8.decode(request.body);
  } catch {
    throw undecodableBody('The request body is not valid UTF-8.');
  }
  if (format === 'xml') {
    const tree = await parseXmlRequest(text);
    return operation.request ? coerceBySchema(operation.request, tree) : tree;
  }
  await assertJsonValuesWithin(text, DEFAULT_JSON_VALUES);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw undecodableBody(
      'The request body is not valid JSON: %fieldValue',
      (error as Error).message,
    );
  }
}

function encode(value: unknown, media: Produced): string {
  if (value instanceof JsonDocuments) {
    return media.format === 'xml' ? encodeXmlResponse(value.values()) : value.json();
  }
  return media.format === 'xml' ? encodeXmlResponse(value) : JSON.stringify(value);
}

/** Every answer goes out through here, so every one has these headers. */
function answer(
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): HttpResponse {
  return {
    status,
    headers: {
      'content-type': contentType,
      'cache-control': 'no-store',
      // Browsers must take every answer, error bodies included, as the type it says it is.
      'x-content-type-options': 'nosniff',
      vary: 'Accept',
      ...headers,
    },
    body,
  };
}

function respond(
  status: number,
  value: unknown,
  media: Produced,
  headers: Record<string, string> = {},
): HttpResponse {
  return answer(status, media.contentType, encode(value, media), headers);
}

function defaultReportId(): string {
  return randomBytes(6).toString('hex');
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
  const cacheLimits = options.responseCache ?? DEFAULT_RESPONSE_CACHE_LIMITS;
  const { now } = engine;
  const changeStamp = engine.changeStamp && sharedRead(engine.changeStamp);
  // Only an engine that can say when its data changed can have answers kept.
  const cache =
    changeStamp && now && cacheLimits.entries > 0 ? new ResponseCache(cacheLimits) : undefined;

  /**
   * The principal of the request's token. A failure counts against the client's address, and
   * once the address is throttled it is answered 429 instead of 401; success never is. With a
   * change stamp, a principal authenticated under the same stamp is taken from the cache,
   * unless its token has expired since: then the engine refuses it as before.
   */
  async function authenticate(
    request: HttpRequest,
    storeCode: string,
    credentials: Credentials,
    cached?: { stamp: string; identity: string },
  ): Promise<Principal> {
    if (cache && cached && now) {
      const principal = cache.principal(cached.stamp, cached.identity);
      const expiresAt = principal?.expires_at;
      if (principal && (expiresAt === null || (expiresAt !== undefined && expiresAt > now()))) {
        return principal;
      }
    }
    const principal = await authenticateAnew(request, storeCode, credentials);
    // Successes only: a refusal is never kept, so it is decided afresh (and throttled) each time.
    if (cache && cached && principal.expires_at !== undefined) {
      cache.keepPrincipal(cached.stamp, cached.identity, principal);
    }
    return principal;
  }

  async function authenticateAnew(
    request: HttpRequest,
    storeCode: string,
    credentials: Credentials,
  ): Promise<Principal> {
    try {
      if (credentials.malformed) {
        throw new DomainError(
          'unauthenticated',
          'The Authorization header must read "Bearer <token>".',
        );
      }
      return await engine.authenticate(storeCode, credentials.secret);
    } catch (error) {
      const address = request.remoteAddress;
      if (address === undefined || !isDomainError(error) || error.code !== 'unauthenticated') {
        throw error;
      }
      const throttled = throttle.retryAfter(address) > 0;
      throttle.fail(address);
      throw throttled ? tooManyFailures(throttle.retryAfter(address)) : error;
    }
  }

  const router = createRouter<Route>();
  for (const operation of OPERATIONS) {
    router.add(operation.method, `${STORE_PREFIX}${operation.path}`, {
      kind: 'operation',
      operation,
    });
  }
  router.add('GET', `${STORE_PREFIX}${SCHEMA_PATH}`, { kind: 'schema' });
  // The API reference page, public like the document it renders: the default store's at /docs.
  router.add('GET', DOCS_PATH, { kind: 'docs' });
  router.add('GET', `${STORE_PREFIX}${DOCS_PATH}`, { kind: 'docs' });
  router.add('GET', HEALTH_PATH, { kind: 'health' });
  router.add('GET', READY_PATH, { kind: 'ready' });
  const metrics = options.metrics;
  if (metrics) router.add('GET', METRICS_PATH, { kind: 'metrics' });

  /** A bounded set of names: a route's operation, or `unmatched`. */
  const operationOf = (match: RouteMatch<Route>): string => {
    if (match.kind !== 'found') return 'unmatched';
    const route = match.handler;
    return route.kind === 'operation' ? route.operation.operationId : route.kind;
  };

  let docsPage: DocsPage | null | undefined;
  let document: OpenApiDocument | undefined;
  const schemaFor = (storeCode: string): OpenApiDocument => {
    document ??= buildOpenApiDocument({ aclPrefix });
    return { ...document, servers: serversFor(storeCode) };
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
    return {
      started: performance.now(),
      match,
      operation: operationOf(match),
      errorMedia: negotiate(header(request.headers, 'accept')) ?? JSON_MEDIA,
      credentials: credentialsOf(request.headers),
    };
  }

  async function serve(request: HttpRequest, exchange: Exchange): Promise<HttpResponse> {
    const method = request.method.toUpperCase();
    const { match } = exchange;
    if (match.kind === 'not_found') {
      throw new HttpError(404, 'Request does not match any route.', [
        { fieldName: 'path', fieldValue: request.path },
      ]);
    }
    if (match.kind === 'method_not_allowed') {
      const allow = match.allow.join(', ');
      throw new HttpError(
        405,
        'Method %fieldValue is not allowed here.',
        [{ fieldName: 'method', fieldValue: method }],
        { allow },
      );
    }
    const route = match.handler;
    if (route.kind === 'docs') {
      docsPage ??= loadDocsPage();
      if (!docsPage) throw new HttpError(404, 'The API reference page is not built.');
      // Relative, so that the page works behind a proxy that mounts the server under a prefix.
      const openApiUrl = match.params.store_code === undefined ? 'rest/default/schema' : 'schema';
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
        body: docsPage.render(openApiUrl),
      };
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
      return answer(200, PROMETHEUS_CONTENT_TYPE, metrics?.render(depths) ?? '');
    }
    const storeCode = match.params.store_code as string;
    const accept = header(request.headers, 'accept');
    if (route.kind === 'schema') {
      const media = negotiate(accept, ['json']);
      if (!media) throw notAcceptable(accept, 'application/json');
      return respond(200, schemaFor(storeCode), media);
    }

    const { operation } = route;
    const { secret } = exchange.credentials;
    // The stamp is read before anything else: what is read after it may be kept under it.
    const cached =
      cache && changeStamp && operation.cacheable && secret !== null
        ? { stamp: await changeStamp(), identity: `${storeCode}\u0000${hashTokenSecret(secret)}` }
        : undefined;
    const principal = await authenticate(request, storeCode, exchange.credentials, cached);
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
    // The token (not only its scope) is part of the key: no answer ever crosses tokens.
    const key =
      cached &&
      JSON.stringify([
        cached.identity,
        operation.operationId,
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
    const result = await operation.run(engine, { principal, body, query });
    const response = respond(200, result, media);
    return cache && cached && key ? cache.keepResponse(cached.stamp, key, response) : response;
  }

  const handler = (async (request: HttpRequest): Promise<HttpResponse> => {
    let exchange: Exchange | undefined;
    try {
      exchange = begin(request);
      return finish(request, exchange, await serve(request, exchange));
    } catch (error) {
      exchange ??= {
        started: performance.now(),
        match: { kind: 'not_found' },
        operation: 'unmatched',
        errorMedia: JSON_MEDIA,
        credentials: { secret: null, malformed: false },
      };
      return failWith(request, exchange, error);
    }
  }) as RequestHandler;
  handler.fail = (request, error) => failWith(request, begin(request), error);
  return handler;
}

function notAcceptable(accept: string | undefined, offered: string): HttpError {
  return new HttpError(
    406,
    `None of the media types in %fieldValue can be produced: accept ${offered}.`,
    [{ fieldName: 'Accept', fieldValue: accept ?? '' }],
  );
}

/** The 413 of a body over the limit. */
export function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'The request body exceeds the limit of %fieldValue bytes.', [
    { fieldName: 'body', fieldValue: String(limit) },
  ]);
}
