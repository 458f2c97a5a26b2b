import type { Engine } from '@fulfil/core';
import { describe, expect, test } from 'vitest';
import { createMetrics, startCourierLoop } from '../../src/index.js';
import { call, serverPerTest, type TestServer, TOKENS } from './support.js';

/** `GET /metrics` (serve --metrics): the Prometheus series and their values. */

const start = serverPerTest();
const serve = (metrics = true): Promise<TestServer> =>
  start({ server: metrics ? { metrics: createMetrics() } : {} });

/** The value of one sample line, or undefined when the exposition has no such line. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  test('requests by operation and status, latency, queue depths; no token needed', async () => {
    const server = await serve();
    for (let poll = 0; poll < 3; poll++) {
      await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', { token: TOKENS.all });
    }
    await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', { token: 'wrong' });
    await call(server, 'GET', '/V1/nothing');
    await fetch(`${server.url}/health`);

    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const text = await response.text();

    expect(text).toContain('# TYPE fulfil_http_requests_total counter');
    expect(
      sample(text, 'fulfil_http_requests_total{operation="poll_pending_accept",status="200"}'),
    ).toBe(3);
    expect(
      sample(text, 'fulfil_http_requests_total{operation="poll_pending_accept",status="401"}'),
    ).toBe(1);
    expect(sample(text, 'fulfil_http_requests_total{operation="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'fulfil_http_requests_total{operation="health",status="200"}')).toBe(1);

    expect(text).toContain('# TYPE fulfil_http_request_duration_seconds histogram');
    const count = 'fulfil_http_request_duration_seconds_count{operation="poll_pending_accept"}';
    expect(sample(text, count)).toBe(4);
    expect(
      sample(
        text,
        'fulfil_http_request_duration_seconds_bucket{operation="poll_pending_accept",le="+Inf"}',
      ),
    ).toBe(4);
    const buckets = text
      .split('\n')
      .filter((line) =>
        line.startsWith(
          'fulfil_http_request_duration_seconds_bucket{operation="poll_pending_accept"',
        ),
      )
      .map((line) => Number(line.split(' ')[1]));
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(
      sample(text, 'fulfil_http_request_duration_seconds_sum{operation="poll_pending_accept"}'),
    ).toBeGreaterThan(0);

    // The seed's four orders all wait for acceptance; the other store has none anywhere.
    expect(sample(text, 'fulfil_queue_depth{store="default",queue="pending_accept"}')).toBe(4);
    expect(sample(text, 'fulfil_queue_depth{store="default",queue="pending_shipment"}')).toBe(0);
    expect(sample(text, 'fulfil_queue_depth{store="other",queue="failed"}')).toBe(0);
    expect(sample(text, 'fulfil_database_up')).toBe(1);
  });

  test('queue depths follow the actions', async () => {
    const server = await serve();
    const queues = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: TOKENS.partnerA,
    });
    const order = queues.body.find(
      (candidate: { fulfillment_order_number: string }) =>
        candidate.fulfillment_order_number === '100001002-1',
    );
    const accepted = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      json: {
        order: {
          order_id: '100001002-1',
          items: order.items.map((item: { id: number; qty: number }) => ({
            item_id: item.id,
            qty: item.qty,
          })),
        },
      },
    });
    expect(accepted.status).toBe(200);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, 'fulfil_queue_depth{store="default",queue="pending_accept"}')).toBe(3);
    expect(sample(text, 'fulfil_queue_depth{store="default",queue="pending_allocation"}')).toBe(1);
    expect(sample(text, 'fulfil_http_requests_total{operation="accept",status="200"}')).toBe(1);
  });

  test('with the database away, the process series still come, and database_up is 0', async () => {
    const server = await serve();
    await fetch(`${server.url}/health`);
    await server.engine.close();
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(sample(text, 'fulfil_database_up')).toBe(0);
    expect(sample(text, 'fulfil_http_requests_total{operation="health",status="200"}')).toBe(1);
    expect(text).not.toContain('fulfil_queue_depth{');
  });

  test('off unless asked for: 404', async () => {
    const server = await serve(false);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });
});

describe('courier outcomes', () => {
  test('each round is counted, and each order by its outcome', async () => {
    const metrics = createMetrics();
    let round = 0;
    const engine: Pick<Engine, 'dispatchCourier'> = {
      dispatchCourier: async () => {
        round += 1;
        if (round === 2) throw new Error('courier down');
        return { shipped: ['A-1', 'B-1'], retrying: ['C-1'], failed: round === 3 ? ['D-1'] : [] };
      },
    };
    const stop = startCourierLoop(engine, { intervalMs: 1, log: () => {}, metrics });
    while (round < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await stop();
    const text = metrics.render([]);
    const ok = sample(text, 'fulfil_courier_rounds_total{result="ok"}') ?? 0;
    expect(ok).toBe(round - 1);
    expect(sample(text, 'fulfil_courier_rounds_total{result="error"}')).toBe(1);
    expect(sample(text, 'fulfil_courier_orders_total{outcome="shipped"}')).toBe(2 * ok);
    expect(sample(text, 'fulfil_courier_orders_total{outcome="retrying"}')).toBe(ok);
    expect(sample(text, 'fulfil_courier_orders_total{outcome="failed"}')).toBe(1);
  });

  test('label values are escaped', () => {
    const metrics = createMetrics();
    const text = metrics.render([{ store_code: 'a"b\\c\nd', queue: 'failed', orders: 2 }]);
    expect(sample(text, 'fulfil_queue_depth{store="a\\"b\\\\c\\nd",queue="failed"}')).toBe(2);
  });
});
