import { type DomainError, isDomainError } from '../domain/errors.js';
import { presentOrder } from '../domain/present.js';
import type { OrderResource } from '../domain/resources.js';
import type { SalesOrder } from '../domain/sales-order.js';
import type { SalesOrderRecord } from '../domain/sales-order-view.js';
import type { FulfillmentOrder, Store } from '../domain/types.js';
import type { RepositoryTx } from '../ports/repository.js';
import { parseWith } from '../schemas/parse.js';
import { SalesOrderInput } from '../schemas/sales-order.js';
import type { EngineDeps } from './deps.js';
import { alreadyTakenIn, CapacityRaced, type IntakePlan, openIntakeSession } from './intake.js';
import { StockRaced } from './stock-promises.js';

/** How many sales orders a batch should hold: large enough to amortise a commit, small enough to keep memory bounded. */
export const INTAKE_BATCH_SIZE = 1000;

/** What became of one sales order of a batch, in the batch's order. */
export type IntakeOutcome =
  | { outcome: 'created'; sales_order_number: string; fulfillment_orders: OrderResource[] }
  /** Taken in before (or earlier in the same batch): left as it is. */
  | { outcome: 'exists'; sales_order_number: string }
  /** Invalid, or could not be routed; nothing of it was written. Null when it had no number. */
  | { outcome: 'refused'; sales_order_number: string | null; error: DomainError };

/** A sales order of a batch once validated, or why it is not one. */
export type CheckedSalesOrder =
  | { order: SalesOrder }
  | { error: DomainError; number: string | null };

/** What became of one sales order of a batch, inside the transaction that took the batch in. */
export type TakenIn =
  | {
      outcome: 'created';
      sales_order_number: string;
      record: SalesOrderRecord;
      orders: FulfillmentOrder[];
    }
  | {
      outcome: 'exists';
      sales_order_number: string;
      /** What was sent this time. */
      sent: SalesOrder;
      /**
       * The sales order taken in under the number (before, or earlier in this batch); null when
       * the store knows the number but kept no record of it (a store moved from an older dump).
       */
      record: SalesOrderRecord | null;
      /** The fulfillment orders this batch created for it, when it took it in itself. */
      orders?: FulfillmentOrder[];
    }
  | { outcome: 'refused'; sales_order_number: string | null; error: DomainError };

/** Another transaction took in one of the batch's sales orders between our check and our claim. */
class IntakeRaced extends Error {}

function numberOf(input: unknown): string | null {
  const number = (input as { sales_order_number?: unknown } | null)?.sales_order_number;
  return typeof number === 'string' ? number : null;
}

/** Validates one sales order of a batch; a refusal names its fields under `prefix`. */
export function checkSalesOrder(
  input: unknown,
  refine: (error: DomainError) => DomainError = (error) => error,
): CheckedSalesOrder {
  try {
    return { order: parseWith(SalesOrderInput, input) };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { error: refine(error), number: numberOf(input) };
  }
}

/**
 * Takes in validated sales orders in one transaction: each one new to the store is routed and
 * claimed; every one is planned before anything is written, so a refused one (it cannot be
 * routed) never rolls back the others; all claimed ones are written by one flush. `answer` runs
 * in the same transaction, with what became of each, in order, to read what the answer needs.
 * A batch that loses a race for a number to another transaction runs again whole.
 */
export async function takeInBatch<R>(
  deps: EngineDeps,
  storeCode: string,
  checked: readonly CheckedSalesOrder[],
  actorName: string,
  answer: (tx: RepositoryTx, store: Store, taken: TakenIn[]) => Promise<R> | R,
): Promise<R> {
  // A batch that lost a race is run again; it never loops for ever: the racing transaction had
  // committed the sales order (the claim waits for it), so the next attempt finds it taken in,
  // and each retry therefore knows at least one more of the batch's sales orders than the last.
  // One that found a warehouse filled up (CapacityRaced) reads it full the next time: counts
  // only grow within a day, so that too ends.
  // One whose units in stock were taken meanwhile (StockRaced) runs again reading the stock
  // under its rows' locks, which no other transaction can then take units from.
  let lockStock = false;
  for (;;) {
    try {
      return await deps.repository.transaction(async (tx) => {
        const session = await openIntakeSession(deps, tx, storeCode, actorName, { lockStock });
        const numbers = checked.flatMap((entry) =>
          'order' in entry ? [entry.order.sales_order_number] : [],
        );
        const storeId = session.store.id;
        // What the store took in under these numbers; a number claimed without a record (from
        // an older store dump) is known all the same.
        const known = new Map<string, SalesOrderRecord | null>(
          (await tx.knownSalesOrders(storeId, numbers)).map((number) => [number, null]),
        );
        for (const record of await tx.findSalesOrders(storeId, numbers)) {
          known.set(record.sales_order_number, record);
        }
        // The stock rows of the new orders' skus: read once for the batch, as late as can be;
        // locked from here to the commit when the batch runs again after a race.
        await session.loadStock(
          checked.flatMap((entry) =>
            'order' in entry && !known.has(entry.order.sales_order_number)
              ? entry.order.items.map((item) => item.sku)
              : [],
          ),
        );
        /** Sales orders claimed by this batch, by number: the index of their claim. */
        const claims = new Map<string, number>();
        const outcomes: (TakenIn | { outcome: 'claimed'; number: string; sent: SalesOrder })[] = [];
        for (const entry of checked) {
          if (!('order' in entry)) {
            outcomes.push({
              outcome: 'refused',
              sales_order_number: entry.number,
              error: entry.error,
            });
            continue;
          }
          const number = entry.order.sales_order_number;
          if (known.has(number) || claims.has(number)) {
            outcomes.push({ outcome: 'claimed', number, sent: entry.order });
            continue;
          }
          let plan: IntakePlan;
          try {
            plan = await session.plan(entry.order);
          } catch (error) {
            if (!isDomainError(error)) throw error;
            outcomes.push({ outcome: 'refused', sales_order_number: number, error });
            continue;
          }
          session.claim(plan);
          claims.set(number, claims.size);
          outcomes.push({ outcome: 'claimed', number, sent: entry.order });
        }
        const written = await session.flush().catch((error: unknown) => {
          throw isDomainError(error) && error.code === 'already_exists' ? new IntakeRaced() : error;
        });
        const created = new Set<string>();
        const taken = outcomes.map((outcome): TakenIn => {
          if (outcome.outcome !== 'claimed') return outcome;
          const { number, sent } = outcome;
          const claim = claims.get(number);
          const mine = claim === undefined ? undefined : written[claim];
          if (mine && !created.has(number)) {
            created.add(number);
            return {
              outcome: 'created',
              sales_order_number: number,
              record: mine.record,
              orders: mine.orders,
            };
          }
          return mine
            ? {
                outcome: 'exists',
                sales_order_number: number,
                sent,
                record: mine.record,
                orders: mine.orders,
              }
            : {
                outcome: 'exists',
                sales_order_number: number,
                sent,
                record: known.get(number) ?? null,
              };
        });
        return answer(tx, session.store, taken);
      });
    } catch (error) {
      if (error instanceof StockRaced) lockStock = true;
      else if (!(error instanceof IntakeRaced || error instanceof CapacityRaced)) throw error;
    }
  }
}

/**
 * Takes in a batch of sales orders in one transaction and answers one outcome per order. Every
 * order is validated and routed before anything of it is written, so an invalid one is refused
 * alone and never rolls back the others. Feed a long stream to it batch by batch
 * ({@link INTAKE_BATCH_SIZE}): memory stays bounded by the batch.
 */
export async function intakeBatch(
  deps: EngineDeps,
  storeCode: string,
  salesOrders: readonly unknown[],
  actorName = 'operator',
): Promise<IntakeOutcome[]> {
  const checked = salesOrders.map((input) => checkSalesOrder(input));
  return takeInBatch(deps, storeCode, checked, actorName, (_tx, _store, taken) =>
    taken.map((outcome): IntakeOutcome => {
      if (outcome.outcome === 'created') {
        return {
          outcome: 'created',
          sales_order_number: outcome.sales_order_number,
          fulfillment_orders: outcome.orders.map((order) => presentOrder(order, 'whole')),
        };
      }
      if (outcome.outcome === 'exists') {
        return { outcome: 'exists', sales_order_number: outcome.sales_order_number };
      }
      return outcome;
    }),
  );
}

/**
 * Takes in a sales order from the shop: routes its lines (a pinned `warehouse_code` wins) into
 * one or more fulfillment orders, numbered `<sales_order_number>-<n>`, in one transaction. A
 * number taken in before is `already_exists`.
 */
export async function intakeSalesOrder(
  deps: EngineDeps,
  storeCode: string,
  salesOrder: unknown,
  actorName = 'operator',
): Promise<OrderResource[]> {
  const order = parseWith(SalesOrderInput, salesOrder);
  const [taken] = await takeInBatch(deps, storeCode, [{ order }], actorName, (_, __, all) => all);
  if (taken?.outcome === 'refused') throw taken.error;
  if (taken?.outcome !== 'created') throw alreadyTakenIn(order.sales_order_number);
  return taken.orders.map((fulfillment) => presentOrder(fulfillment, 'whole'));
}
