import { type TracingChannel, tracingChannel } from 'node:diagnostics_channel';
import { isDomainError } from '../domain/errors.js';
import {
  openTelemetry,
  ScopedTracer,
  type Span,
  type SpanContext,
  type Tracer,
} from './open-telemetry.js';

/** A span's attributes as a probe builds them: codes, numbers, counts and statuses only. */
export type SpanAttributes = Record<
  string,
  string | number | boolean | readonly string[] | undefined
>;

export interface ProbeOptions<Message extends object> {
  /** The TracingChannel (`fulfil:sql` publishes on `tracing:fulfil:sql:start`, …). */
  channel: string;
  /** The instrumentation scope of the spans: the package that emits them. */
  scope: string;
  /**
   * `server` for a request another process made, `client` for a call to another process (a
   * database, a carrier), else `internal`.
   */
  kind: 'internal' | 'client' | 'server';
  spanName(message: Message): string;
  /** The attributes a span starts with. Never a name, an address, an email or a secret. */
  attributes(message: Message): SpanAttributes;
  /**
   * Spans of other traces this one serves (the members of a group commit), as
   * `currentSpanContext` gave them.
   */
  links?(message: Message): readonly unknown[];
  /**
   * The headers of a request this span answers: its parent is the caller's span they name
   * (W3C `traceparent`, or what the registered propagator reads), else the active context's.
   */
  headersOf?(message: Message): Readonly<Record<string, string | readonly string[] | undefined>>;
}

/**
 * What a span adds once its work has settled. A result whose attributes carry `error.type`
 * marks the span failed (a 5xx answer).
 */
export interface Settle<Result> {
  result?(result: Result): SpanAttributes;
  error?(error: unknown): SpanAttributes;
}

/** A bounded name for what went wrong: a domain error's code, a driver's code, or the class. */
export function errorTypeOf(error: unknown): string {
  if (isDomainError(error)) return error.code;
  if (error instanceof Error) {
    const { code } = error as { code?: unknown };
    if (typeof code === 'string' && /^[A-Za-z0-9_]{1,64}$/.test(code)) return code;
    return error.name;
  }
  return typeof error;
}

function defined(attributes: SpanAttributes): Record<string, string | number | boolean | string[]> {
  const kept: Record<string, string | number | boolean | string[]> = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) kept[key] = value as string | number | boolean | string[];
  }
  return kept;
}

/** The span's error status, with the error's type: never its message, which may quote data. */
function markFailed(
  span: Span,
  error: unknown,
  settle: Pick<Settle<unknown>, 'error'> | undefined,
) {
  span.setAttributes(defined({ 'error.type': errorTypeOf(error), ...settle?.error?.(error) }));
  span.setStatus({ code: openTelemetry?.SpanStatusCode.ERROR ?? 2 });
}

function settleResult(span: Span, attributes: SpanAttributes): void {
  span.setAttributes(defined(attributes));
  if (attributes['error.type'] !== undefined) {
    span.setStatus({ code: openTelemetry?.SpanStatusCode.ERROR ?? 2 });
  }
}

function listened(channel: TracingChannel<unknown, object>): boolean {
  // `hasSubscribers` of the whole TracingChannel is Node 20.13+: before it, each of its channels.
  const whole = (channel as { hasSubscribers?: boolean }).hasSubscribers;
  if (whole !== undefined) return whole;
  return (
    channel.start.hasSubscribers ||
    channel.end.hasSubscribers ||
    channel.asyncStart.hasSubscribers ||
    channel.asyncEnd.hasSubscribers ||
    channel.error.hasSubscribers
  );
}

/**
 * One kind of span, emitted two ways: through `@opentelemetry/api` when an SDK is registered
 * (the span is a child of the active context, and the active one while its work runs), and as
 * messages of a diagnostics_channel TracingChannel when it has subscribers. With neither, `trace`
 * runs the work and builds nothing: no message, no attributes, no closure beyond the caller's.
 *
 * The channel's message is the probe's message object; Node's TracingChannel adds `result` or
 * `error` to it once the work settles.
 */
export class Probe<Message extends object> {
  readonly channel: TracingChannel<unknown, Message>;
  readonly #options: ProbeOptions<Message>;
  readonly #tracer: ScopedTracer;
  readonly #kind: number;
  /** The spans this probe started that `amend` may change (server spans only). */
  readonly #started = new WeakSet<Span>();

  constructor(options: ProbeOptions<Message>) {
    this.#options = options;
    this.channel = tracingChannel<unknown, Message>(options.channel);
    this.#tracer = new ScopedTracer(options.scope);
    const kinds = openTelemetry?.SpanKind;
    this.#kind =
      (options.kind === 'server'
        ? kinds?.SERVER
        : options.kind === 'client'
          ? kinds?.CLIENT
          : kinds?.INTERNAL) ?? 0;
  }

  /** Whether a span or a message would be made now: an SDK is registered, or the channel is heard. */
  get enabled(): boolean {
    return listened(this.channel) || this.#tracer.active() !== undefined;
  }

  /** Runs `work` inside a span of the message `describe()` builds, when anyone listens. */
  trace<Result>(
    describe: () => Message,
    work: () => Promise<Result>,
    settle?: Settle<Result>,
  ): Promise<Result> {
    const tracer = this.#tracer.active();
    const heard = listened(this.channel);
    if (!tracer && !heard) return work();
    const message = describe();
    const run = tracer ? () => this.#spanned(tracer, message, work, settle) : work;
    return heard ? this.channel.tracePromise(run, message) : run();
  }

  /** `trace` for synchronous work (a routing decision). */
  traceSync<Result>(describe: () => Message, work: () => Result, settle?: Settle<Result>): Result {
    const tracer = this.#tracer.active();
    const heard = listened(this.channel);
    if (!tracer && !heard) return work();
    const message = describe();
    const run = tracer ? () => this.#spannedSync(tracer, message, work, settle) : work;
    return heard ? this.channel.traceSync(run, message) : run();
  }

  /**
   * Renames the active span and adds `attributes`, when this probe started it (a server span
   * learns its route once the request is routed); does nothing otherwise.
   */
  amend(name: string, attributes: SpanAttributes): void {
    const span = openTelemetry?.trace.getActiveSpan();
    if (!span || !this.#started.has(span)) return;
    span.updateName(name);
    span.setAttributes(defined(attributes));
  }

  #start(tracer: Tracer, message: Message) {
    const api = openTelemetry as NonNullable<typeof openTelemetry>;
    const headers = this.#options.headersOf?.(message);
    const parent = headers
      ? api.propagation.extract(api.context.active(), headers)
      : api.context.active();
    const links = this.#options.links?.(message).map((context) => ({
      context: context as SpanContext,
    }));
    const span = tracer.startSpan(
      this.#options.spanName(message),
      {
        kind: this.#kind,
        attributes: defined(this.#options.attributes(message)),
        ...(links && links.length > 0 ? { links } : {}),
      },
      parent,
    );
    if (this.#options.kind === 'server') this.#started.add(span);
    return { span, context: api.trace.setSpan(parent, span), api };
  }

  #spanned<Result>(
    tracer: Tracer,
    message: Message,
    work: () => Promise<Result>,
    settle: Settle<Result> | undefined,
  ): Promise<Result> {
    const { span, context, api } = this.#start(tracer, message);
    const failed = (error: unknown) => {
      markFailed(span, error, settle);
      span.end();
      throw error;
    };
    let running: Promise<Result>;
    try {
      running = api.context.with(context, work);
    } catch (error) {
      return failed(error);
    }
    return running.then((result) => {
      if (settle?.result) settleResult(span, settle.result(result));
      span.end();
      return result;
    }, failed);
  }

  #spannedSync<Result>(
    tracer: Tracer,
    message: Message,
    work: () => Result,
    settle: Settle<Result> | undefined,
  ): Result {
    const { span, context, api } = this.#start(tracer, message);
    try {
      const result = api.context.with(context, work);
      if (settle?.result) settleResult(span, settle.result(result));
      return result;
    } catch (error) {
      markFailed(span, error, settle);
      throw error;
    } finally {
      span.end();
    }
  }
}
