import type { CourierPolicy } from '../domain/actions/courier.js';
import type { CarrierAccounts } from '../domain/carrier-accounts.js';
import { DomainError, fieldError } from '../domain/errors.js';
import type { RoutingDecision } from '../domain/routing/explanation.js';
import type { RoutingSnapshot } from '../domain/routing/snapshot.js';
import type { Router } from '../domain/routing.js';
import { formatTimestamp, type Timestamp } from '../domain/timestamp.js';
import type { Actor, FulfillmentOrder, Store } from '../domain/types.js';
import type { Clock } from '../ports/clock.js';
import type { CourierCallEvent, CourierFactory } from '../ports/courier.js';
import type { Locate } from '../ports/locate.js';
import type { Repository, RepositoryTx } from '../ports/repository.js';
import type { CourierRateLimiter } from './courier-rate-limit.js';
import type { DocumentCache } from './document-cache.js';
import type { TokenUseTracker } from './token-use.js';

/** Everything a use case may touch: the ports, and the engine's configuration. */
export interface EngineDeps {
  repository: Repository;
  clock: Clock;
  /** A custom router (docs/routing.md); null: the store's routing rules decide. */
  router: Router | null;
  /** The rules engine (`decideRouting`, traced when tracing is on). */
  decide: (snapshot: RoutingSnapshot) => RoutingDecision;
  /** Where a shipping address is, for the `distance` rule; null: only its own coordinates. */
  locate: Locate | null;
  couriers: Readonly<Record<string, CourierFactory>>;
  /** The installation's carrier accounts: the only places a courier's calls go. */
  carrierAccounts: CarrierAccounts;
  aclPrefix: string;
  courierPolicy: Omit<CourierPolicy, 'max_attempts'>;
  /** One token bucket per carrier account (docs/couriers.md). */
  rateLimiter: CourierRateLimiter;
  /** Told of every carrier call, for metrics. */
  onCourierCall?: (event: CourierCallEvent) => void;
  /** Records tokens' last use, when the engine was asked to (token-use.ts). */
  tokenUse?: TokenUseTracker;
  /** The queue documents polls have read, by the change that wrote them (document-cache.ts). */
  documentCache?: DocumentCache;
  /** How long an operator's session lasts after its login; default `SESSION_HOURS`. */
  sessionHours?: number;
  /** False: no span and no diagnostics_channel message (tracing/); on when absent. */
  tracing?: boolean;
}

export function now(deps: EngineDeps): Timestamp {
  return formatTimestamp(deps.clock.now());
}

export async function requireStore(tx: RepositoryTx, code: string): Promise<Store> {
  const store = await tx.findStore(code);
  if (!store)
    throw new DomainError('not_found', 'Store %fieldValue does not exist.', [
      { fieldName: 'store_code', fieldValue: code },
    ]);
  return store;
}

/** Whether the actor's warehouse scope covers the order (docs/behaviour.md). */
export function canSee(actor: Actor, order: Pick<FulfillmentOrder, 'warehouse_code'>): boolean {
  return actor.warehouses === null || actor.warehouses.includes(order.warehouse_code);
}

/** An order out of the actor's scope looks exactly like one that does not exist. */
export function orderNotFound(number: string, field = 'order_id'): DomainError {
  return fieldError('not_found', 'Fulfillment order %fieldValue does not exist.', field, number);
}

/** The actor of operator work done through the library or the CLI: the whole store. */
export function operatorActor(storeCode: string, name = 'operator'): Actor {
  return { store_code: storeCode, name, warehouses: null };
}
