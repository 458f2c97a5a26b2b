import { ADMIN_ROUTES, type AdminRoute } from './admin-handler.js';
import { ICON_ASSET } from './docs-assets.js';
import { HOME_PATH } from './home-page.js';
import { HEALTH_PATH, READY_PATH } from './probes.js';
import { METRICS_PATH } from './prometheus.js';
import { createRouter, type RouteMatch, type Router } from './router.js';
import {
  DOCS_PATH,
  OPERATIONS,
  type Operation,
  routePattern,
  SCHEMA_PATH,
  STORE_PREFIX,
} from './routes.js';

/** Which routes the server answers, as data: the router the request handler matches with. */

export type Route =
  | { kind: 'operation'; operation: Operation }
  | { kind: 'schema' }
  | { kind: 'docs' }
  /** An image of the docs page; `name` fixed, or the path's `asset`. */
  | { kind: 'asset'; name?: string }
  | { kind: 'health' }
  | { kind: 'ready' }
  | { kind: 'metrics' }
  | { kind: 'home' }
  | AdminRoute;

/**
 * Every route: the operations of the route table under `/rest/:store_code`, the OpenAPI document
 * and the reference page with its images, the probes, and the metrics and the admin API's routes
 * when they are on.
 */
export function routeTable(on: { metrics: boolean; admin: boolean }): Router<Route> {
  const router = createRouter<Route>();
  for (const operation of OPERATIONS) {
    router.add(operation.method, `${STORE_PREFIX}${routePattern(operation.path)}`, {
      kind: 'operation',
      operation,
    });
  }
  router.add('GET', `${STORE_PREFIX}${SCHEMA_PATH}`, { kind: 'schema' });
  // The API reference page, public like the document it renders: the default store's at /docs.
  router.add('GET', DOCS_PATH, { kind: 'docs' });
  router.add('GET', `${STORE_PREFIX}${DOCS_PATH}`, { kind: 'docs' });
  // Relative to either page, its images are at `docs/<name>`.
  router.add('GET', `${DOCS_PATH}/:asset`, { kind: 'asset' });
  router.add('GET', `${STORE_PREFIX}${DOCS_PATH}/:asset`, { kind: 'asset' });
  router.add('GET', '/favicon.ico', { kind: 'asset', name: ICON_ASSET });
  router.add('GET', HOME_PATH, { kind: 'home' });
  router.add('GET', HEALTH_PATH, { kind: 'health' });
  router.add('GET', READY_PATH, { kind: 'ready' });
  if (on.metrics) router.add('GET', METRICS_PATH, { kind: 'metrics' });
  if (on.admin) {
    for (const { method, pattern, route } of ADMIN_ROUTES) router.add(method, pattern, route);
  }
  return router;
}

/** A bounded set of names: a route's operation, or `unmatched`. */
export function operationOf(match: RouteMatch<Route>): string {
  if (match.kind !== 'found') return 'unmatched';
  const route = match.handler;
  if (route.kind === 'admin') return `admin_${route.operation.operationId}`;
  return route.kind === 'operation' ? route.operation.operationId : route.kind;
}
