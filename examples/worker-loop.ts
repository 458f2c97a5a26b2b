/**
 * What the example workers (partner-worker.ts, erp-worker.ts) share besides @fulfil/client: the
 * loop that acts on each order of a queue, noting the ones the service refuses and going on with
 * the others, and the main loop that runs one round every interval.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ClientOptions,
  FulfilApiError,
  type FulfilClient,
  type FulfillmentOrder,
  type QueueName,
} from '@fulfil/client';

/** An action the service refused, with its message; it is retried next round. */
export interface Refusal {
  order: string;
  message: string;
}

/** How a worker reaches the service: the client's options, and where it logs. */
export type WorkerOptions = ClientOptions & { log?: (line: string) => void };

/** Every order of a queue, read before acting on any (acting moves orders between pages). */
export async function pollAll(client: FulfilClient, queue: QueueName): Promise<FulfillmentOrder[]> {
  const orders: FulfillmentOrder[] = [];
  for await (const order of client.queue(queue)) orders.push(order);
  return orders;
}

/**
 * Runs `act` on each order in turn. A refused action (400, 403, 404) concerns one order: it is
 * noted in `errors` and the loop goes on with the others. A bad token (401), a server error (5xx),
 * throttling (429) or a network failure the client's retries could not mend ends the round: the next one starts over from the queues.
 */
export async function eachOrder(
  orders: FulfillmentOrder[],
  act: (order: FulfillmentOrder) => Promise<FulfillmentOrder>,
  report: { done: string[]; errors: Refusal[]; verb: string; log: (line: string) => void },
): Promise<void> {
  const { done, errors, verb, log } = report;
  for (const order of orders) {
    try {
      const result = await act(order);
      done.push(order.fulfillment_order_number);
      log(`${verb} ${order.fulfillment_order_number}: now ${result.status}`);
    } catch (error) {
      const refused = error instanceof FulfilApiError && [400, 403, 404].includes(error.status);
      if (!refused) {
        throw error;
      }
      errors.push({ order: order.fulfillment_order_number, message: error.message });
      log(`${verb} ${order.fulfillment_order_number} refused: ${error.message}`);
    }
  }
}

/**
 * A worker's main loop: options from the environment (FULFIL_URL, FULFIL_STORE, FULFIL_TOKEN,
 * FULFIL_FORMAT, FULFIL_POLL_MS), then one round every interval until Ctrl+C, or a single round with `--once`.
 */
export async function runRounds<TReport>(worker: {
  /** What to say when FULFIL_TOKEN is missing: which token this worker needs. */
  tokenHint: string;
  round(options: WorkerOptions): Promise<TReport>;
  summary(report: TReport): string;
}): Promise<void> {
  const token = process.env.FULFIL_TOKEN;
  if (!token) {
    console.error(`Set FULFIL_TOKEN to ${worker.tokenHint}.`);
    process.exitCode = 2;
    return;
  }
  const options = {
    baseUrl: process.env.FULFIL_URL ?? 'http://127.0.0.1:8080',
    storeCode: process.env.FULFIL_STORE ?? 'default',
    format: process.env.FULFIL_FORMAT === 'xml' ? ('xml' as const) : ('json' as const),
    token,
    log: (line: string) => console.log(line),
  };
  const interval = Number(process.env.FULFIL_POLL_MS ?? 30_000);
  const once = process.argv.includes('--once');
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  while (!stop.signal.aborted) {
    console.log(`round done: ${worker.summary(await worker.round(options))}`);
    if (once) return;
    await sleep(interval, undefined, { signal: stop.signal }).catch(() => {});
  }
}
