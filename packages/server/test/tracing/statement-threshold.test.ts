import { recordStatementSpansFrom } from '@fulfil/storage-kysely';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { sql } from 'kysely';
import { afterEach, describe, expect, test } from 'vitest';
import { type Place, places } from './places.js';
import { registerTestSdk, statementSpans } from './sdk.js';

/**
 * With a threshold (`FULFIL_TRACING_SQL_MIN_MS` of `fulfil serve`), a statement has a span only
 * when it took that long or failed. The threshold here is a minute, which no statement takes:
 * the test holds without timing anything.
 */

const { exporter } = registerTestSdk();
const A_MINUTE = 60_000;

let open: Place | undefined;
afterEach(async () => {
  recordStatementSpansFrom(0);
  await open?.drop();
  open = undefined;
});

describe.each(places)('statement spans on %s', (_name, makePlace) => {
  test('under the threshold a statement has no span; a failed one has its span all the same', async () => {
    open = await makePlace();
    const { db } = open.repository;
    recordStatementSpansFrom(A_MINUTE);
    exporter.reset();
    await sql`select 1 as one`.execute(db);
    await expect(sql`select * from no_such_table`.execute(db)).rejects.toThrow();

    const spans = statementSpans(exporter.getFinishedSpans());
    expect(spans).toHaveLength(1);
    const [failed] = spans as [(typeof spans)[number]];
    expect(failed.name).toBe('SELECT no_such_table');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes['error.type']).toEqual(expect.any(String));
    expect(failed.attributes['db.system.name']).toBe(open.system);

    // Without a threshold, every statement again.
    recordStatementSpansFrom(0);
    exporter.reset();
    await sql`select 1 as one`.execute(db);
    expect(statementSpans(exporter.getFinishedSpans()).map((span) => span.name)).toEqual([
      'SELECT',
    ]);
  });

  test('a span made once its statement is done is a child of the span the statement ran in', async () => {
    open = await makePlace();
    const { db } = open.repository;
    // Above 0, so each span is made after its statement, yet below anything a statement takes.
    recordStatementSpansFrom(Number.MIN_VALUE);
    exporter.reset();
    const tracer = trace.getTracer('test');
    await tracer.startActiveSpan('outer', async (outer) => {
      await sql`select 1 as one`.execute(db);
      await expect(sql`select * from no_such_table`.execute(db)).rejects.toThrow();
      outer.end();
    });
    const finished = exporter.getFinishedSpans();
    const outer = finished.find((span) => span.name === 'outer');
    const spans = statementSpans(finished);
    expect(spans.map((span) => span.name)).toEqual(['SELECT', 'SELECT no_such_table']);
    for (const span of spans) {
      expect(span.parentSpanContext?.spanId, span.name).toBe(outer?.spanContext().spanId);
    }
  });

  test('a threshold is a number of ms, 0 or more', () => {
    expect(() => recordStatementSpansFrom(-1)).toThrow(RangeError);
    expect(() => recordStatementSpansFrom(Number.NaN)).toThrow(RangeError);
  });
});
