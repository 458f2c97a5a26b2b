/**
 * The load generator of the HTTP scenarios: autocannon in this process, 10 keep-alive
 * connections, against a server in another process (so client and server never share an event
 * loop). A run that meets a connection error, a timeout or any non-2xx answer throws: a figure
 * is only printed for a server that did the work.
 */
import autocannon from 'autocannon';

export const CONNECTIONS = 10;
/** Seconds before a request counts as timed out: generous, a shared machine may stall. */
const TIMEOUT_SECONDS = 60;

export interface LoadPlan {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Seconds of load; or `amount`: a fixed number of requests. */
  seconds?: number;
  amount?: number;
  /** The body of the n-th request (n from 0): one fresh resource per request. */
  bodyOf?: (n: number) => string;
  /** The path of the n-th request (n from 0), when not the url's. */
  pathOf?: (n: number) => string;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  requests: number;
}

export async function load(plan: LoadPlan): Promise<LoadResult> {
  let next = 0;
  const { bodyOf, pathOf } = plan;
  const setupRequest = (request: autocannon.Request) => {
    const n = next++;
    return {
      ...request,
      ...(bodyOf ? { body: bodyOf(n) } : {}),
      ...(pathOf ? { path: pathOf(n) } : {}),
    };
  };
  // autocannon reports a run's end at its next sampling tick, so its `duration` rounds a short
  // run up by as much as half a second; the span to the last answer is the time the work took.
  const started = performance.now();
  let lastAnswer = started;
  const options: autocannon.Options = {
    url: plan.url,
    connections: CONNECTIONS,
    timeout: TIMEOUT_SECONDS,
    method: plan.method ?? 'GET',
    headers: plan.headers ?? {},
    ...(plan.amount === undefined ? { duration: plan.seconds ?? 10 } : { amount: plan.amount }),
    ...(bodyOf || pathOf ? { requests: [{ setupRequest }] } : {}),
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(options, (error, done) => (error ? reject(error) : resolve(done)));
    run.on('response', () => {
      lastAnswer = performance.now();
    });
  });
  const answered = result['2xx'] + result.non2xx;
  if (result.errors || result.timeouts || result.non2xx || answered === 0) {
    throw new Error(
      `load on ${plan.url}: ${result['2xx']} ok, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return {
    requestsPerSecond: answered / ((lastAnswer - started) / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: answered,
  };
}

/**
 * Loads of JSON POSTs, one fresh body a request, all taken in turn from `bodyOf`: each load starts
 * after the bodies of the loads before it (autocannon builds each connection's next request ahead,
 * so a load of n requests builds n + CONNECTIONS bodies). A warm-up, then a measured load.
 */
export function postsInTurn(
  url: string,
  secret: string,
  bodyOf: (n: number) => string,
): (amount: number) => Promise<LoadResult> {
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
  let used = 0;
  return (amount) => {
    const offset = used;
    used += amount + CONNECTIONS;
    return load({ url, method: 'POST', headers, amount, bodyOf: (n) => bodyOf(offset + n) });
  };
}

/** autocannon records whole milliseconds: 0 means under one. */
function latency(ms: number): string {
  return ms < 1 ? '< 1 ms' : `${ms} ms`;
}

/** `412 req/s (p50 23 ms, p99 41 ms)`. */
export function describeLoad(result: LoadResult): string {
  return `${Math.round(result.requestsPerSecond)} req/s (p50 ${latency(result.p50)}, p99 ${latency(result.p99)})`;
}
