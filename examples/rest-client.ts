import { setTimeout as sleep } from 'node:timers/promises';
/**
 * What the example workers (partner-worker.ts, erp-worker.ts) share: a small client for Fulfil's
 * REST API on plain `fetch`, the paging loop over a queue, and the loop that acts on each order
 * of a queue, noting the ones the service refuses and going on with the others.
 */

/** The fields of a Fulfillment order resource the workers read. */
export interface FulfillmentOrder {
  fulfillment_order_number: string;
  status: string;
  items: { id: number; sku: string; qty: number }[];
}

export interface ClientOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  store: string;
  token: string;
  log?: (line: string) => void;
}

/** An action the service refused, with its message; it is retried next round. */
export interface Refusal {
  order: string;
  message: string;
}

/** A non-2xx answer: its HTTP status and the `message` of the service's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `call(method, path, body?)` against `{baseUrl}/rest/{store}/V1`, JSON both ways. */
export function client({ baseUrl, store, token }: ClientOptions) {
  const base = `${baseUrl.replace(/\/$/, '')}/rest/${encodeURIComponent(store)}/V1`;
  return async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      let message = `HTTP ${response.status}`;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // Not the service's error body (a proxy's page, say): the status says enough.
      }
      throw new ApiError(response.status, message);
    }
    return JSON.parse(text) as T;
  };
}

export type Call = ReturnType<typeof client>;

/** Every order of a queue: pages of 100 until an empty one, read before acting on any. */
export async function pollAll(call: Call, queue: string): Promise<FulfillmentOrder[]> {
  const orders: FulfillmentOrder[] = [];
  for (let page = 1; ; page++) {
    const batch = await call<FulfillmentOrder[]>('GET', `/fulfillmentOrders/${queue}?page=${page}`);
    if (batch.length === 0) return orders;
    orders.push(...batch);
  }
}

/**
 * Runs `act` on each order in turn. A refused action (400, 403, 404) concerns one order: it is
 * noted in `errors` and the loop goes on with the others. A bad token (401), a server error (5xx)
 * or a network failure ends the round: the next one starts over from the queues.
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
      if (!(error instanceof ApiError) || error.status >= 500 || error.status === 401) throw error;
      errors.push({ order: order.fulfillment_order_number, message: error.message });
      log(`${verb} ${order.fulfillment_order_number} refused: ${error.message}`);
    }
  }
}

/**
 * A worker's main loop: options from the environment (FULFIL_URL, FULFIL_STORE, FULFIL_TOKEN,
 * FULFIL_POLL_MS), then one round every interval until Ctrl+C, or a single round with `--once`.
 */
export async function runRounds<TReport>(worker: {
  /** What to say when FULFIL_TOKEN is missing: which token this worker needs. */
  tokenHint: string;
  round(options: ClientOptions & { log: (line: string) => void }): Promise<TReport>;
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
    store: process.env.FULFIL_STORE ?? 'default',
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
