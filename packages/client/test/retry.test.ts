import { describe, expect, it } from 'vitest';
import { createClient, type FetchLike, FulfilApiError } from '../src/index.js';
import { backoffDelay, DEFAULT_RETRY, retryAfterMs } from '../src/retry.js';

/** A fetch that answers from a script, one entry per call: a status (with headers) or an error. */
function scripted(
  script: ({ status: number; headers?: Record<string, string>; body?: string } | Error)[],
) {
  const calls: { url: string; method: string; body?: string }[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({
      url,
      method: init.method,
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    const next = script.shift();
    if (!next) throw new Error('the script ran out');
    if (next instanceof Error) throw next;
    const headers = new Map(
      Object.entries(next.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    return {
      status: next.status,
      headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
      text: async () => next.body ?? '[]',
    };
  };
  return { fetch, calls };
}

function clientWith(fetch: FetchLike, waits: number[], retries?: number) {
  return createClient({
    baseUrl: 'http://fulfil.test/',
    storeCode: 'default',
    token: 't',
    fetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...(retries === undefined ? {} : { retry: { retries } }),
  });
}

const unavailable = { status: 503, headers: { 'Retry-After': '2' }, body: '{"message":"down"}' };

describe('retries', () => {
  it('waits as long as Retry-After asks on 503 and 429, then answers', async () => {
    const { fetch, calls } = scripted([
      unavailable,
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 200 },
    ]);
    const waits: number[] = [];
    expect(await clientWith(fetch, waits).pendingAccept()).toEqual([]);
    expect(calls).toHaveLength(3);
    expect(calls[0]?.url).toBe(
      'http://fulfil.test/rest/default/V1/fulfillmentOrders/pending_accept',
    );
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits[0]).toBeLessThan(2000 + DEFAULT_RETRY.baseDelayMs);
    expect(waits[1]).toBeGreaterThanOrEqual(1000);
  });

  it('retries a failed connection with backoff, sending the same body again', async () => {
    const { fetch, calls } = scripted([
      new TypeError('fetch failed'),
      { status: 200, body: '{"id":1}' },
    ]);
    const waits: number[] = [];
    const body = { order: { order_id: '1-1', items: [{ item_id: 1, qty: 1 }] } };
    await clientWith(fetch, waits).accept(body);
    expect(calls.map((call) => call.body)).toEqual([JSON.stringify(body), JSON.stringify(body)]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeLessThanOrEqual(DEFAULT_RETRY.baseDelayMs);
  });

  it('gives up after `retries` and hands over the last answer as a FulfilApiError', async () => {
    const { fetch, calls } = scripted([unavailable, unavailable, unavailable]);
    const error = await clientWith(fetch, [], 2)
      .pendingShipment()
      .catch((e: unknown) => e);
    expect(calls).toHaveLength(3);
    expect(error).toBeInstanceOf(FulfilApiError);
    expect(error).toMatchObject({ status: 503, body: { message: 'down' } });
  });

  it('never retries what asking again cannot mend: 400, 401, 403, 404, 500', async () => {
    for (const status of [400, 401, 403, 404, 500]) {
      const { fetch, calls } = scripted([{ status, body: '{"message":"no"}' }]);
      await expect(clientWith(fetch, []).failed()).rejects.toMatchObject({ status });
      expect(calls).toHaveLength(1);
    }
  });

  it('takes no second attempt when retries are off', async () => {
    const { fetch, calls } = scripted([new TypeError('fetch failed')]);
    const client = createClient({
      baseUrl: 'http://x',
      storeCode: 's',
      token: 't',
      fetch,
      retry: false,
    });
    await expect(client.warehouses()).rejects.toThrow('fetch failed');
    expect(calls).toHaveLength(1);
  });
});

describe('backoff', () => {
  it('grows exponentially with full jitter, capped', () => {
    const options = { retries: 9, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4].map((attempt) => backoffDelay(attempt, options, () => 0.999))).toEqual([
      99, 199, 399, 799, 999,
    ]);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(
      10_000,
    );
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
