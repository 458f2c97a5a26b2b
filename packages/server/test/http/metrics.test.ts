import { createEngine, createSimulatedCarrier, type Engine, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { describe, expect, test } from 'vitest';
import { createMetrics, startCourierLoop } from '../../src/index.js';
import { advance, call, sample, serverPerTest, type TestServer, TOKENS } from './support.js';

/** `GET /metrics` (serve --metrics): the Prometheus series and their values. */

const start = serverPerTest();
const serve = (metrics = true): Promise<TestServer> =>
  start({ server: metrics ? { metrics: createMetrics() } : {} });

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
      sample(text, 'fulfil_http_requests_total{operation="pollPendingAccept",status="200"}'),
    ).toBe(3);
    expect(
      sample(text, 'fulfil_http_requests_total{operation="pollPendingAccept",status="401"}'),
    ).toBe(1);
    expect(sample(text, 'fulfil_http_requests_total{operation="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'fulfil_http_requests_total{operation="health",status="200"}')).toBe(1);

    expect(text).toContain('# TYPE fulfil_http_request_duration_seconds histogram');
    const count = 'fulfil_http_request_duration_seconds_count{operation="pollPendingAccept"}';
    expect(sample(text, count)).toBe(4);
    expect(
      sample(
        text,
        'fulfil_http_request_duration_seconds_bucket{operation="pollPendingAccept",le="+Inf"}',
      ),
    ).toBe(4);
    const buckets = text
      .split('\n')
      .filter((line) =>
        line.startsWith(
          'fulfil_http_request_duration_seconds_bucket{operation="pollPendingAccept"',
        ),
      )
      .map((line) => Number(line.split(' ')[1]));
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(
      sample(text, 'fulfil_http_request_duration_seconds_sum{operation="pollPendingAccept"}'),
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
    expect(sample(text, 'fulfil_http_requests_total{operation="acceptOrder",status="200"}')).toBe(
      1,
    );
  });

  test('returns are counted by status, every status of every store, zeros included', async () => {
    const server = await serve();
    const returns = (status: string) => `fulfil_returns{store="default",status="${status}"}`;
    let text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, returns('pending_receipt'))).toBe(0);
    expect(sample(text, 'fulfil_returns{store="other",status="canceled"}')).toBe(0);
    const shipped = await advance(server, '100001002-1', 'pending_invoice');
    const opened = await call(server, 'POST', '/V1/returns', {
      token: TOKENS.all,
      json: {
        return: fixtures.returnOf('RMA-M', {
          sales_order_number: '100001002',
          fulfillment_order_number: '100001002-1',
          items: shipped.items,
        }),
      },
    });
    expect(opened.status).toBe(201);
    text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, returns('pending_receipt'))).toBe(1);
    const received = await call(server, 'POST', '/V1/return/receive', {
      token: TOKENS.partnerA,
      json: { receipt: fixtures.receiptOf(opened.body, 'RCV-M', 'qty_missing') },
    });
    expect(received.status).toBe(200);
    text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, returns('pending_receipt'))).toBe(0);
    expect(sample(text, returns('closed'))).toBe(1);
  });

  test('open holds and cancellation requests are counted by store and age, zeros included', async () => {
    const server = await serve();
    const holds = (age: string) => `fulfil_open_holds{store="default",age="${age}"}`;
    const requests = (age: string) =>
      `fulfil_open_cancellation_requests{store="default",age="${age}"}`;
    let text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toContain('# TYPE fulfil_open_holds gauge');
    for (const age of ['under_1h', '1h_to_4h', '4h_to_24h', 'over_24h']) {
      expect(sample(text, holds(age)), age).toBe(0);
      expect(sample(text, requests(age)), age).toBe(0);
    }
    expect(sample(text, 'fulfil_open_holds{store="other",age="over_24h"}')).toBe(0);
    const held = await call(server, 'POST', '/V1/salesOrder/hold', {
      token: TOKENS.all,
      json: { hold: { sales_order_number: '000123', handle: 'pay', reason: 'awaiting_payment' } },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    await advance(server, '100001002-1', 'pending_allocation');
    const canceled = await call(server, 'POST', '/V1/salesOrder/cancel', {
      token: TOKENS.all,
      json: { cancellation: { sales_order_number: '100001002', reason: 'customer' } },
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, holds('under_1h'))).toBe(1);
    expect(sample(text, requests('under_1h'))).toBe(1);
    server.clock.advance(2 * 3_600_000);
    text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, holds('under_1h'))).toBe(0);
    expect(sample(text, holds('1h_to_4h'))).toBe(1);
    expect(sample(text, requests('1h_to_4h'))).toBe(1);
    server.clock.advance(30 * 3_600_000);
    text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, holds('over_24h'))).toBe(1);
    expect(sample(text, requests('over_24h'))).toBe(1);
    expect(sample(text, requests('4h_to_24h'))).toBe(0);
  });

  test('an abandoned order leaves the failed queue depth; the failures are counted by state', async () => {
    const server = await serve();
    const failedDepth = 'fulfil_queue_depth{store="default",queue="failed"}';
    const failures = (state: string) => `fulfil_failed_orders{store="default",state="${state}"}`;
    await server.engine.failOrder('default', '100001002-1', 'no stock');
    await server.engine.failOrder('default', '100001001-1', 'damaged');
    let text = await (await fetch(`${server.url}/metrics`)).text();
    expect(sample(text, failedDepth)).toBe(2);
    expect(sample(text, failures('open'))).toBe(2);
    expect(sample(text, failures('abandoned'))).toBe(0);

    await server.engine.abandonOrder('default', '100001002-1');
    await server.engine.abandonOrder('default', '100001001-1');
    text = await (await fetch(`${server.url}/metrics`)).text();
    // Still listed in failed (the contract allows it), yet nothing is left to alert on.
    const listed = await call(server, 'GET', '/V1/fulfillmentOrders/failed', { token: TOKENS.all });
    expect(listed.body).toHaveLength(2);
    expect(sample(text, failedDepth)).toBe(0);
    expect(sample(text, failures('open'))).toBe(0);
    expect(sample(text, failures('abandoned'))).toBe(2);
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
        return {
          shipped: ['A-1', 'B-1'],
          retrying: ['C-1'],
          failed: round === 3 ? ['D-1'] : [],
          voided: [],
          void_failed: [],
        };
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

  test('each carrier call is counted by carrier, operation and outcome, and timed', async () => {
    const metrics = createMetrics();
    let calls = 0;
    const carrier = createSimulatedCarrier({ faults: () => (calls++ === 0 ? 'throttle' : null) });
    const clock = new ManualClock('2026-07-01T09:00:00Z');
    const engine = createEngine({
      repository: await openSqliteRepository(':memory:'),
      clock,
      couriers: { bridge: carrier.factory },
      carrierAccounts: { bridge: { type: 'bridge' } },
      onCourierCall: (event) => metrics.observeCourierCall(event),
    });
    try {
      await engine.loadSeed({
        stores: [
          {
            code: 'default',
            settings: { courier: { account: 'bridge' } },
            warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
            stock: [{ warehouse_code: 'HQ', sku: 'SKU-1', qty: 5 }],
            orders: [fixtures.salesOrder('900', undefined, { warehouse_code: 'HQ' })],
          },
        ],
      });
      const [item] = (await engine.getOrder('default', '900-1')).items;
      await engine.allocate(engine.operator('default'), {
        allocation: { order_id: '900-1', items: [{ item_id: item?.id as number }] },
      });
      await engine.dispatchCourier();
      clock.advance(60_000);
      await engine.dispatchCourier();
    } finally {
      await engine.close();
    }
    const text = metrics.render([]);
    const counted = (outcome: string) =>
      sample(
        text,
        `fulfil_courier_calls_total{carrier="bridge",operation="create",outcome="${outcome}"}`,
      );
    expect([counted('retriable'), counted('ok')]).toEqual([1, 1]);
    expect(
      sample(
        text,
        'fulfil_courier_call_duration_seconds_count{carrier="bridge",operation="create"}',
      ),
    ).toBe(2);
  });

  test('label values are escaped', () => {
    const metrics = createMetrics();
    const text = metrics.render([{ store_code: 'a"b\\c\nd', queue: 'failed', orders: 2 }]);
    expect(sample(text, 'fulfil_queue_depth{store="a\\"b\\\\c\\nd",queue="failed"}')).toBe(2);
  });
});
