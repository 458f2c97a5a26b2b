import { hashTokenSecret, type Principal } from '@fulfil/core';
import { answerValue, headersOf, respond, statusOf } from './answers.js';
import type { Authenticate } from './authentication.js';
import type { RouteOf, ServeRoute } from './exchange.js';
import { heldToken } from './held-token.js';
import type { LongPolls } from './long-poll.js';
import { negotiate } from './media.js';
import { buildOpenApiDocument, type OpenApiDocument, storeServers } from './openapi/document.js';
import { requestBaseUrl } from './public-url.js';
import { lookShare, queueLook } from './queue-look.js';
import { notAcceptable, tooLarge } from './refusals.js';
import { decodeBody } from './request-body.js';
import { header, queryValue } from './request-parts.js';
import type { ResponseCache } from './response-cache.js';
import type { HttpEngine } from './types.js';

/**
 * A store's REST surface under `/rest/:store_code`: its OpenAPI document, and its operations.
 * Per operation: authenticate (401) → authorize (403) → negotiate (406) → decode the body
 * (415/400) → the engine's use case (which validates) → encode as JSON or XML.
 */

export interface StoreRouteOptions {
  engine: HttpEngine;
  /** The ACL prefix named in the OpenAPI document. */
  aclPrefix: string;
  publicUrl: string | undefined;
  bodyLimit: number;
  authenticate: Authenticate;
  longPolls: LongPolls;
  /** Finished answers kept while the database does not change; with the stamp that says so. */
  cache: ResponseCache | undefined;
  changeStamp: (() => Promise<string>) | undefined;
}

export function createStoreRoutes(
  options: StoreRouteOptions,
): ServeRoute<RouteOf<'schema' | 'operation'>> {
  const { engine, bodyLimit, authenticate, longPolls, cache, changeStamp } = options;
  let document: OpenApiDocument | undefined;
  const schemaFor = (storeCode: string, host: string | undefined): OpenApiDocument => {
    document ??= buildOpenApiDocument({ aclPrefix: options.aclPrefix });
    const base = requestBaseUrl(options.publicUrl, host);
    return { ...document, servers: storeServers(base, storeCode) };
  };

  return async (request, exchange, route, params) => {
    const storeCode = params.store_code as string;
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
      const input = { principal, body, query, params };
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
    const result = await operation.run(engine, { principal, body, query, params });
    const response = respond(statusOf(result), answerValue(result), media, headersOf(result));
    return cache && cached && key ? cache.keepResponse(cached.stamp, key, response) : response;
  };
}

/** The seconds a `wait` asks for; 0 when absent or not a number (the engine then answers 400). */
function waitSeconds(wait: string | undefined): number {
  return wait !== undefined && /^\d{1,9}$/.test(wait) ? Number(wait) : 0;
}
