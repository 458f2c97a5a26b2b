import { randomBytes } from 'node:crypto';
import { createEngine, type Engine, ManualClock } from '@fulfil/core';
import { recordStatementSpansFrom } from '@fulfil/storage-kysely';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOnSampler,
  InMemorySpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import { call, START, TOKENS, testSeed } from '../http/support.js';
import { countStatements } from './driver-statements.js';
import { type Place, places } from './places.js';

/**
 * A request its caller's trace left out (`traceparent` flags `00`) is served as any other, and
 * the engine asks the SDK for no span under it: only the server span is started (and not
 * recorded), whatever the request runs. A sampled request under the same SDK has all its spans.
 */

const exporter = new InMemorySpanExporter();
let asked = 0;
const parentBased = new ParentBasedSampler({ root: new AlwaysOnSampler() });
/** The default sampler, counting the spans started. */
const counting: Sampler = {
  shouldSample(...args) {
    asked += 1;
    return parentBased.shouldSample(...args);
  },
  toString: () => 'counting',
};
const provider = new TracerProvider({
  sampler: counting,
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
});
const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(provider);
recordStatementSpansFrom(0);
afterAll(async () => {
  recordStatementSpansFrom(0);
  await provider.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
});

let open: { place: Place; engine: Engine; server: RunningHttpServer } | undefined;
afterEach(async () => {
  await open?.server.close();
  await open?.place.drop();
  open = undefined;
});

describe.each(places)('an accept over HTTP on %s', (_name, makePlace) => {
  test('sampled out by its caller: one span started, none recorded; sampled: every one', async () => {
    const place = await makePlace();
    const engine = createEngine({ repository: place.repository, clock: new ManualClock(START) });
    await engine.loadSeed(testSeed());
    const server = await startHttpServer({ engine, log: () => {} });
    open = { place, engine, server };
    const offered = (await call(server, 'GET', '/V1/fulfillmentOrders/pending_accept', {
      token: TOKENS.partnerA,
    }).then((reply) => reply.body)) as {
      fulfillment_order_number: string;
      items: { id: number; qty: number }[];
    }[];
    const accept = async (order: (typeof offered)[number], flags: '00' | '01') => {
      const traceId = randomBytes(16).toString('hex');
      const statements = countStatements(place.system, traceId);
      asked = 0;
      exporter.reset();
      try {
        const reply = await call(server, 'POST', '/V1/fulfillmentOrder/accept', {
          token: TOKENS.partnerA,
          headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}` },
          json: {
            order: {
              order_id: order.fulfillment_order_number,
              items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
            },
          },
        });
        expect(reply.status).toBe(200);
      } finally {
        statements.stop();
      }
      return { statements: statements.count, asked, recorded: exporter.getFinishedSpans() };
    };
    const [first, second, third] = offered;
    if (!first || !second || !third) throw new Error('three orders pending accept expected');

    const out = await accept(first, '00');
    // The work ran, in the caller's trace (the driver saw its statements under it)…
    expect(out.statements).toBeGreaterThan(3);
    // …and the SDK was asked for the server span only.
    expect(out.asked).toBe(1);
    expect(out.recorded).toEqual([]);

    const sampled = await accept(second, '01');
    // The server span, the use case's and one a statement at least.
    expect(sampled.asked).toBeGreaterThan(sampled.statements + 1);
    expect(sampled.recorded).toHaveLength(sampled.asked);

    // Over a threshold every statement reaches, each span is made once its statement is done
    // (the way of a slow statement under the default threshold): none under the server span.
    recordStatementSpansFrom(1e-9);
    const late = await accept(third, '00');
    expect(late.statements).toBeGreaterThan(3);
    expect(late.asked).toBe(1);
    expect(late.recorded).toEqual([]);
  });
});
