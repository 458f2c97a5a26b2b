import {
  type ErrorCode,
  type ErrorDetail,
  type ErrorParameter,
  isDomainError,
  renderMessage,
} from '@fulfil/core';

/** The one table from domain error codes to HTTP statuses (docs/behaviour.md). */
export const HTTP_STATUS_OF_ERROR = {
  invalid_request: 400,
  unknown_item: 400,
  partial_not_allowed: 400,
  qty_mismatch: 400,
  wrong_stage: 400,
  order_failed: 400,
  order_on_hold: 400,
  invoice_mismatch: 400,
  conflicts_with_applied: 400,
  invalid_stock_batch: 400,
  invalid_seed: 400,
  credit_mismatch: 400,
  not_found: 404,
  already_exists: 409,
  stock_changed: 409,
  unauthenticated: 401,
  forbidden: 403,
  cursor_expired: 410,
  unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

/** Seconds a 503 tells the client to wait before it tries again. */
export const RETRY_AFTER_SECONDS = 1;

/** One problem of an error body: the spec's `message` and `parameters`, and its `detail`. */
export type ErrorEntry = ErrorDetail & { detail: string };

/**
 * The spec's error body (docs/behaviour.md), one shape whatever the status. `message` keeps its
 * `%name` placeholders; `detail` is the same text with them filled in, for a person to read (an
 * addition the spec's error body leaves room for); `errors` has one entry per problem, so never
 * fewer than one, each with its own `detail`.
 */
export interface ErrorBody {
  message: string;
  detail: string;
  code: number;
  parameters: ErrorParameter[];
  errors: ErrorEntry[];
  trace?: string;
}

/**
 * An error of the HTTP layer itself (no route, wrong method, unacceptable media type, body too
 * large or undecodable). Its `code` in the error body is the HTTP status.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly status: number,
    message: string,
    readonly parameters: ErrorParameter[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A 400 for a body that cannot be decoded at all; `detail` (the parser's word) goes in fieldValue. */
export function undecodableBody(message: string, detail?: string): HttpError {
  return new HttpError(400, message, [
    detail === undefined ? { fieldName: 'body' } : { fieldName: 'body', fieldValue: detail },
  ]);
}

/** The 503 of a request that arrives while the server shuts down. */
export function shuttingDown(): HttpError {
  return new HttpError(503, 'The server is shutting down; retry in a moment.', [], {
    'retry-after': String(RETRY_AFTER_SECONDS),
  });
}

/** Where an error ends up: its status, its body and any extra headers. */
export interface ErrorOutcome {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** Set for an unexpected error (500) only: the id in its body, to log with the stack. */
  reportId?: string;
  /** For the log line only, never the body: why the database was unavailable (503). */
  cause?: string;
}

export interface DescribeErrorOptions {
  debug: boolean;
  /** Makes the id that ties a 500 to its log line. */
  reportId: () => string;
  /** Whether the request carried a token; refines `WWW-Authenticate` of a 401. */
  tokenSent: boolean;
  /** Whether the Authorization header was there but not of the form `Bearer <token>`. */
  malformedCredentials: boolean;
}

/** An error body; an error of one problem is its own single entry of `errors`. */
function errorBody(
  message: string,
  code: number,
  parameters: ErrorParameter[],
  errors: ErrorDetail[] = [],
): ErrorBody {
  const entry = (problem: ErrorDetail): ErrorEntry => ({
    message: problem.message,
    detail: renderMessage(problem.message, problem.parameters),
    parameters: problem.parameters,
  });
  return {
    message,
    detail: renderMessage(message, parameters),
    code,
    parameters,
    errors: (errors.length ? errors : [{ message, parameters }]).map(entry),
  };
}

export const WWW_AUTHENTICATE_REALM = 'Bearer realm="fulfil"';

function wwwAuthenticate(options: DescribeErrorOptions): string {
  if (options.malformedCredentials) return `${WWW_AUTHENTICATE_REALM}, error="invalid_request"`;
  if (options.tokenSent) return `${WWW_AUTHENTICATE_REALM}, error="invalid_token"`;
  return WWW_AUTHENTICATE_REALM;
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
}

/** Maps anything thrown while serving a request to its status, error body and headers. */
export function describeError(error: unknown, options: DescribeErrorOptions): ErrorOutcome {
  const trace =
    options.debug && error instanceof Error && error.stack ? { trace: error.stack } : {};
  if (isDomainError(error)) {
    const status = HTTP_STATUS_OF_ERROR[error.code];
    const body = errorBody(error.message, error.numericCode, error.parameters, error.errors);
    const outcome: ErrorOutcome = { status, body: { ...body, ...trace }, headers: {} };
    if (error.code === 'unauthenticated') {
      outcome.headers['www-authenticate'] = wwwAuthenticate(options);
    }
    if (error.code === 'unavailable') {
      outcome.headers['retry-after'] = String(RETRY_AFTER_SECONDS);
      if (error.cause !== undefined) outcome.cause = describeCause(error.cause);
    }
    return outcome;
  }
  if (error instanceof HttpError) {
    const body = errorBody(error.message, error.status, error.parameters);
    return { status: error.status, body: { ...body, ...trace }, headers: error.headers };
  }
  const reportId = options.reportId();
  const body: ErrorBody = {
    ...errorBody(`Internal error; report id ${reportId}`, 500, [
      { fieldName: 'report_id', fieldValue: reportId },
    ]),
    ...trace,
  };
  return { status: 500, body, headers: { 'x-report-id': reportId }, reportId };
}
