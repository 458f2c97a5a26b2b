import { randomBytes } from 'node:crypto';
import { createEngine, type Engine, ManualClock } from '@fulfil/core';
import { recordStatementSpansFrom } from '@fulfil/storage-kysely';
import { SpanKind } from '@opentelemetry/api';
import { afterEach, describe, expect, test } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import { call, START, TOKENS, testSeed } from '../http/support.js';
import { countStatements } from './driver-statements.js';
import { type Place, places } from './places.js';
import { descendsFrom, idOf, registerTestSdk, statementSpans } from './sdk.js';

/**
 * An accept over HTTP makes one trace: the request's server span, the use case's span under
 * it, and a span for every statement the request ran at the driver, each a descendant of the
 * server span, with OpenTelemetry's database attributes and no bound value.
 */

const { exporter } = registerTestSdk();
let open: { place: Place; engine: Engine; server: RunningHttpServer } | undefined;
afterEach(async () => {
  await open?.server.close();
  await open?.place.drop();
  open = undefined;
});

async function serve(makePlace: () => Promise<Place>, bodyLimit?: number) {
  const place = await makePlace();
  const engine = createEngine({ repository: place.repository, clock: new ManualClock(START) });
  await engine.loadSeed(testSeed());
  const server = await startHttpServer({
    engine,
    log: () => {},
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
  });
  open = { place, engine, server };
  return open;
}

describe.each(places)('an accept over HTTP on %s', (_name, makePlace) => {
  test('is one trace: every statement the driver ran is a descendant of the server span', async () => {
    const { place, server } = await serve(makePlace);
    const [offered] = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: TOKENS.partnerA,
    }).then(
      (reply) =>
        reply.body as { fulfillment_order_number: string; items: { id: number; qty: number }[] }[],
    );
    const number = offered?.fulfillment_order_number as string;
    const caller = {
      traceId: randomBytes(16).toString('hex'),
      spanId: randomBytes(8).toString('hex'),
    };
    exporter.reset();

    const statements = countStatements(place.system, caller.traceId);
    let status: number;
    try {
      const reply = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
        token: TOKENS.partnerA,
        headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01` },
        json: {
          order: {
            order_id: number,
            items: offered?.items.map((item) => ({ item_id: item.id, qty: item.qty })),
          },
        },
      });
      status = reply.status;
    } finally {
      statements.stop();
    }
    expect(status).toBe(200);

    const spans = exporter.getFinishedSpans();
    // One trace, the caller's: its traceparent was followed.
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(
      new Set([caller.traceId]),
    );
    const servers = spans.filter((span) => span.kind === SpanKind.SERVER);
    expect(servers).toHaveLength(1);
    const request = servers[0] as (typeof servers)[number];
    expect(request.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(request.name).toBe('POST /rest/{store_code}/V1/fulfillmentOrder/accept');
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/rest/{store_code}/V1/fulfillmentOrder/accept',
      'http.response.status_code': 200,
      'url.path': '/rest/default/V1/fulfillmentOrder/accept',
      'url.scheme': 'http',
    });

    const action = spans.find((span) => span.name === 'fulfil accept');
    expect(action?.attributes).toEqual({
      'fulfil.action': 'accept',
      'fulfil.store': 'default',
      'fulfil.warehouse': 'WH-A',
      'fulfil.order_count': 1,
      'fulfil.outcome': 'ok',
    });
    expect(action && descendsFrom(action, request, spans)).toBe(true);

    // As many statement spans as the driver ran statements, every one under the request.
    const sql = statementSpans(spans);
    expect(statements.count).toBeGreaterThan(3);
    expect(sql).toHaveLength(statements.count);
    for (const span of sql) {
      expect(descendsFrom(span, request, spans), span.name).toBe(true);
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.attributes['db.system.name']).toBe(place.system);
      expect(span.attributes['db.namespace']).toBe(place.namespace);
      expect(span.attributes['db.operation.name']).toMatch(/^[A-Z]+$/);
      expect(span.name).toBe(span.attributes['db.query.summary']);
      // No bound value: the order's number and the token's secret appear in no attribute.
      const values = JSON.stringify(span.attributes);
      expect(values).not.toContain(number);
      expect(values).not.toContain(TOKENS.partnerA);
    }
    const summaries = sql.map((span) => String(span.attributes['db.query.summary']));
    expect(summaries).toContain('SELECT fulfillment_orders');
    // On Postgres the writes nobody reads the answer of go together, as one statement. No stock:
    // the lines hold their reservation since intake routed them.
    for (const write of ['UPDATE fulfillment_orders', 'INSERT audit_events']) {
      expect(
        summaries.filter((summary) => summary.includes(write)),
        write,
      ).not.toEqual([]);
    }
    // Its transaction's own statements are in the trace too.
    expect(sql.map((span) => span.attributes['db.operation.name'])).toContain('COMMIT');
    if (place.system === 'sqlite') {
      // The write went through a group commit of its own: BEGIN and COMMIT under its span.
      const group = spans.find((span) => span.name === 'fulfil group commit');
      expect(group?.attributes['fulfil.group_commit.members']).toBe(1);
      const commit = sql.find((span) => span.attributes['db.operation.name'] === 'COMMIT');
      expect(commit?.parentSpanContext?.spanId).toBe(group && idOf(group));
      // Then the commit waited for the disk: the WAL file's sync, under the group too.
      const sync = spans.find((span) => span.name === 'fulfil WAL sync');
      expect(sync?.parentSpanContext?.spanId).toBe(group && idOf(group));
    }
  });

  test('refused before the handler (a body too large), it still has its server span', async () => {
    const { server } = await serve(makePlace, 256);
    const caller = {
      traceId: randomBytes(16).toString('hex'),
      spanId: randomBytes(8).toString('hex'),
    };
    exporter.reset();
    const reply = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
      token: TOKENS.partnerA,
      headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01` },
      json: { order: { order_id: 'x'.repeat(1024), items: [] } },
    });
    expect(reply.status).toBe(413);

    // The handler never ran: no use case, no statement; the server span alone, in the caller's trace.
    const spans = exporter
      .getFinishedSpans()
      .filter((span) => span.spanContext().traceId === caller.traceId);
    expect(spans).toHaveLength(1);
    const [request] = spans as [(typeof spans)[number]];
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.spanContext().traceId).toBe(caller.traceId);
    expect(request.parentSpanContext?.spanId).toBe(caller.spanId);
    // Refused, but routed: it is named after its route.
    expect(request.name).toBe('POST /rest/{store_code}/V1/fulfillmentOrder/accept');
    expect(request.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/rest/{store_code}/V1/fulfillmentOrder/accept',
      'url.path': '/rest/default/V1/fulfillmentOrder/accept',
      'url.scheme': 'http',
      'http.response.status_code': 413,
    });
  });

  test('with a threshold no statement reaches, only the spans above the statements are recorded', async () => {
    const { server } = await serve(makePlace);
    const [offered] = await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: TOKENS.partnerA,
    }).then(
      (reply) =>
        reply.body as { fulfillment_order_number: string; items: { id: number; qty: number }[] }[],
    );
    exporter.reset();
    recordStatementSpansFrom(60_000);
    try {
      const reply = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
        token: TOKENS.partnerA,
        json: {
          order: {
            order_id: offered?.fulfillment_order_number,
            items: offered?.items.map((item) => ({ item_id: item.id, qty: item.qty })),
          },
        },
      });
      expect(reply.status).toBe(200);
    } finally {
      recordStatementSpansFrom(0);
    }
    const spans = exporter.getFinishedSpans();
    expect(statementSpans(spans)).toEqual([]);
    expect(spans.map((span) => span.name)).toEqual(
      expect.arrayContaining([
        'POST /rest/{store_code}/V1/fulfillmentOrder/accept',
        'fulfil accept',
      ]),
    );
  });
});
