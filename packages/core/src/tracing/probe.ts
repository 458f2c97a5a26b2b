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

/** Attributes as a span takes them: none undefined. */
export type SpanAttributeValues = Readonly<
  Record<string, string | number | boolean | readonly string[]>
>;

/**
 * A span that is the same for every call of its kind (a statement's): its name and attributes
 * are built once and handed to every span of it, and the channel's message is made only for a
 * subscriber, afresh each time (Node adds `result` or `error` to it).
 */
export interface SpanShape<Message> {
  readonly name: string;
  readonly attributes: SpanAttributeValues;
  message(): Message;
  /**
   * The work is one synchronous call, done or thrown by the time it returns its promise, and
   * nothing in it is traced (a SQLite statement: better-sqlite3 through kysely). Its span need
   * not become the active one, and how long it took is known as soon as it returns.
   */
  readonly leaf: boolean;
}

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

/** `attributes` without those left undefined, which a span does not take. */
export function defined(attributes: SpanAttributes): SpanAttributeValues {
  // Most have none undefined: those are handed on as they are, not copied.
  let complete = true;
  for (const key in attributes) {
    if (attributes[key] === undefined) {
      complete = false;
      break;
    }
  }
  if (complete) return attributes as SpanAttributeValues;
  const kept: Record<string, string | number | boolean | readonly string[]> = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) kept[key] = value;
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
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) span.setAttribute(key, value as string);
  }
  if (attributes['error.type'] !== undefined) {
    span.setStatus({ code: openTelemetry?.SpanStatusCode.ERROR ?? 2 });
  }
}

/** Runs `start`, and ends `span` once the work it started settles. */
function endAfter<Result>(
  span: Span,
  start: () => Promise<Result>,
  settle: Settle<Result> | undefined,
): Promise<Result> {
  let running: Promise<Result>;
  try {
    running = start();
  } catch (error) {
    return failSpan(span, error, settle);
  }
  return endWhenSettled(span, running, settle);
}

/** Ends `span` once `running` settles, with what `settle` tells of its result or error. */
function endWhenSettled<Result>(
  span: Span,
  running: Promise<Result>,
  settle: Settle<Result> | undefined,
): Promise<Result> {
  return running.then(
    (result) => {
      if (settle?.result) settleResult(span, settle.result(result));
      span.end();
      return result;
    },
    (error: unknown) => failSpan(span, error, settle),
  );
}

function failSpan(span: Span, error: unknown, settle: Settle<never> | undefined): never {
  markFailed(span, error, settle);
  span.end();
  throw error;
}

/** W3C's sampled flag (`TraceFlags.SAMPLED`), without loading the API for it. */
const SAMPLED = 1;

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

  /**
   * The tracer to make a span with now, or undefined. Under a span its sampler left out (not
   * recording, not sampled) none is made: the standard samplers would leave out its children
   * too (the parent-based ones follow their parent, the ratio ones decide by the trace id, which
   * the child shares), and a span costs its IDs, attributes, context and promise even unrecorded.
   * A server span is always made: its parent is the caller's, from the headers.
   */
  #recording(): Tracer | undefined {
    const tracer = this.#tracer.active();
    if (!tracer || this.#options.kind === 'server') return tracer;
    return this.#parentLeftOut() ? undefined : tracer;
  }

  /** Whether the active span is one its sampler left out: neither recorded nor sampled. */
  #parentLeftOut(): boolean {
    const parent = (openTelemetry as NonNullable<typeof openTelemetry>).trace.getActiveSpan();
    return (
      parent !== undefined &&
      !parent.isRecording() &&
      (parent.spanContext().traceFlags & SAMPLED) === 0
    );
  }

  /** Runs `work` inside a span of the message `describe()` builds, when anyone listens. */
  trace<Result>(
    describe: () => Message,
    work: () => Promise<Result>,
    settle?: Settle<Result>,
  ): Promise<Result> {
    const tracer = this.#recording();
    const heard = listened(this.channel);
    if (!tracer && !heard) return work();
    const message = describe();
    if (!heard) return this.#spanned(tracer as Tracer, message, work, settle);
    const run = tracer ? () => this.#spanned(tracer, message, work, settle) : work;
    return this.channel.tracePromise(run, message);
  }

  /**
   * `trace` of a span whose name and attributes `shape` holds, built once for many calls. With
   * `minMs` above 0, the span is recorded only when its work took that long or failed: made once
   * the work has settled, with the times it ran, under the span active when it began (so no span
   * of what the work did can be its child). The channel hears every call either way.
   */
  traceShaped<Result>(
    shape: SpanShape<Message>,
    work: () => Promise<Result>,
    settle?: Settle<Result>,
    minMs = 0,
  ): Promise<Result> {
    // Past a threshold, most statements make no span: their parent is looked at when one is.
    const tracer = minMs > 0 ? this.#tracer.active() : this.#recording();
    const heard = listened(this.channel);
    if (!tracer && !heard) return work();
    const slowOnly = minMs > 0;
    if (!heard) {
      return slowOnly
        ? this.#recordedIfSlow(tracer as Tracer, shape, work, settle, minMs)
        : this.#spannedShape(tracer as Tracer, shape, work, settle);
    }
    const run = !tracer
      ? work
      : slowOnly
        ? () => this.#recordedIfSlow(tracer, shape, work, settle, minMs)
        : () => this.#spannedShape(tracer, shape, work, settle);
    return this.channel.tracePromise(run, shape.message());
  }

  /** `traceShaped` for synchronous work. */
  traceShapedSync<Result>(shape: SpanShape<Message>, work: () => Result, minMs = 0): Result {
    const tracer = minMs > 0 ? this.#tracer.active() : this.#recording();
    const heard = listened(this.channel);
    if (!tracer && !heard) return work();
    const run = !tracer
      ? work
      : minMs > 0
        ? () => this.#recordedIfSlowSync(tracer, shape, work, minMs)
        : () => this.#endedSync(tracer.startSpan(shape.name, this.#optionsOf(shape)), work);
    return heard ? this.channel.traceSync(run, shape.message()) : run();
  }

  /** `trace` for synchronous work (a routing decision). */
  traceSync<Result>(describe: () => Message, work: () => Result, settle?: Settle<Result>): Result {
    const tracer = this.#recording();
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

  /** The span of `message`, started as a child of the caller's span (or of the headers'). */
  #start(tracer: Tracer, message: Message, name: string, attributes: SpanAttributeValues) {
    const api = openTelemetry as NonNullable<typeof openTelemetry>;
    const headers = this.#options.headersOf?.(message);
    const parent = headers
      ? api.propagation.extract(api.context.active(), headers)
      : api.context.active();
    const links = this.#options.links?.(message).map((context) => ({
      context: context as SpanContext,
    }));
    const span = tracer.startSpan(
      name,
      links && links.length > 0
        ? { kind: this.#kind, attributes, links }
        : { kind: this.#kind, attributes },
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
    const { span, context, api } = this.#start(
      tracer,
      message,
      this.#options.spanName(message),
      defined(this.#options.attributes(message)),
    );
    return endAfter(span, () => api.context.with(context, work), settle);
  }

  /** A shaped span: a child of the active context's span, and the active one only if no leaf. */
  #spannedShape<Result>(
    tracer: Tracer,
    shape: SpanShape<Message>,
    work: () => Promise<Result>,
    settle: Settle<Result> | undefined,
  ): Promise<Result> {
    const span = tracer.startSpan(shape.name, this.#optionsOf(shape));
    if (shape.leaf) return endAfter(span, work, settle);
    const api = openTelemetry as NonNullable<typeof openTelemetry>;
    const context = api.trace.setSpan(api.context.active(), span);
    return endAfter(span, () => api.context.with(context, work), settle);
  }

  /**
   * The span of `shape`, made after its work only when that took `minMs` or more, or failed.
   * Its parent is the context active when the work began: a promise's callbacks run in the
   * context they were attached in, so it is read only when a span is made.
   */
  #recordedIfSlow<Result>(
    tracer: Tracer,
    shape: SpanShape<Message>,
    work: () => Promise<Result>,
    settle: Settle<Result> | undefined,
    minMs: number,
  ): Promise<Result> {
    const started = performance.now();
    let running: Promise<Result>;
    try {
      running = work();
    } catch (error) {
      return failSpan(this.#madeAfter(tracer, shape, started), error, settle);
    }
    // A leaf is done on return: a quick one costs two clock reads, not a promise more.
    if (shape.leaf && performance.now() - started < minMs) return running;
    return running.then(
      (result) => {
        const ended = performance.now();
        if (ended - started >= minMs) {
          const span = this.#madeAfter(tracer, shape, started);
          if (settle?.result) settleResult(span, settle.result(result));
          span.end(ended);
        }
        return result;
      },
      (error: unknown) => failSpan(this.#madeAfter(tracer, shape, started), error, settle),
    );
  }

  /** `#recordedIfSlow` for synchronous work. */
  #recordedIfSlowSync<Result>(
    tracer: Tracer,
    shape: SpanShape<Message>,
    work: () => Result,
    minMs: number,
  ): Result {
    const started = performance.now();
    let result: Result;
    try {
      result = work();
    } catch (error) {
      return failSpan(this.#madeAfter(tracer, shape, started), error, undefined);
    }
    const ended = performance.now();
    if (ended - started >= minMs) this.#madeAfter(tracer, shape, started).end(ended);
    return result;
  }

  /**
   * A span of `shape` made once its work is done, started when the work was, in this context;
   * under a span its sampler left out, one that records nothing.
   */
  #madeAfter(tracer: Tracer, shape: SpanShape<Message>, started: number): Span {
    if (!this.#parentLeftOut()) {
      return tracer.startSpan(shape.name, this.#optionsOf(shape, started));
    }
    const api = openTelemetry as NonNullable<typeof openTelemetry>;
    return api.trace.wrapSpanContext(api.INVALID_SPAN_CONTEXT);
  }

  /** The options of a span of `shape`; `startTime` (a `performance.now()`) for one made after. */
  #optionsOf(shape: SpanShape<Message>, startTime?: number) {
    const attributes = shape.attributes as Record<string, string>;
    return startTime === undefined
      ? { kind: this.#kind, attributes }
      : { kind: this.#kind, attributes, startTime };
  }

  #spannedSync<Result>(
    tracer: Tracer,
    message: Message,
    work: () => Result,
    settle: Settle<Result> | undefined,
  ): Result {
    const { span, context, api } = this.#start(
      tracer,
      message,
      this.#options.spanName(message),
      defined(this.#options.attributes(message)),
    );
    return this.#endedSync(span, () => api.context.with(context, work), settle);
  }

  /** Runs `work`, then ends `span` with what `settle` tells of its result or error. */
  #endedSync<Result>(span: Span, work: () => Result, settle?: Settle<Result>): Result {
    try {
      const result = work();
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
