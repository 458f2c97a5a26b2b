import { attentionCutoff, attentionHours } from '../domain/attention.js';
import type { Timestamp } from '../domain/timestamp.js';
import type { Store } from '../domain/types.js';
import {
  type AgeBucket,
  countByAge,
  type OpenCancellationRequest,
  type OpenHold,
  openCancellationRequests,
  openHolds,
} from '../domain/waiting.js';
import type { RepositoryTx } from '../ports/repository.js';
import { CancellationRequestListInput, HoldListInput } from '../schemas/admin.js';
import { parseWith } from '../schemas/parse.js';
import { requireRole } from './admin-access.js';
import { COUNT_CAP } from './admin-orders.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';

/**
 * The open holds and the unanswered cancellation requests of a store (docs/admin-api.md): as
 * lists, as the dashboard's counts, and as the metrics' counts by age.
 */

/** How many rows the list has: past `COUNT_CAP` orders read, `capped`. */
export interface ListTotal {
  count: number;
  capped: boolean;
}

export interface HoldList {
  holds: OpenHold[];
  total: ListTotal;
  /** The `offset` of the next page, null on the last. */
  next_offset: number | null;
}

/** How long the store lets a request go unanswered, and the requests made before `since`. */
export interface RequestThreshold {
  after_hours: number;
  since: Timestamp;
}

export interface CancellationRequestList {
  requests: (OpenCancellationRequest & { overdue: boolean })[];
  total: ListTotal;
  next_offset: number | null;
  /** Null when the store turned its threshold off. */
  attention: RequestThreshold | null;
}

/** The dashboard's counts of a store's holds and requests. */
export interface WaitingSummary {
  holds: { open: number; orders: number; oldest_at: Timestamp | null };
  cancellation_requests: {
    open: number;
    oldest_at: Timestamp | null;
    attention: (RequestThreshold & { requests: number }) | null;
  };
}

async function readHolds(tx: RepositoryTx, store: Store) {
  const orders = await tx.heldOrders(store.id, COUNT_CAP + 1);
  return { holds: openHolds(orders.slice(0, COUNT_CAP)), capped: orders.length > COUNT_CAP };
}

async function readRequests(tx: RepositoryTx, store: Store) {
  const orders = await tx.ordersAwaitingCancellation(store.id, COUNT_CAP + 1);
  const requests = openCancellationRequests(orders.slice(0, COUNT_CAP));
  return { requests, capped: orders.length > COUNT_CAP };
}

/** The store's threshold for unanswered requests at `at`, or null when it turned it off. */
function requestThreshold(store: Store, at: Timestamp): RequestThreshold | null {
  const hours = attentionHours(store.settings).pending_cancellation;
  return hours === null ? null : { after_hours: hours, since: attentionCutoff(at, hours) };
}

const isOverdue = (threshold: RequestThreshold | null, requestedAt: Timestamp) =>
  threshold !== null && requestedAt < threshold.since;

function page<T>(rows: readonly T[], offset: number, limit: number) {
  const end = offset + limit;
  return { rows: rows.slice(offset, end), next_offset: end < rows.length ? end : null };
}

/** `GET /stores/:store/holds`: a page of the open holds, oldest placed first. */
export async function listHolds(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  query: unknown = {},
): Promise<HoldList> {
  requireRole(operator, 'viewer', storeCode);
  const { limit, offset } = parseWith(HoldListInput, query ?? {});
  return deps.repository.transaction(async (tx) => {
    const { holds, capped } = await readHolds(tx, await requireStore(tx, storeCode));
    const { rows, next_offset } = page(holds, offset, limit);
    return { holds: rows, total: { count: holds.length, capped }, next_offset };
  }, 'read');
}

/**
 * `GET /stores/:store/cancellation-requests`: a page of the open requests, oldest first, each
 * marked `overdue` once unanswered past the store's time; `overdue=true` keeps only those.
 */
export async function listCancellationRequests(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  query: unknown = {},
): Promise<CancellationRequestList> {
  requireRole(operator, 'viewer', storeCode);
  const { limit, offset, overdue } = parseWith(CancellationRequestListInput, query ?? {});
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const threshold = requestThreshold(store, now(deps));
    const { requests, capped } = await readRequests(tx, store);
    const marked = requests
      .map((request) => ({ ...request, overdue: isOverdue(threshold, request.requested_at) }))
      .filter((request) => overdue === undefined || request.overdue === (overdue === 'true'));
    const { rows, next_offset } = page(marked, offset, limit);
    return {
      requests: rows,
      total: { count: marked.length, capped },
      next_offset,
      attention: threshold,
    };
  }, 'read');
}

/** The dashboard's counts of the store's open holds and requests, at `at`. */
export async function waitingSummary(
  tx: RepositoryTx,
  store: Store,
  at: Timestamp,
): Promise<WaitingSummary> {
  const held = await readHolds(tx, store);
  const { requests } = await readRequests(tx, store);
  const threshold = requestThreshold(store, at);
  const overdue = requests.filter((request) => isOverdue(threshold, request.requested_at));
  return {
    holds: {
      open: held.holds.length,
      orders: new Set(held.holds.map((hold) => hold.fulfillment_order_number)).size,
      oldest_at: held.holds[0]?.placed_at ?? null,
    },
    cancellation_requests: {
      open: requests.length,
      oldest_at: requests[0]?.requested_at ?? null,
      attention: threshold && { ...threshold, requests: overdue.length },
    },
  };
}

/** How many open holds and requests of one store have waited how long (the metrics). */
export interface WaitingByAge {
  store_code: string;
  holds: Record<AgeBucket, number>;
  cancellation_requests: Record<AgeBucket, number>;
}

/** Every store's open holds and requests by age at now, zeros included; by store code. */
export function waitingByAge(deps: EngineDeps): Promise<WaitingByAge[]> {
  return deps.repository.transaction(async (tx) => {
    const at = now(deps);
    const out: WaitingByAge[] = [];
    for (const store of await tx.listStores()) {
      const { holds } = await readHolds(tx, store);
      const { requests } = await readRequests(tx, store);
      out.push({
        store_code: store.code,
        holds: countByAge(
          holds.map((hold) => hold.placed_at),
          at,
        ),
        cancellation_requests: countByAge(
          requests.map((request) => request.requested_at),
          at,
        ),
      });
    }
    return out;
  }, 'read');
}
