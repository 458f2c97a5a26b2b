import type * as v from 'valibot';
import { type Intervention, interventionsFor } from '../domain/actions/interventions.js';
import { type DeadlineStatus, deadlineClockOf, deadlineStatus } from '../domain/deadline.js';
import { fieldError } from '../domain/errors.js';
import { fromMoney } from '../domain/money.js';
import type { RoutingExplanation } from '../domain/routing/record.js';
import type { OrderFailure, OrderStatus, QueueName } from '../domain/types.js';
import type { OrderFilter, OrderSummary } from '../ports/admin-repository.js';
import type { RepositoryTx } from '../ports/repository.js';
import { OrderSearchInput } from '../schemas/admin.js';
import { parseWith } from '../schemas/parse.js';
import { requireRole } from './admin-access.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import type { OperatorPrincipal } from './operator-accounts.js';
import { historyOf, type OrderHistory, requireOrder } from './orders.js';

/** The order search and the order detail of the admin API (docs/admin-api.md). */

/** The search counts its matches no further than this; past it the count says "capped". */
export const COUNT_CAP = 10_000;

export interface OrderListEntry {
  fulfillment_order_number: string;
  sales_order_number: string;
  status: OrderStatus;
  /** The first queue that lists the order, null when it left them all. */
  queue: QueueName | null;
  warehouse_code: string;
  customer_name: string;
  customer_email: string;
  grand_total: number | null;
  failure: Omit<OrderFailure, 'failed_at'> | null;
  created_at: string;
  updated_at: string;
  /** When it must leave its warehouse (docs/deadlines.md), and how it stands; null: none. */
  fulfill_by: string | null;
  deadline_status: DeadlineStatus | null;
}

export interface OrderList {
  orders: OrderListEntry[];
  next: string | null;
  total: { count: number; capped: boolean };
}

const FIRST_QUEUE: Partial<Record<OrderStatus, QueueName>> = {
  pending_accept: 'pending_accept',
  partially_accepted: 'pending_accept',
  pending_allocation: 'pending_allocation',
  partially_allocated: 'pending_allocation',
  pending_shipment: 'pending_shipment',
  partially_shipped: 'pending_shipment',
  pending_invoice: 'pending_invoice',
  partially_invoiced: 'pending_invoice',
  failed: 'failed',
};

function listEntry(
  summary: OrderSummary,
  at: string,
  settings: { at_risk_hours?: number },
): OrderListEntry {
  return {
    fulfillment_order_number: summary.fulfillment_order_number,
    sales_order_number: summary.sales_order_number,
    status: summary.status,
    queue: FIRST_QUEUE[summary.status] ?? null,
    warehouse_code: summary.warehouse_code,
    customer_name: `${summary.customer_firstname} ${summary.customer_lastname}`.trim(),
    customer_email: summary.customer_email,
    grand_total: summary.grand_total === null ? null : fromMoney(summary.grand_total),
    failure: summary.failure && {
      stage: summary.failure.stage,
      reason: summary.failure.reason,
      abandoned: summary.failure.abandoned,
    },
    created_at: summary.created_at,
    updated_at: summary.updated_at,
    fulfill_by: summary.fulfill_by,
    deadline_status: deadlineStatus(summary, at, settings.at_risk_hours),
  };
}

/** The keyset cursor: the id of the last order of the page, as text. */
function decodeCursor(after: string | undefined): number | undefined {
  if (after === undefined) return undefined;
  if (!/^[1-9][0-9]{0,15}$/.test(after)) {
    throw fieldError(
      'invalid_request',
      'The cursor %fieldValue is not one this API gave.',
      'after',
      after,
    );
  }
  return Number(after);
}

/**
 * The cursor of a search by deadline: the last order's `fulfill_by` (empty: none) and id, as
 * `<fulfill_by>~<id>`.
 */
function decodeDeadlineCursor(after: string | undefined) {
  if (after === undefined) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})?~([1-9][0-9]{0,15})$/.exec(after);
  if (match === null) {
    throw fieldError(
      'invalid_request',
      'The cursor %fieldValue is not one this API gave.',
      'after',
      after,
    );
  }
  return { fulfill_by: match[1] ?? null, id: Number(match[2]) };
}

/** Splits the parsed search into the filter and the page. */
export function filterOf(input: v.InferOutput<typeof OrderSearchInput>): OrderFilter {
  const { after: _after, limit: _limit, sort: _sort, ...filter } = input;
  return Object.fromEntries(
    Object.entries(filter).filter(([, value]) => value !== undefined && value !== ''),
  ) as OrderFilter;
}

export async function searchOrders(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  query: unknown,
): Promise<OrderList> {
  requireRole(operator, 'viewer', storeCode);
  const input = parseWith(OrderSearchInput, query);
  const byDeadline = input.sort === 'fulfill_by';
  const beforeId = byDeadline ? undefined : decodeCursor(input.after);
  const afterDeadline = byDeadline ? decodeDeadlineCursor(input.after) : undefined;
  const at = now(deps);
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    // A deadline status is read at this moment, with the store's at_risk_hours.
    const filter: OrderFilter = {
      ...filterOf(input),
      ...(input.deadline ? { deadline_clock: deadlineClockOf(store.settings, at) } : {}),
    };
    const page = await tx.searchOrders({
      ...filter,
      store_id: store.id,
      limit: input.limit + 1,
      ...(beforeId === undefined ? {} : { before_id: beforeId }),
      ...(byDeadline ? { sort: 'fulfill_by' as const } : {}),
      ...(afterDeadline === undefined ? {} : { after_deadline: afterDeadline }),
    });
    const more = page.length > input.limit;
    const shown = more ? page.slice(0, input.limit) : page;
    const count = await tx.countOrders(store.id, filter, COUNT_CAP + 1);
    const last = shown[shown.length - 1] as OrderSummary;
    return {
      orders: shown.map((summary) => listEntry(summary, at, store.settings)),
      next: !more ? null : byDeadline ? `${last.fulfill_by ?? ''}~${last.id}` : String(last.id),
      total: { count: Math.min(count, COUNT_CAP), capped: count > COUNT_CAP },
    };
  }, 'read');
}

/** Every order the filter selects, up to `cap + 1` of them: numbers only, newest first. */
export async function resolveFilter(
  tx: RepositoryTx,
  storeId: number,
  filter: OrderFilter,
  cap: number,
): Promise<string[]> {
  const rows = await tx.searchOrders({ ...filter, store_id: storeId, limit: cap + 1 });
  return rows.map((row) => row.fulfillment_order_number);
}

export interface TimelineEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  reason: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}

export type OrderDetail = Omit<OrderHistory, 'audit'> & {
  timeline: TimelineEntry[];
  /**
   * Why the order's lines are at its warehouse (docs/routing.md): the explanation its intake or
   * reroute recorded on the timeline; null for an order routed before explanations were kept,
   * or opened by an operator's move of lines.
   */
  routing: RoutingExplanation | null;
  /** When it must leave its warehouse and how it stands now (docs/deadlines.md). */
  deadline: { fulfill_by: string | null; status: DeadlineStatus | null };
  /** The interventions that apply to the order as it stands: what the console offers. */
  actions: Intervention[];
};

/** One order with everything about it, its whole timeline first-class. */
export async function orderDetail(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  number: string,
): Promise<OrderDetail> {
  requireRole(operator, 'viewer', storeCode);
  const at = now(deps);
  const { history, actions, deadline } = await deps.repository.transaction(async (tx) => {
    const order = await requireOrder(tx, storeCode, number);
    const store = await requireStore(tx, storeCode);
    return {
      history: historyOf(order, await tx.listAudit(order.id)),
      actions: interventionsFor(order, at),
      deadline: {
        fulfill_by: order.fulfill_by ?? null,
        status: deadlineStatus(order, at, store.settings.at_risk_hours),
      },
    };
  }, 'read');
  const { audit, ...rest } = history;
  const routed = [...audit]
    .reverse()
    .find(
      (event) => (event.action === 'intake' || event.action === 'reroute') && event.details.routing,
    );
  return {
    ...rest,
    deadline,
    actions,
    routing: (routed?.details.routing as RoutingExplanation | undefined) ?? null,
    timeline: audit.map((event) => ({
      id: event.id,
      at: event.at,
      actor: event.actor,
      action: event.action,
      reason: event.reason ?? null,
      request_id: event.request_id ?? null,
      details: event.details,
    })),
  };
}
