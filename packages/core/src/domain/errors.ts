/**
 * The closed set of things that can go wrong in the domain. Each code has a stable number (the
 * error body's `code`); the server maps codes to HTTP statuses in one table.
 */
export const ERROR_CODES = {
  invalid_request: 1001,
  unknown_item: 1002,
  partial_not_allowed: 1003,
  qty_mismatch: 1004,
  wrong_stage: 1005,
  order_failed: 1006,
  invoice_mismatch: 1007,
  conflicts_with_applied: 1008,
  invalid_stock_batch: 1009,
  invalid_seed: 1010,
  /** A return's credit that does not match what was received (docs/channel-guide.md). */
  credit_mismatch: 1011,
  /** An action on an order while a hold keeps it out of every queue. */
  order_on_hold: 1012,
  not_found: 1404,
  already_exists: 1409,
  /**
   * A guarded stock set whose `change_from` is no longer the on hand (docs/behaviour.md): the
   * number every conflict has, its own name for programs.
   */
  stock_changed: 1409,
  unauthenticated: 1401,
  forbidden: 1403,
  /** A change cursor this database can no longer serve: poll again without `since` (410). */
  cursor_expired: 1410,
  unavailable: 1503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** A parameter item of the spec's error body. */
export interface ErrorParameter {
  resources?: string;
  fieldName?: string;
  fieldValue?: string;
}

/** One problem among several, e.g. one bad entry of a stock batch. */
export interface ErrorDetail {
  message: string;
  parameters: ErrorParameter[];
}

export class DomainError extends Error {
  override readonly name = 'DomainError';

  /**
   * @param message may hold `%fieldName`-style placeholders filled from `parameters`, as in the
   *   spec's error body; `renderMessage` fills them for humans.
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly parameters: ErrorParameter[] = [],
    readonly errors: ErrorDetail[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  get numericCode(): number {
    return ERROR_CODES[this.code];
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/**
 * The database cannot serve now: the connection was refused or dropped, no pooled connection came
 * free in time, the database is shutting down, locked past the wait or out of disk. Nothing was
 * committed by the failed call, or the effect is unknown and repeating it is safe (every action
 * is idempotent). Adapters throw it; the driver's own error is kept as `cause`.
 */
export function databaseUnavailable(cause: unknown): DomainError {
  return new DomainError(
    'unavailable',
    'The database is unavailable right now; retry in a moment. A retry is safe: every action is idempotent, so one that was applied after all is not applied twice.',
    [],
    [],
    { cause },
  );
}

/** An error about one field: the message names it through `%fieldName`. */
export function fieldError(
  code: ErrorCode,
  message: string,
  fieldName: string,
  fieldValue?: unknown,
): DomainError {
  const parameter: ErrorParameter = { fieldName };
  if (fieldValue !== undefined) parameter.fieldValue = String(fieldValue);
  return new DomainError(code, message, [parameter], [{ message, parameters: [parameter] }]);
}

/** Several problems of one kind reported together, each with its field. */
export function fieldErrors(code: ErrorCode, message: string, details: ErrorDetail[]): DomainError {
  return new DomainError(
    code,
    message,
    details.flatMap((d) => d.parameters),
    details,
  );
}

/** Fills `%name` placeholders from the first parameter that has that key. */
export function renderMessage(message: string, parameters: readonly ErrorParameter[]): string {
  return message.replace(/%(\w+)/g, (whole, key: string) => {
    const found = parameters.find((p) => key in p);
    return found ? String(found[key as keyof ErrorParameter]) : whole;
  });
}
