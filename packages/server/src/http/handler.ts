import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DEFAULT_ACL_PREFIX, DomainError } from '@fulfil/core';
import { describeError, HttpError, undecodableBody } from './errors.js';
import { JsonDocuments } from './json-documents.js';
import { JSON_MEDIA, negotiate, type Produced, parseContentType, requestFormat } from './media.js';
import { buildOpenApiDocument, type OpenApiDocument, serversFor } from './openapi/document.js';
import { createRouter } from './router.js';
import { OPERATIONS, type Operation, SCHEMA_PATH, STORE_PREFIX } from './routes.js';
import { coerceBySchema } from './schema-coerce.js';
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

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

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

type Route = { kind: 'operation'; operation: Operation } | { kind: 'schema' };

function header(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

function queryValue(query: HttpRequest['query'], name: string): string | undefined {
  if (query instanceof URLSearchParams) return query.get(name) ?? undefined;
  const value = query[name];
  return typeof value === 'string' ? value : value?.[0];
}

/** What a request says about its credentials (DECISIONS §6): Bearer and `api_key` are one. */
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
function decodeBody(request: HttpRequest, operation: Operation): unknown {
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
    const tree = parseXmlRequest(text);
    return operation.request ? coerceBySchema(operation.request, tree) : tree;
  }
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

function respond(
  status: number,
  value: unknown,
  media: Produced,
  headers: Record<string, string> = {},
): HttpResponse {
  return {
    status,
    headers: {
      'content-type': media.contentType,
      'cache-control': 'no-store',
      vary: 'Accept',
      ...headers,
    },
    body: encode(value, media),
  };
}

function defaultReportId(): string {
  return randomBytes(6).toString('hex');
}

/** Per-request facts the error path and the log line need. */
interface Exchange {
  started: number;
  /** The format errors are written in: the negotiated one, JSON when negotiation failed. */
  errorMedia: Produced;
  credentials: Credentials;
  tokenName?: string;
}

/**
 * The REST surface (spec + DECISIONS) as one function. Per request: route (404/405) →
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

  const router = createRouter<Route>();
  for (const operation of OPERATIONS) {
    router.add(operation.method, `${STORE_PREFIX}${operation.path}`, {
      kind: 'operation',
      operation,
    });
  }
  router.add('GET', `${STORE_PREFIX}${SCHEMA_PATH}`, { kind: 'schema' });

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
    const duration = Math.round((performance.now() - exchange.started) * 10) / 10;
    logEntry(log, {
      level: response.status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: request.method.toUpperCase(),
      path: request.path,
      status: response.status,
      duration_ms: duration,
      ...(exchange.tokenName === undefined ? {} : { token: exchange.tokenName }),
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
    const extra =
      outcome.reportId === undefined
        ? {}
        : {
            report_id: outcome.reportId,
            error: error instanceof Error ? (error.stack ?? error.message) : String(error),
          };
    return finish(request, exchange, response, extra);
  }

  function begin(request: Omit<HttpRequest, 'body'>): Exchange {
    return {
      started: performance.now(),
      errorMedia: negotiate(header(request.headers, 'accept')) ?? JSON_MEDIA,
      credentials: credentialsOf(request.headers),
    };
  }

  async function serve(request: HttpRequest, exchange: Exchange): Promise<HttpResponse> {
    const method = request.method.toUpperCase();
    const match = router.match(method, request.path);
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
    const storeCode = match.params.store_code as string;
    const accept = header(request.headers, 'accept');
    const route = match.handler;
    if (route.kind === 'schema') {
      const media = negotiate(accept, ['json']);
      if (!media) throw notAcceptable(accept, 'application/json');
      return respond(200, schemaFor(storeCode), media);
    }

    const { operation } = route;
    if (exchange.credentials.malformed) {
      throw new DomainError(
        'unauthenticated',
        'The Authorization header must read "Bearer <token>".',
      );
    }
    const principal = await engine.authenticate(storeCode, exchange.credentials.secret);
    exchange.tokenName = principal.name;
    await engine.authorize(principal, operation.action);

    const media = negotiate(accept);
    if (!media) throw notAcceptable(accept, 'application/json or application/xml');
    if (request.body.length > bodyLimit) throw tooLarge(bodyLimit);
    const body = operation.method === 'POST' ? decodeBody(request, operation) : undefined;
    const query: Record<string, string> = {};
    for (const name of operation.query) {
      const value = queryValue(request.query, name);
      if (value !== undefined) query[name] = value;
    }
    const result = await operation.run(engine, { principal, body, query });
    return respond(200, result, media);
  }

  const handler = (async (request: HttpRequest): Promise<HttpResponse> => {
    let exchange: Exchange | undefined;
    try {
      exchange = begin(request);
      return finish(request, exchange, await serve(request, exchange));
    } catch (error) {
      exchange ??= {
        started: performance.now(),
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
