import { AdminFile } from './admin-file.js';
import type { AdminServer } from './admin-handler.js';
import { answer, respond } from './answers.js';
import { HttpError } from './errors.js';
import type { RouteOf, ServeRoute } from './exchange.js';
import { JSON_MEDIA, negotiate, parseContentType, requestFormat } from './media.js';
import { notAcceptable, tooLarge } from './refusals.js';
import { decodeBody } from './request-body.js';
import { header } from './request-parts.js';

/** The admin API: JSON only, answered with the same headers and error bodies as `/V1`. */

export interface AdminRouteOptions {
  /** Absent when the admin API is off. */
  admin: AdminServer | undefined;
  bodyLimit: number;
}

export function createAdminRoutes({
  admin,
  bodyLimit,
}: AdminRouteOptions): ServeRoute<RouteOf<'admin' | 'admin_session' | 'admin_schema'>> {
  return async (request, exchange, route, params) => {
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
  };
}
