/**
 * The ERP's worker, talking to Fulfil over its REST API with @fulfil/client: allocate every order
 * waiting in pending_allocation (in real life: after reserving the stock in the ERP), then invoice
 * every order waiting in pending_invoice (in real life: after issuing the fiscal invoice). Orders
 * a partner ships and orders the service ships itself through its courier both end up in
 * pending_invoice; the ERP does not need to know which. Runs every 30 s, as the spec recommends,
 * until Ctrl+C; `--once` runs one round and exits. The round loop is in worker-loop.ts, shared
 * with the partner's worker (partner-worker.ts).
 *
 * Try it against the demo:
 *   pnpm start                                   # serves examples/demo-seed.json on :8080
 *   FULFIL_TOKEN=demo-erp-3b8d1f6a2c9e4b7d0f5a8c1e3b6d9f2a4c7e npx tsx examples/erp-worker.ts --once
 *
 * Environment: FULFIL_URL (default http://127.0.0.1:8080), FULFIL_STORE (default "default"),
 * FULFIL_TOKEN (required), FULFIL_FORMAT (json or xml; default json), FULFIL_POLL_MS (default 30000).
 */
import { pathToFileURL } from 'node:url';
import { createClient, type FulfillmentOrder } from '@fulfil/client';
import { eachOrder, pollAll, type Refusal, runRounds, type WorkerOptions } from './worker-loop.js';

export interface RoundReport {
  allocated: string[];
  invoiced: string[];
  /** Orders whose action the service refused, with its message; they are retried next round. */
  errors: Refusal[];
}

/**
 * The invoice number for invoicing these items of this order: `INV-<order>-<lowest item id>`.
 * An item is invoiced only once, so no two invoices of one order share their lowest item id; and
 * the same order and items always give the same number. That keeps a retry idempotent: sent again
 * (a lost response, a second worker racing this one), the same number for the same items is a
 * no-op answered with the current order (docs/behaviour.md), where a fresh number would be a 400
 * ("already invoiced under ..."). A real ERP would use its own fiscal numbering, storing the
 * number it assigned to these items before sending it, so that a retry sends that number again.
 */
export function invoiceNumber(order: FulfillmentOrder): string {
  const lowest = Math.min(...order.items.map((item) => item.id));
  return `INV-${order.fulfillment_order_number}-${lowest}`;
}

/** One round: allocate what waits for allocation, invoice what waits for invoicing. */
export async function runOnce(options: WorkerOptions): Promise<RoundReport> {
  const client = createClient(options);
  const log = options.log ?? (() => {});
  const report: RoundReport = { allocated: [], invoiced: [], errors: [] };

  // A refused action concerns one order: eachOrder notes it in report.errors and goes on.
  await eachOrder(
    await pollAll(client, 'pending_allocation'),
    (order) =>
      client.allocate({
        // The reference's key is `allocation` (the ERP guide's sample writes `order`).
        allocation: {
          order_id: order.fulfillment_order_number,
          // The queue lists the items awaiting allocation; items go by item_id, qty is ignored.
          items: order.items.map((item) => ({ item_id: item.id })),
        },
      }),
    { done: report.allocated, errors: report.errors, verb: 'allocated', log },
  );

  await eachOrder(
    await pollAll(client, 'pending_invoice'),
    // Exactly the items the queue shows: after a partial shipment, only the shipped ones; the
    // rest come back in a later round, after their own shipment, for their own invoice. The
    // client states shipping_amount_incl_tax as the service expects it: the order's shipping
    // (incl. tax) on its first invoice, 0 on every later one.
    (order) => client.invoiceOrder(order, { invoice_number: invoiceNumber(order) }),
    { done: report.invoiced, errors: report.errors, verb: 'invoiced', log },
  );
  return report;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runRounds({
    tokenHint: 'an ERP token (see `fulfil token create --acl erp`)',
    round: runOnce,
    summary: (report) =>
      `${report.allocated.length} allocated, ${report.invoiced.length} invoiced, ${report.errors.length} refused`,
  });
}
