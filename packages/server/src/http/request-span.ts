import { currentTraceIds, Probe } from '@fulfil/core';
import type { RouteMatch } from './router.js';
import type { HttpHeaders, HttpRequest, HttpResponse, LogFn, RequestHandler } from './types.js';

/**
 * The server span of each request (OpenTelemetry's HTTP server conventions): its parent is the
 * caller's span its `traceparent` names, and every span of the engine and the storage under it
 * belongs to its trace. Only the method, the path (never the query), the route template and the
 * status are recorded: no header, no body, no client address.
 */

/** What the `fulfil:request` channel tells of a request (and its span's attributes). */
export interface RequestMessage {
  method: string;
  /** The path only, still percent-encoded. */
  path: string;
  secure: boolean;
  headers: HttpHeaders;
}

const METHODS = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
]);

/**
 * The method as the conventions want it: a known one, or `_OTHER` with the original beside it.
 * One literal per case, not a spread: this is made for every request.
 */
function requestAttributes(message: RequestMessage): Record<string, string> {
  const scheme = message.secure ? 'https' : 'http';
  return METHODS.has(message.method)
    ? { 'http.request.method': message.method, 'url.path': message.path, 'url.scheme': scheme }
    : {
        'http.request.method': '_OTHER',
        'http.request.method_original': message.method.slice(0, 32),
        'url.path': message.path,
        'url.scheme': scheme,
      };
}

export const requestProbe = new Probe<RequestMessage>({
  channel: 'fulfil:request',
  scope: '@fulfil/server',
  kind: 'server',
  spanName: (message) => (METHODS.has(message.method) ? message.method : 'HTTP'),
  attributes: requestAttributes,
  headersOf: (message) => message.headers,
});

const settle = {
  result: (response: HttpResponse) =>
    response.status >= 500
      ? { 'http.response.status_code': response.status, 'error.type': String(response.status) }
      : { 'http.response.status_code': response.status },
};

function messageOf(request: Omit<HttpRequest, 'body'>): RequestMessage {
  return {
    method: request.method.toUpperCase(),
    path: request.path,
    secure: request.secure === true,
    headers: request.headers,
  };
}

/**
 * `handler` with each request in a server span: those it answers, and those refused before it
 * (a body too large, a server shutting down). A request node could not parse (method `-`) has
 * none: nothing of it is known, not even its trace.
 */
export function traceRequests(handler: RequestHandler): RequestHandler {
  // Nobody listening (the usual case): the handler itself, no closure made.
  const traced = ((request: HttpRequest) =>
    requestProbe.enabled
      ? requestProbe.trace(
          () => messageOf(request),
          () => handler(request),
          settle,
        )
      : handler(request)) as RequestHandler;
  traced.fail = (request, error) =>
    request.method === '-' || !requestProbe.enabled
      ? handler.fail(request, error)
      : requestProbe.traceSync(
          () => messageOf(request),
          () => handler.fail(request, error),
          settle,
        );
  traced.endWaits = handler.endWaits;
  Object.defineProperty(traced, 'waiting', { get: () => handler.waiting });
  return traced;
}

/**
 * Names the request's server span after the route it matched (`POST
 * /rest/{store_code}/V1/fulfillmentOrder/accept`), as soon as it is routed. Nothing without one.
 */
export function nameRoute(method: string, match: RouteMatch<unknown>): void {
  if (match.kind !== 'found') return;
  requestProbe.amend(`${method.toUpperCase()} ${match.template}`, { 'http.route': match.template });
}

/** `log` with the trace and span ids of the current span in each line, when there is one. */
export function withTraceIds(log: LogFn): LogFn {
  return (line) => {
    const { trace_id, span_id } = currentTraceIds();
    if (trace_id === undefined || !line.endsWith('}')) return log(line);
    log(`${line.slice(0, -1)},"trace_id":"${trace_id}","span_id":"${span_id}"}`);
  };
}
