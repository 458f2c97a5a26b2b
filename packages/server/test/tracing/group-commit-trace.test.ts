import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, ManualClock } from '@fulfil/core';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { trace } from '@opentelemetry/api';
import { expect, test } from 'vitest';
import { START, TOKENS, testSeed } from '../http/support.js';
import { countStatements } from './driver-statements.js';
import { descendsFrom, idOf, registerTestSdk, statementSpans } from './sdk.js';

/**
 * Two accepts that share one group commit: the group's transaction runs in the context of the
 * first, yet each member's statements (its savepoint's included) stay in its own caller's trace,
 * and the group's span links to both callers.
 */

const { exporter } = registerTestSdk();

test("a member's statements are in its own trace, whichever request began the group", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fulfil-group-trace-'));
  const repository = await openSqliteRepository(join(dir, 'group.db'));
  const engine = createEngine({ repository, clock: new ManualClock(START) });
  try {
    await engine.loadSeed(testSeed());
    const partner = await engine.authenticate('default', TOKENS.partnerA);
    const orders = await engine.poll(partner, 'pending_accept');
    const bodies = orders.map((order) => ({
      order: {
        order_id: order.fulfillment_order_number,
        items: order.items.map((item) => ({ item_id: item.id, qty: item.qty })),
      },
    }));
    const pair = bodies.slice(0, 2);
    expect(pair).toHaveLength(2);
    exporter.reset();

    const tracer = trace.getTracer('test');
    const statements = countStatements('sqlite');
    try {
      // Both asked for in one turn of the event loop: one group carries them.
      await Promise.all(
        pair.map((body, index) =>
          tracer.startActiveSpan(`request ${index}`, (span) =>
            engine.accept(partner, body).finally(() => span.end()),
          ),
        ),
      );
    } finally {
      statements.stop();
    }

    const spans = exporter.getFinishedSpans();
    const named = (name: string) => {
      const span = spans.find((one) => one.name === name);
      if (!span) throw new Error(`no span ${name}`);
      return span;
    };
    const a = named('request 0');
    const b = named('request 1');
    const group = spans.find((span) => span.name === 'fulfil group commit');
    expect(group?.attributes['fulfil.group_commit.members']).toBe(2);
    expect(group && descendsFrom(group, a, spans)).toBe(true);
    expect(group?.links.map((link) => link.context.spanId).sort()).toEqual(
      spans
        .filter((span) => span.name === 'fulfil accept')
        .map(idOf)
        .sort(),
    );

    const sql = statementSpans(spans);
    expect(sql).toHaveLength(statements.count);
    const own = (request: typeof a) =>
      sql.filter((span) => span.spanContext().traceId === request.spanContext().traceId);
    for (const span of sql) {
      const operation = span.attributes['db.operation.name'];
      if (operation === 'BEGIN' || operation === 'COMMIT') {
        // The group's own: under its span, in the trace of the request that began it.
        expect(span.parentSpanContext?.spanId).toBe(group && idOf(group));
      } else {
        const mine = span.spanContext().traceId === a.spanContext().traceId ? a : b;
        expect(descendsFrom(span, mine, spans), String(span.name)).toBe(true);
      }
    }
    // Each request's trace holds its own reads, writes and savepoint (kept until the COMMIT,
    // never released).
    for (const request of [a, b]) {
      const summaries = own(request).map((span) => span.attributes['db.query.summary']);
      expect(summaries).toContain('UPDATE fulfillment_orders');
      expect(summaries).toContain('SAVEPOINT');
      expect(summaries).not.toContain('RELEASE');
    }
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
