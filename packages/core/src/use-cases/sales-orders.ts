import * as v from 'valibot';
import { type ApiAction, resourceOf } from '../domain/acl.js';
import { deadlineStatus } from '../domain/deadline.js';
import { differingPaths } from '../domain/differences.js';
import { DomainError, type ErrorParameter, fieldError } from '../domain/errors.js';
import type { ReturnRecord } from '../domain/returns/return-record.js';
import type { SalesOrderResource } from '../domain/sales-order-resource.js';
import { presentSalesOrder, type SalesOrderRecord } from '../domain/sales-order-view.js';
import type { FulfillmentOrder } from '../domain/types.js';
import type { FeedEntry, RepositoryTx } from '../ports/repository.js';
import { assertWellFormed, parseWith } from '../schemas/parse.js';
import { MAX_SALES_ORDER_BATCH } from '../schemas/sales-order.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import { pollFeedPage } from './feed-page.js';
import {
  type CheckedSalesOrder,
  checkSalesOrder,
  type TakenIn,
  takeInBatch,
} from './intake-batch.js';
import type { QueuePage } from './poll.js';
import { authorize, type Principal } from './tokens.js';

/** What a channel's intake of one sales order came to. */
export type SalesOrderIntake =
  /** Taken in now (HTTP 201), or taken in before with the same content (200). */
  | { sales_order_number: string; outcome: 'created' | 'exists'; sales_order: SalesOrderResource }
  /** Invalid, not routable (400), or the number taken in with other content (409). */
  | { sales_order_number: string | null; outcome: 'refused'; error: DomainError };

const SingleEnvelope = v.object({ sales_order: v.unknown() });
const BatchEnvelope = v.object({
  sales_orders: v.pipe(
    v.array(v.unknown()),
    v.minLength(1, 'must hold at least one sales order'),
    v.maxLength(MAX_SALES_ORDER_BATCH, `must hold at most ${MAX_SALES_ORDER_BATCH} sales orders`),
  ),
});

/**
 * A sales order belongs to the whole store: its resources need a token of the whole store
 * (docs/behaviour.md), whatever else the token grants.
 */
export function authorizeStoreWide(
  deps: Pick<EngineDeps, 'aclPrefix'>,
  principal: Principal,
  action: ApiAction,
): void {
  authorize(deps, principal, action);
  if (principal.warehouses !== null) {
    throw new DomainError(
      'forbidden',
      'The access token is limited to warehouses; %resources needs a token of the whole store.',
      [{ resources: resourceOf(action, deps.aclPrefix) }],
    );
  }
}

/** The error with every field it names moved under `prefix` (`sales_orders[3]`). */
function under(prefix: string, error: DomainError): DomainError {
  const move = (parameter: ErrorParameter): ErrorParameter =>
    parameter.fieldName === undefined
      ? parameter
      : {
          ...parameter,
          fieldName: parameter.fieldName === '(root)' ? prefix : `${prefix}.${parameter.fieldName}`,
        };
  return new DomainError(
    error.code,
    error.message,
    error.parameters.map(move),
    error.errors.map((detail) => ({ ...detail, parameters: detail.parameters.map(move) })),
  );
}

/** The 409 of a number taken in with other content: each field that differs. */
function takenInOtherwise(number: string, prefix: string, paths: readonly string[]): DomainError {
  const message = 'Sales order %fieldValue was already taken in with other content; see errors.';
  const detail = 'Field "%fieldName" differs from the sales order taken in under this number.';
  return new DomainError(
    'already_exists',
    message,
    [{ fieldName: `${prefix}.sales_order_number`, fieldValue: number }],
    paths.map((path) => ({ message: detail, parameters: [{ fieldName: path }] })),
  );
}

/** The 409 of a number the store knows without what it was taken in as. */
function takenInUnknown(number: string, prefix: string): DomainError {
  return fieldError(
    'already_exists',
    'Sales order %fieldValue was taken in before its content was kept, so it cannot be compared: it is not taken in again.',
    `${prefix}.sales_order_number`,
    number,
  );
}

/**
 * The views of sales orders, each with all its fulfillment orders and returns, read in `tx`.
 * Those `created` in `tx` (with their fulfillment orders) are not read again: they have no
 * returns yet.
 */
export async function viewsOf(
  tx: RepositoryTx,
  storeId: number,
  records: readonly SalesOrderRecord[],
  created: ReadonlyMap<string, readonly FulfillmentOrder[]> = new Map(),
): Promise<Map<string, SalesOrderResource>> {
  const missing = records
    .map((record) => record.sales_order_number)
    .filter((number) => !created.has(number));
  const orders = new Map<string, FulfillmentOrder[]>();
  for (const [number, list] of created) orders.set(number, [...list]);
  for (const order of await tx.listSalesOrderFulfillments(storeId, missing)) {
    const list = orders.get(order.sales_order_number) ?? [];
    list.push(order);
    orders.set(order.sales_order_number, list);
  }
  const returns = new Map<string, ReturnRecord[]>();
  for (const entry of await tx.listSalesOrderReturns(storeId, missing)) {
    returns.set(entry.sales_order_number, [
      ...(returns.get(entry.sales_order_number) ?? []),
      entry,
    ]);
  }
  return new Map(
    records.map((record) => [
      record.sales_order_number,
      presentSalesOrder({
        record,
        fulfillment_orders: orders.get(record.sales_order_number) ?? [],
        returns: returns.get(record.sales_order_number) ?? [],
      }),
    ]),
  );
}

/**
 * Intake by a sales channel (docs/channel-guide.md): each sales order taken in at most once by
 * number, all in one transaction. A number taken in before answers its view when the content is
 * the same, 409 naming each differing field when it is not; a refused one holds back no other.
 * Every field a refusal names is under `prefixOf(index)`.
 */
async function takeInForChannel(
  deps: EngineDeps,
  actor: Principal,
  inputs: readonly unknown[],
  prefixOf: (index: number) => string,
): Promise<SalesOrderIntake[]> {
  const checked: CheckedSalesOrder[] = inputs.map((input) => checkSalesOrder(input));
  return takeInBatch(deps, actor.store_code, checked, actor.name, async (tx, store, taken) => {
    const created = new Map<string, readonly FulfillmentOrder[]>();
    const records: SalesOrderRecord[] = [];
    for (const outcome of taken) {
      if (outcome.outcome === 'refused') continue;
      if (outcome.record) records.push(outcome.record);
      if (outcome.outcome === 'created' || outcome.orders) {
        created.set(outcome.sales_order_number, outcome.orders ?? []);
      }
    }
    const views = await viewsOf(tx, store.id, records, created);
    return taken.map((outcome, index) => answerOf(outcome, prefixOf(index), views));
  });
}

function answerOf(
  outcome: TakenIn,
  prefix: string,
  views: ReadonlyMap<string, SalesOrderResource>,
): SalesOrderIntake {
  const number = outcome.sales_order_number;
  if (outcome.outcome === 'refused') {
    return { sales_order_number: number, outcome: 'refused', error: under(prefix, outcome.error) };
  }
  const view = views.get(outcome.sales_order_number) as SalesOrderResource;
  if (outcome.outcome === 'created') {
    return {
      sales_order_number: outcome.sales_order_number,
      outcome: 'created',
      sales_order: view,
    };
  }
  const received = outcome.record?.received;
  if (!received) {
    return {
      sales_order_number: outcome.sales_order_number,
      outcome: 'refused',
      error: takenInUnknown(outcome.sales_order_number, prefix),
    };
  }
  const paths = differingPaths(received, outcome.sent, prefix);
  return paths.length === 0
    ? { sales_order_number: outcome.sales_order_number, outcome: 'exists', sales_order: view }
    : {
        sales_order_number: outcome.sales_order_number,
        outcome: 'refused',
        error: takenInOtherwise(outcome.sales_order_number, prefix, paths),
      };
}

/** POST /V1/salesOrders: one sales order (`sales_order`); a refusal is thrown. */
export async function createSalesOrder(
  deps: EngineDeps,
  actor: Principal,
  body: unknown,
): Promise<Extract<SalesOrderIntake, { sales_order: SalesOrderResource }>> {
  authorizeStoreWide(deps, actor, 'create_sales_order');
  const { sales_order } = parseWith(SingleEnvelope, body);
  const [answer] = await takeInForChannel(deps, actor, [sales_order], () => 'sales_order');
  if (!answer) throw new Error('fulfil: an intake of one answered nothing');
  if (answer.outcome === 'refused') throw answer.error;
  return answer;
}

/** POST /V1/salesOrders/batch: 1 to 100 sales orders (`sales_orders`), each answered on its own. */
export async function createSalesOrders(
  deps: EngineDeps,
  actor: Principal,
  body: unknown,
): Promise<SalesOrderIntake[]> {
  authorizeStoreWide(deps, actor, 'create_sales_order');
  return takeInForChannel(deps, actor, batchEntries(body), (index) => `sales_orders[${index}]`);
}

/**
 * The entries of a batch, the envelope checked without them: each entry is checked on its own,
 * so that one holding a lone surrogate is refused alone, like any other bad entry.
 */
function batchEntries(body: unknown): unknown[] {
  const envelope =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
  const entries = envelope?.sales_orders;
  if (!Array.isArray(entries)) return parseWith(BatchEnvelope, body).sales_orders;
  parseWith(BatchEnvelope, { ...envelope, sales_orders: entries.map(() => null) });
  return entries;
}

/** GET /V1/salesOrders/{sales_order_number}: the Sales order view. */
export async function getSalesOrder(
  deps: EngineDeps,
  actor: Principal,
  number: string,
): Promise<SalesOrderResource> {
  authorizeStoreWide(deps, actor, 'read_sales_orders');
  assertWellFormed({ sales_order_number: number });
  return deps.repository.transaction(async (tx) => {
    const storeId = actor.store_id ?? (await requireStore(tx, actor.store_code)).id;
    const [record] = await tx.findSalesOrders(storeId, [number]);
    if (!record) {
      throw fieldError(
        'not_found',
        'Sales order %fieldValue does not exist.',
        'sales_order_number',
        number,
      );
    }
    const view = (await viewsOf(tx, storeId, [record])).get(number) as SalesOrderResource;
    const store = await tx.findStoreById(storeId);
    const at = now(deps);
    const orders = await tx.listSalesOrderFulfillments(storeId, [number]);
    const deadlines = orders.flatMap((order) => {
      const status = deadlineStatus(order, at, store?.settings.at_risk_hours);
      return order.fulfill_by && status
        ? [
            {
              fulfillment_order_number: order.fulfillment_order_number,
              warehouse_code: order.warehouse_code,
              fulfill_by: order.fulfill_by,
              status,
            },
          ]
        : [];
    });
    return { ...view, deadlines };
  }, 'read');
}

/** The views of a page of the sales_orders feed, as JSON text, in the page's order. */
async function presentFeedPage(
  tx: RepositoryTx,
  storeId: number,
  entries: readonly FeedEntry[],
): Promise<(string | null)[]> {
  // Another store's record under an entry's id (an entry of a merged dump) is not this one's.
  const records = (await tx.salesOrdersById(entries.map((entry) => entry.entry_id))).filter(
    (record) => record.store_id === storeId,
  );
  const byId = new Map(records.map((record) => [record.id, record]));
  const views = await viewsOf(tx, storeId, records);
  return entries.map((entry) => {
    const record = byId.get(entry.entry_id);
    const view = record && views.get(record.sales_order_number);
    return view ? JSON.stringify(view) : null;
  });
}

/**
 * GET /V1/salesOrders: the store's sales orders as their views, paged by id (`page`, `date`,
 * `after`) or followed by change (`since`, docs/polling.md): a sales order comes again whenever
 * what its view shows changes.
 */
export async function pollSalesOrders(
  deps: EngineDeps,
  actor: Principal,
  query: unknown = {},
): Promise<QueuePage> {
  authorizeStoreWide(deps, actor, 'read_sales_orders');
  return pollFeedPage(deps, actor, 'sales_orders', query, presentFeedPage);
}
