import { createEngine, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { SpanKind } from '@opentelemetry/api';
import { expect, test } from 'vitest';
import { builtInCouriers } from '../../src/couriers/registry.js';
import { startFakeHttpCourier } from '../couriers/fake-http-courier.js';
import { descendsFrom, idOf, registerTestSdk } from './sdk.js';

/**
 * A carrier call is a client span under the dispatch that made it, and the HTTP courier sends
 * it on as the W3C `traceparent` of its request: a bridge that traces joins the order's trace.
 */

const { exporter } = registerTestSdk();
const SECRET = 'bridge-secret-0123456789abcdef';

test("the HTTP courier's request carries the courier span as its traceparent", async () => {
  const bridge = await startFakeHttpCourier(SECRET);
  const engine = createEngine({
    repository: await openSqliteRepository(':memory:'),
    clock: new ManualClock('2026-06-01T09:00:00Z'),
    couriers: builtInCouriers({ BRIDGE_SECRET: SECRET }),
    carrierAccounts: { bridge: { type: 'http', url: bridge.url, secret_env: 'BRIDGE_SECRET' } },
  });
  try {
    await engine.loadSeed({
      stores: [
        {
          code: 'default',
          settings: { courier: { account: 'bridge' } },
          warehouses: [{ code: 'HQ', name: 'HQ', fulfilled_by: 'courier' }],
          stock: [{ warehouse_code: 'HQ', sku: 'SKU-1', qty: 10 }],
          orders: [
            fixtures.salesOrder('800', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'HQ' }),
          ],
        },
      ],
    });
    const [item] = (await engine.getOrder('default', '800-1')).items;
    await engine.allocate(engine.operator('default'), {
      allocation: { order_id: '800-1', items: [{ item_id: item?.id as number }] },
    });
    exporter.reset();
    expect((await engine.dispatchCourier()).shipped).toEqual(['800-1']);

    const spans = exporter.getFinishedSpans();
    const dispatch = spans.find((span) => span.name === 'fulfil dispatchCourier');
    const call = spans.find((span) => span.name === 'courier create');
    expect(call?.kind).toBe(SpanKind.CLIENT);
    expect(call?.attributes).toEqual({
      'fulfil.courier.carrier': 'http',
      'fulfil.courier.operation': 'create',
      'fulfil.store': 'default',
      'fulfil.outcome': 'ok',
    });
    expect(call && dispatch && descendsFrom(call, dispatch, spans)).toBe(true);
    const [sent] = bridge.requests;
    const context = call?.spanContext();
    expect(sent?.headers.traceparent).toBe(`00-${context?.traceId}-${call && idOf(call)}-01`);
  } finally {
    await engine.close();
    await bridge.close();
  }
});
