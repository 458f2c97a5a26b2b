import type { ErrorBody } from './generated/index.js';

/** `%fieldName` placeholders of a message, filled from the first parameter that has that key. */
function fillPlaceholders(body: ErrorBody): string {
  return body.message.replace(/%(\w+)/g, (whole, key: string) => {
    const parameter = body.parameters?.find((entry) => key in entry);
    const value = parameter?.[key as keyof typeof parameter];
    return value === undefined ? whole : value;
  });
}

/**
 * The service answered with an error status. `status` is the HTTP status, `body` the service's
 * error body (`message`, `parameters`, `errors`, `code`); `message` has its placeholders filled.
 */
export class FulfilApiError extends Error {
  override readonly name = 'FulfilApiError';

  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(`${fillPlaceholders(body)} (HTTP ${status})`);
  }

  /** The service's stable error code (1001 invalid request, 1404 not found, …), when it sent one. */
  get code(): number | undefined {
    return this.body.code;
  }
}

/** A body that is not the service's error body (a proxy's page, say): the status says enough. */
export function errorBodyOf(status: number, parsed: unknown): ErrorBody {
  if (
    typeof parsed === 'object' &&
    parsed !== null &&
    typeof (parsed as ErrorBody).message === 'string'
  ) {
    return parsed as ErrorBody;
  }
  return { message: `HTTP ${status}`, code: status, parameters: [], errors: [] };
}
