import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll } from 'vitest';

/**
 * An OpenTelemetry SDK registered for the whole test file, as an app embedding the engine would
 * register its own: every span ends in memory, where the tests read them.
 */
export function registerTestSdk(): { exporter: InMemorySpanExporter; provider: TracerProvider } {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });
  return { exporter, provider };
}

export const idOf = (span: ReadableSpan) => span.spanContext().spanId;

/** Whether `span` descends from `ancestor` through the parents recorded among `spans`. */
export function descendsFrom(
  span: ReadableSpan,
  ancestor: ReadableSpan,
  spans: readonly ReadableSpan[],
): boolean {
  const byId = new Map(spans.map((one) => [idOf(one), one]));
  let parent = span.parentSpanContext?.spanId;
  while (parent !== undefined) {
    if (parent === idOf(ancestor)) return true;
    parent = byId.get(parent)?.parentSpanContext?.spanId;
  }
  return false;
}

/** The spans of the statements (`db.system.name` set). */
export const statementSpans = (spans: readonly ReadableSpan[]) =>
  spans.filter((span) => span.attributes['db.system.name'] !== undefined);
