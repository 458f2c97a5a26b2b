import type { RoutingDecision } from '../domain/routing/explanation.js';
import type { RoutingSnapshot } from '../domain/routing/snapshot.js';
import type { Router } from '../domain/routing.js';
import { Probe } from './probe.js';

/** What the `fulfil:route` channel tells of a routing decision (and its span's attributes). */
export interface RouteMessage {
  /** Lines of the sales order routed. */
  lines: number;
  /** The warehouse the sales order pinned, if any. */
  pinned?: string;
}

export const routeProbe = new Probe<RouteMessage>({
  channel: 'fulfil:route',
  scope: '@fulfil/core',
  kind: 'internal',
  spanName: () => 'fulfil route',
  attributes: (message) => ({
    'fulfil.route.lines': message.lines,
    'fulfil.route.pinned': message.pinned,
  }),
});

/**
 * `router` with each decision in a span of the `fulfil:route` probe: the lines it was given, and
 * how many fulfillment orders it made and for which warehouses. Custom routers are traced alike.
 */
export function traceRouting(router: Router): Router {
  return (order, context) =>
    !routeProbe.enabled
      ? router(order, context)
      : routeProbe.traceSync(
          () => ({
            lines: order.items.length,
            ...(order.warehouse_code ? { pinned: order.warehouse_code } : {}),
          }),
          () => router(order, context),
          {
            result: (routes) => ({
              'fulfil.order_count': routes.length,
              'fulfil.route.warehouses': [...new Set(routes.map((route) => route.warehouse_code))],
            }),
          },
        );
}

/** `decide` (the rules engine) in a span of the `fulfil:route` probe, as a custom router is. */
export function traceDecisions(
  decide: (snapshot: RoutingSnapshot) => RoutingDecision,
): (snapshot: RoutingSnapshot) => RoutingDecision {
  return (snapshot) =>
    !routeProbe.enabled
      ? decide(snapshot)
      : routeProbe.traceSync(
          () => ({
            lines: snapshot.lines.length,
            ...(snapshot.pinned ? { pinned: snapshot.pinned } : {}),
          }),
          () => decide(snapshot),
          {
            result: (decision) => ({
              'fulfil.order_count': decision.assignments.length,
              'fulfil.route.warehouses': decision.assignments.map(
                (assignment) => assignment.warehouse_code,
              ),
            }),
          },
        );
}
