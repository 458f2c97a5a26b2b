import { recordStatementSpansFrom } from '@fulfil/storage-kysely';
import type { Sampler, SpanExporter } from '@opentelemetry/sdk-trace';
import type { TracingRequest } from './tracing-env.js';

/**
 * The OpenTelemetry SDK of `fulfil serve`, loaded only when the environment asks for traces
 * (tracing-env.ts): spans in the process's async context, batched, exported over OTLP/HTTP to
 * the collector `OTEL_EXPORTER_OTLP_ENDPOINT` names (the exporter reads its endpoint, headers,
 * timeout and compression from the standard variables itself). Its packages are imported here,
 * on demand: a bundle keeps an `import()` of a package as it is, while it would hoist a static
 * import to the top of the CLI, where every command would load it.
 */
async function loadSdk() {
  const [api, contextHooks, core, exporter, resources, sdk] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
  ]);
  return { api, contextHooks, core, exporter, resources, sdk };
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

export interface RunningTracing {
  /** Exports the spans still queued, then stops. */
  shutdown(): Promise<void>;
}

/** `OTEL_TRACES_SAMPLER` and its argument, as the specification names them. */
function samplerOf({ core, sdk }: Sdk, warnings: string[]): Sampler {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = sdk;
  const name =
    core.getStringFromEnv('OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on';
  const ratio = core.getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG') ?? 1;
  const ratioSampler = () => new TraceIdRatioBasedSampler(Math.min(1, Math.max(0, ratio)));
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratioSampler();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratioSampler() });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    default:
      warnings.push(
        `OTEL_TRACES_SAMPLER=${name}: not a sampler of this server; parentbased_always_on`,
      );
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

function exporterOf(
  { exporter, sdk }: Sdk,
  name: TracingRequest['exporters'][number],
): SpanExporter {
  return name === 'otlp' ? new exporter.OTLPTraceExporter() : new sdk.ConsoleSpanExporter();
}

/**
 * The batch processor's sizes where `OTEL_BSP_*` says nothing. An accept makes some twenty
 * spans, so a busy server ends thousands a second: the specification's queue (2048) holds a
 * fraction of a second of them, and a collector that is slow for a moment would cost spans. This
 * one holds about a second of a busy server's (a few MB), exported 1024 at a time: half as many
 * exports for the same spans.
 */
const MAX_QUEUE_SIZE = 8192;
const MAX_EXPORT_BATCH_SIZE = 1024;

/**
 * Registers the SDK globally: the engine's and the storage's spans, which go through
 * `@opentelemetry/api`, are recorded from now on. `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES` describe the process (service `fulfil` by default); the batch
 * processor takes its sizes and delays from `OTEL_BSP_*`, its sizes else from the constants above.
 */
export async function startTracing(
  request: TracingRequest,
): Promise<{ running: RunningTracing; warnings: string[] }> {
  const loaded = await loadSdk();
  const { api, contextHooks, core, resources, sdk } = loaded;
  const { getNumberFromEnv } = core;
  const warnings: string[] = [];
  // Export failures (a collector away) are told on stderr, not silently dropped.
  api.diag.setLogger(
    new api.DiagConsoleLogger(),
    core.diagLogLevelFromString(core.getStringFromEnv('OTEL_LOG_LEVEL') ?? 'error'),
  );
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'fulfil' })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const maxQueueSize = getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE') ?? MAX_QUEUE_SIZE;
  const maxExportBatchSize =
    getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE') ??
    Math.min(MAX_EXPORT_BATCH_SIZE, maxQueueSize);
  const provider = new sdk.TracerProvider({
    resource,
    sampler: samplerOf(loaded, warnings),
    spanProcessors: request.exporters.map(
      (name) =>
        new sdk.BatchSpanProcessor({
          exporter: exporterOf(loaded, name),
          maxQueueSize,
          maxExportBatchSize,
          ...optional('scheduledDelayMillis', getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY')),
          ...optional('exportTimeoutMillis', getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT')),
        }),
    ),
  });
  const { context, propagation, trace } = api;
  const contextManager = new contextHooks.AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(
    new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
  );
  trace.setGlobalTracerProvider(provider);
  recordStatementSpansFrom(request.statementMinMs);
  return {
    warnings,
    running: {
      async shutdown() {
        await provider.shutdown();
        recordStatementSpansFrom(0);
        trace.disable();
        propagation.disable();
        context.disable();
        contextManager.disable();
      },
    },
  };
}

function optional<Key extends string>(
  key: Key,
  value: number | undefined,
): Partial<Record<Key, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<Key, number>);
}
