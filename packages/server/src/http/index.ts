export {
  ADMIN_ROUTES,
  type AdminOptions,
  createAdminServer,
  requestIdOf,
  SESSION_COOKIE,
} from './admin-handler.js';
export { ADMIN_OPERATIONS, ADMIN_PREFIX, type AdminOperation } from './admin-routes.js';
export {
  type AuthThrottle,
  type AuthThrottleOptions,
  createAuthThrottle,
} from './auth-throttle.js';
export { stdoutLog } from './batched-lines.js';
export { type CourierLoopOptions, startCourierLoop } from './courier-loop.js';
export {
  describeError,
  type ErrorBody,
  type ErrorEntry,
  type ErrorOutcome,
  HTTP_STATUS_OF_ERROR,
  HttpError,
} from './errors.js';
export {
  createRequestHandler,
  DEFAULT_BODY_LIMIT,
  type RequestHandler,
  type RequestHandlerOptions,
} from './handler.js';
export {
  createLoginThrottle,
  type LoginThrottle,
  type LoginThrottleOptions,
} from './login-throttle.js';
export { DEFAULT_LONG_POLL_LIMITS, type LongPollLimits } from './long-poll.js';
export { type Format, negotiate, type Produced } from './media.js';
export { createMetrics, type Metrics } from './metrics.js';
export { type HttpServerOptions, type RunningHttpServer, startHttpServer } from './node-adapter.js';
export { buildAdminOpenApiDocument } from './openapi/admin-document.js';
export {
  buildOpenApiDocument,
  type OpenApiDocument,
  type OpenApiOptions,
} from './openapi/document.js';
export * from './openapi/resources.js';
export { METRICS_PATH } from './prometheus.js';
export {
  DEFAULT_RESPONSE_CACHE_LIMITS,
  ResponseCache,
  type ResponseCacheLimits,
} from './response-cache.js';
export { createRouter, type RouteMatch, type Router } from './router.js';
export { OPERATIONS, type Operation } from './routes.js';
export { coerceBySchema } from './schema-coerce.js';
export { type SessionSweepOptions, startSessionSweep } from './session-sweep.js';
export type { HttpEngine, HttpHeaders, HttpRequest, HttpResponse, LogFn } from './types.js';
export { encodeXmlResponse, parseXmlRequest } from './xml.js';
