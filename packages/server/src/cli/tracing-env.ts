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
  /**
   * `FULFIL_TRACING_SQL_MIN_MS`: a statement has a span when it took this long or failed
   * (default 1; 0: every statement).
   */
  statementMinMs: number;
  /** What was asked that this server does not do, one line each, for stderr. */
  warnings: string[];
}

/**
 * Statements quicker than this get no span from `serve`: most SQLite statements take a few
 * dozen microseconds, less than the SDK takes to record a span, and a trace is read for where
 * the time went. A COMMIT waiting for the disk, a slow query, a lock wait are all above it.
 */
export const DEFAULT_STATEMENT_MIN_MS = 1;

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
  let statementMinMs = DEFAULT_STATEMENT_MIN_MS;
  const minMs = env.FULFIL_TRACING_SQL_MIN_MS?.trim();
  if (minMs) {
    const parsed = Number(minMs);
    if (Number.isFinite(parsed) && parsed >= 0) statementMinMs = parsed;
    else {
      warnings.push(
        `FULFIL_TRACING_SQL_MIN_MS=${minMs}: not a number of ms >= 0; ${DEFAULT_STATEMENT_MIN_MS}`,
      );
    }
  }
  return { start: !disabled && exporters.length > 0, exporters, probes, statementMinMs, warnings };
}
