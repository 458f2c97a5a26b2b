import { createRequire } from 'node:module';
import type * as OpenTelemetryApi from '@opentelemetry/api';

/**
 * `@opentelemetry/api`, an optional peer: what spans go through when the app has installed it
 * and registered an SDK, undefined when it is not installed. Loaded with `require`, which is
 * synchronous (an `import()` would leave the first requests of the process untraced, and top-level
 * await would break `require()` of this package); its registrations are process-wide globals,
 * so this copy sees the SDK an app registered through its own `import` of the package.
 */
export type OpenTelemetry = typeof OpenTelemetryApi;
export type Span = OpenTelemetryApi.Span;
export type SpanContext = OpenTelemetryApi.SpanContext;
export type Tracer = OpenTelemetryApi.Tracer;

function load(): OpenTelemetry | undefined {
  try {
    return createRequire(import.meta.url)('@opentelemetry/api') as OpenTelemetry;
  } catch {
    return undefined;
  }
}

export const openTelemetry: OpenTelemetry | undefined = load();

/** The provider the API answers with while no SDK is registered: its no-op one. */
const noopProvider = openTelemetry && new openTelemetry.ProxyTracerProvider().getDelegate();

interface DelegatingProvider extends OpenTelemetryApi.TracerProvider {
  getDelegate?(): OpenTelemetryApi.TracerProvider;
}

/**
 * The tracer of `scope` when an SDK is registered, else undefined: a few property reads, so that
 * a probe with nobody listening builds nothing. Each scope keeps its tracer while the provider
 * stays the same (an app may register its SDK after importing this package).
 */
export class ScopedTracer {
  readonly #scope: string;
  #provider: OpenTelemetryApi.TracerProvider | undefined;
  #tracer: Tracer | undefined;

  constructor(scope: string) {
    this.#scope = scope;
  }

  active(): Tracer | undefined {
    if (!openTelemetry) return undefined;
    const global: DelegatingProvider = openTelemetry.trace.getTracerProvider();
    const provider = global.getDelegate ? global.getDelegate() : global;
    if (provider === noopProvider) return undefined;
    if (provider !== this.#provider) {
      this.#provider = provider;
      this.#tracer = provider.getTracer(this.#scope);
    }
    return this.#tracer;
  }
}

/**
 * The span context of the current async context's span, opaque to the caller: what a span that
 * serves several callers at once (a group commit) links to (`ProbeOptions.links`). Undefined
 * without a recording span.
 */
export function currentSpanContext(): unknown {
  const span = openTelemetry?.trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext() : undefined;
}

/** The trace and span ids of the current async context's span, for a log line; {} without one. */
export function currentTraceIds(): { trace_id?: string; span_id?: string } {
  const context = openTelemetry?.trace.getActiveSpan()?.spanContext();
  if (!context || !openTelemetry?.trace.isSpanContextValid(context)) return {};
  return { trace_id: context.traceId, span_id: context.spanId };
}

/**
 * The headers that carry the current span to a service this process calls (W3C `traceparent` and
 * `tracestate`, or what the registered propagator writes); {} without a span or a propagator.
 */
export function traceContextHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  openTelemetry?.propagation.inject(openTelemetry.context.active(), carrier);
  return carrier;
}
