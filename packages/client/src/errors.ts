import type { ErrorBody } from './generated/index.js';

/**
 * `%fieldName` placeholders of a message, filled from the first parameter that has that key: a
 * service of a release before `detail` sends only the message.
 */
function fillPlaceholders(body: ErrorBody): string {
  return body.message.replace(/%(\w+)/g, (whole, key: string) => {
    const parameter = body.parameters?.find((entry) => key in entry);
    const value = parameter?.[key as keyof typeof parameter];
    return value === undefined ? whole : value;
  });
}

/**
 * The service answered with an error status. `status` is the HTTP status, `body` the service's
 * error body (`message`, `detail`, `parameters`, `errors`, `code`); `message` is the body's
 * `detail`: its message with the placeholders filled.
 */
export class FulfilApiError extends Error {
  override readonly name = 'FulfilApiError';

  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(`${body.detail || fillPlaceholders(body)} (HTTP ${status})`);
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
  const message = `HTTP ${status}`;
  return { message, detail: message, code: status, parameters: [], errors: [] };
}
