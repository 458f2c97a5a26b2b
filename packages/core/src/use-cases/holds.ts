import { activeHolds, placeHold, releaseHold, whyNotHoldable } from '../domain/actions/holds.js';
import { unchanged } from '../domain/actions/outcome.js';
import { fieldError } from '../domain/errors.js';
import type { SalesOrderResource } from '../domain/sales-order-resource.js';
import type { Actor } from '../domain/types.js';
import {
  HoldFields,
  HoldRequest,
  type ParsedHold,
  type ParsedRelease,
  ReleaseFields,
  ReleaseRequest,
} from '../schemas/cancellation.js';
import { assertWellFormed, parseWith } from '../schemas/parse.js';
import type { EngineDeps } from './deps.js';
import { actOnSalesOrder, type Decided } from './sales-order-actions.js';
import { authorizeStoreWide } from './sales-orders.js';
import type { Principal } from './tokens.js';

/** A fulfillment order a hold did not apply to, and why (its status, or `failed`). */
export interface NotHeld {
  fulfillment_order_number: string;
  why: string;
}

/** What placing a hold answers: where it applies, where not and why, and the sales order. */
export interface HoldAnswer {
  handle: string;
  held: string[];
  not_held: NotHeld[];
  sales_order: SalesOrderResource;
}

/**
 * Places a hold on every fulfillment order of the sales order that can still be held
 * (docs/channel-guide.md), all in one transaction: each leaves its queues until the hold's
 * release. A handle the sales order knows already changes nothing; a sales order none of whose
 * fulfillment orders can be held is 400, naming why.
 */
export async function holdAs(
  deps: EngineDeps,
  actor: Actor,
  hold: ParsedHold,
): Promise<HoldAnswer> {
  const input = { handle: hold.handle, reason: hold.reason, note: hold.note ?? null };
  const held: string[] = [];
  const notHeld: NotHeld[] = [];
  return actOnSalesOrder(
    deps,
    actor,
    hold.sales_order_number,
    'hold.sales_order_number',
    ({ orders, now }) => {
      const known = orders.some((order) => order.holds.some((h) => h.handle === hold.handle));
      const decided: Decided[] = [];
      for (const order of orders) {
        const number = order.fulfillment_order_number;
        if (known) {
          if (activeHolds(order).some((h) => h.handle === hold.handle)) held.push(number);
          continue;
        }
        const why = whyNotHoldable(order);
        if (why !== null) {
          notHeld.push({ fulfillment_order_number: number, why });
          continue;
        }
        held.push(number);
        decided.push({ order, outcome: placeHold(order, input, actor.name, now), action: 'hold' });
      }
      if (!known && held.length === 0) {
        const whys = notHeld.map((n) => `${n.fulfillment_order_number} is ${n.why}`).join(', ');
        throw fieldError(
          'wrong_stage',
          `Sales order %fieldValue has no fulfillment order that can still be held (${whys || 'none'}): only one no line of which is allocated yet can be.`,
          'hold.sales_order_number',
          hold.sales_order_number,
        );
      }
      return decided;
    },
    (view) => ({ handle: hold.handle, held, not_held: notHeld, sales_order: view }),
  );
}

/**
 * Releases the hold of a handle on every fulfillment order it holds, in one transaction; each
 * one left with no hold is back in its queues, as a change `since` pollers see. A handle released
 * before changes nothing; one the sales order never had is 404.
 */
export async function releaseAs(
  deps: EngineDeps,
  actor: Actor,
  release: ParsedRelease,
): Promise<SalesOrderResource> {
  return actOnSalesOrder(
    deps,
    actor,
    release.sales_order_number,
    'release.sales_order_number',
    ({ orders, now }) => {
      if (!orders.some((order) => order.holds.some((h) => h.handle === release.handle))) {
        throw fieldError(
          'not_found',
          `Sales order ${release.sales_order_number} has no hold %fieldValue.`,
          'release.handle',
          release.handle,
        );
      }
      return orders.map((order) => ({
        order,
        outcome: order.holds.some((h) => h.handle === release.handle)
          ? releaseHold(order, release.handle, actor.name, now)
          : unchanged(order),
        action: 'release',
      }));
    },
    (view) => view,
  );
}

/** An operator's hold on the sales order `number` (admin API, library): `HoldFields` as body. */
export async function holdByNumber(deps: EngineDeps, actor: Actor, number: string, body: unknown) {
  assertWellFormed({ sales_order_number: number });
  return holdAs(deps, actor, { ...parseWith(HoldFields, body), sales_order_number: number });
}

/** An operator's release of a hold of the sales order `number`: `ReleaseFields` as body. */
export async function releaseByNumber(
  deps: EngineDeps,
  actor: Actor,
  number: string,
  body: unknown,
) {
  assertWellFormed({ sales_order_number: number });
  return releaseAs(deps, actor, { ...parseWith(ReleaseFields, body), sales_order_number: number });
}

/** POST /V1/salesOrder/hold */
export async function holdSalesOrder(deps: EngineDeps, actor: Principal, body: unknown) {
  authorizeStoreWide(deps, actor, 'hold_sales_order');
  return holdAs(deps, actor, parseWith(HoldRequest, body).hold);
}

/** POST /V1/salesOrder/release */
export async function releaseSalesOrder(deps: EngineDeps, actor: Principal, body: unknown) {
  authorizeStoreWide(deps, actor, 'hold_sales_order');
  return releaseAs(deps, actor, parseWith(ReleaseRequest, body).release);
}
