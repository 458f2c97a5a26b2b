/**
 * What the environment asks of tracing, read by `fulfil serve` before anything is loaded: the
 * OpenTelemetry SDK is started only when the standard variables ask for traces
 * (docs/monitoring.md, Traces), and never loaded otherwise.
 */

export interface TracingRequest {
  /** Start the SDK: traces are asked for and not disabled. */
  start: boolean;
  /** Exporters to start: OTLP over HTTP (protobuf) and/or one line per span on stderr. */
  exporters: ('otlp' | 'console')[];
  /** `FULFIL_TRACING=off`: no probe at all in this process, SDK or not. */
  probes: boolean;
  /** What was asked that this server does not do, one line each, for stderr. */
  warnings: string[];
}

const truthy = (value: string | undefined) => value?.trim().toLowerCase() === 'true';
const set = (value: string | undefined) => value !== undefined && value.trim() !== '';

/**
 * Traces are asked for by `OTEL_TRACES_EXPORTER` (`otlp`, `console`), or by an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) with the exporter left
 * to its default, `otlp`; `OTEL_SDK_DISABLED=true` and `OTEL_TRACES_EXPORTER=none` turn it off.
 */
export function readTracingRequest(env: NodeJS.ProcessEnv): TracingRequest {
  const warnings: string[] = [];
  const probes = env.FULFIL_TRACING?.trim().toLowerCase() !== 'off';
  const named = env.OTEL_TRACES_EXPORTER;
  const endpoint =
    set(env.OTEL_EXPORTER_OTLP_ENDPOINT) || set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  const exporters: TracingRequest['exporters'] = [];
  if (set(named)) {
    const names = (named as string).split(',').map((part) => part.trim().toLowerCase());
    for (const name of names) {
      if (name === 'otlp' || name === 'console') {
        if (!exporters.includes(name) && !names.includes('none')) exporters.push(name);
      } else if (name !== 'none' && name !== '') {
        warnings.push(
          `OTEL_TRACES_EXPORTER=${name}: not an exporter of this server (otlp, console, none)`,
        );
      }
    }
  } else if (endpoint) {
    exporters.push('otlp');
  }
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  if (exporters.includes('otlp') && protocol && protocol !== 'http/protobuf') {
    warnings.push(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: this server exports http/protobuf`);
  }
  const disabled = truthy(env.OTEL_SDK_DISABLED) || !probes;
  return { start: !disabled && exporters.length > 0, exporters, probes, warnings };
}
