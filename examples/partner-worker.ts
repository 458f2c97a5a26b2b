/**
 * A fulfillment partner's worker, talking to Fulfil over its REST API with @fulfil/client:
 * accept every order waiting in pending_accept, then ship every order waiting in
 * pending_shipment (in real life: after picking and packing it). Runs every 30 s, as the spec
 * recommends, until Ctrl+C; `--once` runs one round and exits. The round loop is in
 * worker-loop.ts, shared with the ERP's worker (erp-worker.ts).
 *
 * Try it against the demo:
 *   pnpm start                                   # serves examples/demo-seed.json on :8080
 *   FULFIL_TOKEN=demo-partner-milan-9f4c2e7a1b6d3f8e0a5c7b2d4e6f8a1c npx tsx examples/partner-worker.ts --once
 *
 * Environment: FULFIL_URL (default http://127.0.0.1:8080), FULFIL_STORE (default "default"),
 * FULFIL_TOKEN (required), FULFIL_FORMAT (json or xml; default json), FULFIL_POLL_MS (default 30000).
 */
import { pathToFileURL } from 'node:url';
import { createClient } from '@fulfil/client';
import { eachOrder, pollAll, type Refusal, runRounds, type WorkerOptions } from './worker-loop.js';

export interface RoundReport {
  accepted: string[];
  shipped: string[];
  /** Orders whose action the service refused, with its message; they are retried next round. */
  errors: Refusal[];
}

/** One round: accept what waits for acceptance, ship what waits for shipment. */
export async function runOnce(options: WorkerOptions): Promise<RoundReport> {
  const client = createClient(options);
  const log = options.log ?? (() => {});
  const report: RoundReport = { accepted: [], shipped: [], errors: [] };

  // A refused action concerns one order: eachOrder notes it in report.errors and goes on.
  await eachOrder(
    await pollAll(client, 'pending_accept'),
    (order) =>
      client.accept({
        order: {
          order_id: order.fulfillment_order_number,
          // qty = the ordered qty accepts an item in full; 0 would reject it.
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
        },
      }),
    { done: report.accepted, errors: report.errors, verb: 'accepted', log },
  );

  await eachOrder(
    await pollAll(client, 'pending_shipment'),
    (order) =>
      client.ship({
        shipment: {
          order_id: order.fulfillment_order_number,
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
          tracks: [
            {
              carrier_code: 'brt',
              title: 'BRT',
              track_number: `BRT-${order.fulfillment_order_number}`,
            },
          ],
        },
      }),
    { done: report.shipped, errors: report.errors, verb: 'shipped', log },
  );
  return report;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runRounds({
    tokenHint: 'a partner token (see `fulfil token create --acl partner`)',
    round: runOnce,
    summary: (report) =>
      `${report.accepted.length} accepted, ${report.shipped.length} shipped, ${report.errors.length} refused`,
  });
}
