import { type DomainError, isDomainError } from '../domain/errors.js';
import { presentOrder } from '../domain/present.js';
import { parseWith } from '../schemas/parse.js';
import type { OrderResource } from '../schemas/resources.js';
import { type SalesOrder, SalesOrderInput } from '../schemas/sales-order.js';
import type { EngineDeps } from './deps.js';
import { openIntakeSession } from './intake.js';

/** How many sales orders a batch should hold: large enough to amortise a commit, small enough to keep memory bounded. */
export const INTAKE_BATCH_SIZE = 1000;

/** What became of one sales order of a batch, in the batch's order. */
export type IntakeOutcome =
  | { outcome: 'created'; sales_order_number: string; fulfillment_orders: OrderResource[] }
  /** Taken in before (or earlier in the same batch): left as it is. */
  | { outcome: 'exists'; sales_order_number: string }
  /** Invalid, or could not be routed; nothing of it was written. Null when it had no number. */
  | { outcome: 'refused'; sales_order_number: string | null; error: DomainError };

/** Another transaction took in one of the batch's sales orders between our check and our claim. */
class IntakeRaced extends Error {}

function numberOf(input: unknown): string | null {
  const number = (input as { sales_order_number?: unknown } | null)?.sales_order_number;
  return typeof number === 'string' ? number : null;
}

type Checked = { order: SalesOrder } | { error: DomainError; number: string | null };

function check(input: unknown): Checked {
  try {
    return { order: parseWith(SalesOrderInput, input) };
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return { error, number: numberOf(input) };
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
  const checked = salesOrders.map(check);
  // A batch that lost a race is run again; it never loops for ever: the racing transaction had
  // committed the sales order (the claim waits for it), so the next attempt finds it taken in,
  // and each retry therefore knows at least one more of the batch's sales orders than the last.
  for (;;) {
    try {
      return await deps.repository.transaction(async (tx) => {
        const session = await openIntakeSession(deps, tx, storeCode, actorName);
        const numbers = checked.flatMap((entry) =>
          'order' in entry ? [entry.order.sales_order_number] : [],
        );
        const known = new Set(await tx.knownSalesOrders(session.store.id, numbers));
        // Created outcomes get their orders once the flush has written them.
        const outcomes: (IntakeOutcome | { outcome: 'claimed'; sales_order_number: string })[] = [];
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
          if (known.has(number)) {
            outcomes.push({ outcome: 'exists', sales_order_number: number });
            continue;
          }
          let plan: Awaited<ReturnType<typeof session.plan>>;
          try {
            plan = await session.plan(entry.order);
          } catch (error) {
            if (!isDomainError(error)) throw error;
            outcomes.push({ outcome: 'refused', sales_order_number: number, error });
            continue;
          }
          session.claim(plan);
          known.add(number);
          outcomes.push({ outcome: 'claimed', sales_order_number: number });
        }
        const created = (
          await session.flush().catch((error: unknown) => {
            throw isDomainError(error) && error.code === 'already_exists'
              ? new IntakeRaced()
              : error;
          })
        ).values();
        return outcomes.map(
          (outcome): IntakeOutcome =>
            outcome.outcome === 'claimed'
              ? {
                  outcome: 'created',
                  sales_order_number: outcome.sales_order_number,
                  fulfillment_orders: (created.next().value ?? []).map((order) =>
                    presentOrder(order, 'whole'),
                  ),
                }
              : outcome,
        );
      });
    } catch (error) {
      if (!(error instanceof IntakeRaced)) throw error;
    }
  }
}
