/**
 * A fulfillment partner's worker, talking to Fulfil over its REST API with plain `fetch`:
 * accept every order waiting in pending_accept, then ship every order waiting in
 * pending_shipment (in real life: after picking and packing it). Runs every 30 s, as the spec
 * recommends, until Ctrl+C; `--once` runs one round and exits.
 *
 * Try it against the demo:
 *   pnpm start                                   # serves examples/demo-seed.json on :8080
 *   FULFIL_TOKEN=demo-partner-milan-9f4c2e7a1b6d3f8e0a5c7b2d4e6f8a1c npx tsx examples/partner-worker.ts --once
 *
 * Environment: FULFIL_URL (default http://127.0.0.1:8080), FULFIL_STORE (default "default"),
 * FULFIL_TOKEN (required), FULFIL_POLL_MS (default 30000).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

/** The fields of a Fulfillment order resource this worker reads. */
interface FulfillmentOrder {
  fulfillment_order_number: string;
  status: string;
  items: { id: number; sku: string; qty: number }[];
}

export interface WorkerOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  store: string;
  token: string;
  log?: (line: string) => void;
}

export interface RoundReport {
  accepted: string[];
  shipped: string[];
  /** Orders whose action the service refused, with its message; they are retried next round. */
  errors: { order: string; message: string }[];
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function client({ baseUrl, store, token }: WorkerOptions) {
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

/** Every order of a queue: pages of 100 until an empty one, read before acting on any. */
async function pollAll(
  call: ReturnType<typeof client>,
  queue: string,
): Promise<FulfillmentOrder[]> {
  const orders: FulfillmentOrder[] = [];
  for (let page = 1; ; page++) {
    const batch = await call<FulfillmentOrder[]>('GET', `/fulfillmentOrders/${queue}?page=${page}`);
    if (batch.length === 0) return orders;
    orders.push(...batch);
  }
}

/** One round: accept what waits for acceptance, ship what waits for shipment. */
export async function runOnce(options: WorkerOptions): Promise<RoundReport> {
  const call = client(options);
  const log = options.log ?? (() => {});
  const report: RoundReport = { accepted: [], shipped: [], errors: [] };

  // A refused action (400, 404) concerns one order: note it and go on with the others.
  const each = async (
    orders: FulfillmentOrder[],
    act: (order: FulfillmentOrder) => Promise<FulfillmentOrder>,
    done: string[],
    verb: string,
  ) => {
    for (const order of orders) {
      try {
        const result = await act(order);
        done.push(order.fulfillment_order_number);
        log(`${verb} ${order.fulfillment_order_number}: now ${result.status}`);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500 || error.status === 401)
          throw error;
        report.errors.push({ order: order.fulfillment_order_number, message: error.message });
        log(`${verb} ${order.fulfillment_order_number} refused: ${error.message}`);
      }
    }
  };

  await each(
    await pollAll(call, 'pending_accept'),
    (order) =>
      call('POST', '/fulfillmentOrder/accept', {
        order: {
          order_id: order.fulfillment_order_number,
          // qty = the ordered qty accepts an item in full; 0 would reject it.
          items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
        },
      }),
    report.accepted,
    'accepted',
  );

  await each(
    await pollAll(call, 'pending_shipment'),
    (order) =>
      call('POST', '/fulfillmentOrder/ship', {
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
    report.shipped,
    'shipped',
  );
  return report;
}

async function run(): Promise<void> {
  const token = process.env.FULFIL_TOKEN;
  if (!token) {
    console.error('Set FULFIL_TOKEN to a partner token (see `fulfil token create --acl partner`).');
    process.exitCode = 2;
    return;
  }
  const options: WorkerOptions = {
    baseUrl: process.env.FULFIL_URL ?? 'http://127.0.0.1:8080',
    store: process.env.FULFIL_STORE ?? 'default',
    token,
    log: (line) => console.log(line),
  };
  const interval = Number(process.env.FULFIL_POLL_MS ?? 30_000);
  const once = process.argv.includes('--once');
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  while (!stop.signal.aborted) {
    const report = await runOnce(options);
    console.log(
      `round done: ${report.accepted.length} accepted, ${report.shipped.length} shipped, ` +
        `${report.errors.length} refused`,
    );
    if (once) return;
    await sleep(interval, undefined, { signal: stop.signal }).catch(() => {});
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
}
