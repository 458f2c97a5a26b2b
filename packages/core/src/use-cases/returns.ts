import type { ApiAction } from '../domain/acl.js';
import { differingPaths } from '../domain/differences.js';
import { DomainError, fieldError } from '../domain/errors.js';
import type { FeedName } from '../domain/feeds.js';
import { PAGE_SIZE } from '../domain/paging.js';
import { cancelReturn } from '../domain/returns/cancel-return.js';
import { creditReturn } from '../domain/returns/credit-return.js';
import { openReturn, type ParsedReturn, requestOf } from '../domain/returns/open-return.js';
import { receiveReturn } from '../domain/returns/receive-return.js';
import type { ReturnOutcome } from '../domain/returns/return-outcome.js';
import type { ReturnRecord } from '../domain/returns/return-record.js';
import type { ReturnResource } from '../domain/returns/return-resource.js';
import { type ReturnQueue, returnQueues } from '../domain/returns/return-status.js';
import { presentReturn } from '../domain/returns/return-view.js';
import type { Timestamp } from '../domain/timestamp.js';
import type { Actor, FulfillmentOrder } from '../domain/types.js';
import type { FeedEntry, RepositoryTx } from '../ports/repository.js';
import { ReasonInput } from '../schemas/admin.js';
import { assertWellFormed, parseWith } from '../schemas/parse.js';
import {
  CreditRequest,
  ReceiptRequest,
  ReturnInput,
  ReturnListInput,
  ReturnRequest,
} from '../schemas/returns.js';
import { operatorActorOf, requireRole } from './admin-access.js';
import { type EngineDeps, now, requireStore } from './deps.js';
import { pollFeedPage } from './feed-page.js';
import type { OperatorPrincipal } from './operator-accounts.js';
import type { QueuePage } from './poll.js';
import { authorizeStoreWide } from './sales-orders.js';
import { authorize, type Principal } from './tokens.js';

/**
 * Returns (docs/channel-guide.md, Returns): opened by a channel or an operator for shipped lines,
 * received by the partner of the receiving warehouse, credited by the ERP. Each action is one
 * transaction that locks the sales order's returns first, writes the return, its queues (the
 * `returns_*` feeds), the stock it puts back and the timeline of the fulfillment orders it
 * takes lines of, and moves the sales order in its feed.
 */

/** What opening a return came to: created now (201), or the same return asked for again (200). */
export interface OpenedReturn {
  outcome: 'created' | 'exists';
  return: ReturnResource;
}

const QUEUE_FEEDS: Record<ReturnQueue, FeedName> = {
  pending_receipt: 'returns_pending_receipt',
  pending_credit: 'returns_pending_credit',
};

const QUEUE_ACTIONS: Record<ReturnQueue, ApiAction> = {
  pending_receipt: 'returns_pending_receipt',
  pending_credit: 'returns_pending_credit',
};

function returnNotFound(rma: string, field: string): DomainError {
  return fieldError('not_found', 'Return %fieldValue does not exist.', field, rma);
}

/** Whether the actor's warehouse scope covers the return's receiving warehouse. */
function canSeeReturn(actor: Actor, record: ReturnRecord): boolean {
  return actor.warehouses === null || actor.warehouses.includes(record.warehouse_code);
}

/** Lists the return in the queues it now has work in, and in no other; moves its sales order. */
async function writeQueues(tx: RepositoryTx, record: ReturnRecord): Promise<void> {
  const queues = returnQueues(record);
  for (const [queue, feed] of Object.entries(QUEUE_FEEDS) as [ReturnQueue, FeedName][]) {
    if (queues.includes(queue)) {
      await tx.writeFeedEntries(feed, [
        {
          entry_id: record.id,
          store_id: record.store_id,
          warehouse_code: record.warehouse_code,
          updated_at: record.updated_at,
        },
      ]);
    } else {
      await tx.removeFeedEntries(feed, [record.id]);
    }
  }
  await tx.touchSalesOrders(record.store_id, [record.sales_order_number], record.updated_at);
}

/** One timeline entry on each fulfillment order the return takes lines of. */
async function recordOnTimelines(
  tx: RepositoryTx,
  actor: Actor,
  record: ReturnRecord,
  action: string,
  details: Record<string, unknown>,
  at: Timestamp,
): Promise<void> {
  const numbers = new Set(record.items.map((line) => line.fulfillment_order_number));
  // Read without a lock: the return's lock is what this action holds (see `open` for the order).
  const orders = await tx.listSalesOrderFulfillments(record.store_id, [record.sales_order_number]);
  await tx.appendAudit(
    orders
      .filter((order) => numbers.has(order.fulfillment_order_number))
      .map(({ id: order_id }) => ({
        order_id,
        at,
        actor: actor.name,
        action,
        details,
        request_id: actor.request_id ?? null,
        reason: actor.reason ?? null,
      })),
  );
}

/** Writes what an action on a return decided, all in the caller's transaction. */
async function apply(
  tx: RepositoryTx,
  actor: Actor,
  action: string,
  outcome: ReturnOutcome,
  at: Timestamp,
): Promise<ReturnRecord> {
  if (!outcome.changed) return outcome.record;
  const saved = await tx.saveReturn(outcome.record);
  await tx.adjustStock(saved.store_id, outcome.stock);
  await tx.adjustQuarantine(saved.store_id, outcome.quarantine);
  await writeQueues(tx, saved);
  await recordOnTimelines(tx, actor, saved, action, outcome.details, at);
  return saved;
}

/** The 409 of an rma number opened before for something else: each field that differs. */
function openedOtherwise(rma: string, paths: readonly string[]): DomainError {
  return new DomainError(
    'already_exists',
    'Return %fieldValue was already opened with other content; see errors.',
    [{ fieldName: 'return.rma_number', fieldValue: rma }],
    paths.map((path) => ({
      message: 'Field "%fieldName" differs from the return opened under this number.',
      parameters: [{ fieldName: path }],
    })),
  );
}

/** A repeat of an opened return: the same one (200), or 409 naming what differs. */
function repeated(existing: ReturnRecord, input: ParsedReturn): OpenedReturn {
  const stored = requestOf(existing);
  const sent = { ...input, warehouse_code: input.warehouse_code ?? existing.warehouse_code };
  const paths = differingPaths(stored, sent, 'return');
  if (paths.length > 0) throw openedOtherwise(input.rma_number, paths);
  return { outcome: 'exists', return: presentReturn(existing) };
}

/** Opens a return, once by its rma number, in one transaction. */
async function open(deps: EngineDeps, actor: Actor, input: ParsedReturn): Promise<OpenedReturn> {
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, actor.store_code);
    const [known] = await tx.findReturns(store.id, [input.rma_number]);
    if (known) return repeated(known, input);
    const [salesOrder] = await tx.findSalesOrders(store.id, [input.sales_order_number]);
    if (!salesOrder) {
      throw fieldError(
        'not_found',
        'Sales order %fieldValue does not exist.',
        'return.sales_order_number',
        input.sales_order_number,
      );
    }
    // Locks in the order every action on returns takes them: the sales order's returns, then
    // (here only) its fulfillment orders, in number order, so that two returns of one line
    // take turns. The returns are read again once the orders are locked: one a racing open of
    // the same line committed meanwhile is then seen.
    await tx.lockSalesOrderReturns(store.id, input.sales_order_number);
    const numbers = [...new Set(input.items.map((entry) => entry.fulfillment_order_number))].sort();
    const orders: FulfillmentOrder[] = [];
    for (const number of numbers) {
      const order = await tx.lockOrder(store.id, number);
      if (order && order.sales_order_number === input.sales_order_number) orders.push(order);
    }
    const others = await tx.listSalesOrderReturns(store.id, [input.sales_order_number]);
    // A repeat that raced this one to the locks and committed first: it is this return, not
    // another taking back the same lines.
    const raced = others.find((other) => other.rma_number === input.rma_number);
    if (raced) return repeated(raced, input);
    const at = now(deps);
    const record = openReturn(input, {
      store_id: store.id,
      now: at,
      orders,
      returns: others,
      warehouses: await tx.listWarehouses(store.id),
    });
    const stored = await tx.insertReturn(record);
    if (!stored) {
      // Another transaction opened this number meanwhile: answer as to a repeat.
      const [winner] = await tx.findReturns(store.id, [input.rma_number]);
      if (!winner) throw new Error('fulfil: an rma number both taken and absent');
      return repeated(winner, input);
    }
    await writeQueues(tx, stored);
    await recordOnTimelines(
      tx,
      actor,
      stored,
      'return_open',
      { rma_number: stored.rma_number, warehouse_code: stored.warehouse_code, items: input.items },
      at,
    );
    return { outcome: 'created', return: presentReturn(stored) };
  });
}

/** POST /V1/returns: a channel opens a return (`return`). */
export async function createReturn(
  deps: EngineDeps,
  actor: Principal,
  body: unknown,
): Promise<OpenedReturn> {
  authorizeStoreWide(deps, actor, 'create_return');
  return open(deps, actor, parseWith(ReturnRequest, body).return);
}

/** The admin API's return: an operator opens one for the store, as a channel would. */
export async function openReturnAsOperator(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  body: unknown,
): Promise<OpenedReturn> {
  requireRole(operator, 'operator', storeCode);
  return open(deps, operatorActorOf(operator, storeCode), parseWith(ReturnInput, body));
}

/**
 * Runs one action on the return `rma` (out of the actor's scope: not found), with the sales
 * order's returns locked; `decide` sees the others too.
 */
async function onReturn(
  deps: EngineDeps,
  actor: Actor,
  rma: string,
  field: string,
  action: string,
  decide: (
    record: ReturnRecord,
    others: readonly ReturnRecord[],
    tx: RepositoryTx,
    at: Timestamp,
  ) => Promise<ReturnOutcome> | ReturnOutcome,
): Promise<ReturnResource> {
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, actor.store_code);
    const [found] = await tx.findReturns(store.id, [rma]);
    if (!found || !canSeeReturn(actor, found)) throw returnNotFound(rma, field);
    const all = await tx.lockSalesOrderReturns(store.id, found.sales_order_number);
    const record = all.find((entry) => entry.id === found.id) ?? found;
    const at = now(deps);
    const outcome = await decide(
      record,
      all.filter((entry) => entry.id !== record.id),
      tx,
      at,
    );
    return presentReturn(await apply(tx, actor, action, outcome, at));
  });
}

/** POST /V1/return/receive: the receiving warehouse's partner records a receipt. */
export async function receiveReturnGoods(
  deps: EngineDeps,
  actor: Principal,
  body: unknown,
): Promise<ReturnResource> {
  authorize(deps, actor, 'receive_return');
  const { receipt } = parseWith(ReceiptRequest, body);
  return onReturn(
    deps,
    actor,
    receipt.rma_number,
    'receipt.rma_number',
    'return_receive',
    (r, _, __, at) => receiveReturn(r, receipt, at),
  );
}

/** POST /V1/return/credit: the ERP credits what was received, reconciled like an invoice. */
export async function creditReturnGoods(
  deps: EngineDeps,
  actor: Principal,
  body: unknown,
): Promise<ReturnResource> {
  authorize(deps, actor, 'credit_return');
  const { credit } = parseWith(CreditRequest, body);
  return onReturn(
    deps,
    actor,
    credit.rma_number,
    'credit.rma_number',
    'return_credit',
    async (record, others, tx, at) => {
      const orders = await tx.listSalesOrderFulfillments(record.store_id, [
        record.sales_order_number,
      ]);
      return creditReturn(record, credit, {
        now: at,
        shipping_paid: orders.reduce((sum, order) => sum + (order.amounts.shipping_amount ?? 0), 0),
        // Its own earlier credit notes refunded shipping too, not only the other returns'.
        shipping_refunded: [record, ...others]
          .flatMap((entry) => entry.credits)
          .reduce((sum, entry) => sum + entry.shipping_refund_incl_tax, 0),
      });
    },
  );
}

/** The admin API's cancel of a return before any receipt. */
export async function cancelReturnAsOperator(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  rma: string,
  body: unknown,
): Promise<ReturnResource> {
  requireRole(operator, 'operator', storeCode);
  assertWellFormed({ rma_number: rma });
  const { reason = null } = parseWith(ReasonInput, body ?? {});
  const actor = operatorActorOf(operator, storeCode, reason);
  return onReturn(deps, actor, rma, 'rma_number', 'return_cancel', (record, _, __, at) =>
    cancelReturn(record, at),
  );
}

/** The views of a page of a returns queue, as JSON text, in the page's order. */
async function presentReturnsPage(
  tx: RepositoryTx,
  storeId: number,
  entries: readonly FeedEntry[],
): Promise<(string | null)[]> {
  const byId = new Map(
    (await tx.returnsById(entries.map((entry) => entry.entry_id)))
      .filter((record) => record.store_id === storeId)
      .map((record) => [record.id, record]),
  );
  return entries.map((entry) => {
    const record = byId.get(entry.entry_id);
    return record ? JSON.stringify(presentReturn(record)) : null;
  });
}

/**
 * GET /V1/returns/pending_receipt and /pending_credit: the returns with work in the queue, paged
 * and followed like a fulfillment queue (`page`, `date`, `after`, `since`, `wait`), within the
 * token's warehouses (the receiving warehouse).
 */
export async function pollReturns(
  deps: EngineDeps,
  actor: Principal,
  queue: ReturnQueue,
  query: unknown = {},
): Promise<QueuePage> {
  authorize(deps, actor, QUEUE_ACTIONS[queue]);
  return pollFeedPage(deps, actor, QUEUE_FEEDS[queue], query, presentReturnsPage);
}

/** One return of the store, as an operator sees it. */
export async function getReturnAsOperator(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  rma: string,
): Promise<ReturnResource> {
  requireRole(operator, 'viewer', storeCode);
  assertWellFormed({ rma_number: rma });
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    const [found] = await tx.findReturns(store.id, [rma]);
    if (!found) throw returnNotFound(rma, 'rma_number');
    return presentReturn(found);
  }, 'read');
}

/**
 * The store's returns for the console, a page of `PAGE_SIZE` by id after `after`, in one
 * `status` or all; with `sales_order_number`, those of that sales order only (the order page's).
 */
export async function listReturnsAsOperator(
  deps: EngineDeps,
  operator: OperatorPrincipal,
  storeCode: string,
  query: unknown = {},
): Promise<ReturnResource[]> {
  requireRole(operator, 'viewer', storeCode);
  const { status, after, sales_order_number } = parseWith(ReturnListInput, query ?? {});
  return deps.repository.transaction(async (tx) => {
    const store = await requireStore(tx, storeCode);
    if (sales_order_number !== undefined) {
      // One sales order's returns are few: read them all, then keep the page asked for.
      const records = await tx.listSalesOrderReturns(store.id, [sales_order_number]);
      return records
        .filter((record) => after === undefined || record.id > after)
        .map(presentReturn)
        .filter((view) => status === undefined || view.status === status)
        .slice(0, PAGE_SIZE);
    }
    const records = await tx.listStoreReturns(store.id, {
      ...(status === undefined ? {} : { status }),
      ...(after === undefined ? {} : { after }),
      limit: PAGE_SIZE,
    });
    return records.map(presentReturn);
  }, 'read');
}
