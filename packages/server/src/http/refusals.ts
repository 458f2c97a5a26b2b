import { HttpError } from './errors.js';

/** The handler's own refusals: errors found before any use case runs. */

export function noRoute(path: string): HttpError {
  return new HttpError(404, 'Request does not match any route.', [
    { fieldName: 'path', fieldValue: path },
  ]);
}

/** A 405; `allow` lists what the target does take, possibly nothing (an empty `Allow`). */
export function methodNotAllowed(method: string, allow: readonly string[]): HttpError {
  return new HttpError(
    405,
    'Method %fieldValue is not allowed here.',
    [{ fieldName: 'method', fieldValue: method }],
    { allow: allow.join(', ') },
  );
}

export function notAcceptable(accept: string | undefined, offered: string): HttpError {
  return new HttpError(
    406,
    `None of the media types in %fieldValue can be produced: accept ${offered}.`,
    [{ fieldName: 'Accept', fieldValue: accept ?? '' }],
  );
}

/** The 413 of a body over the limit. */
export function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'The request body exceeds the limit of %fieldValue bytes.', [
    { fieldName: 'body', fieldValue: String(limit) },
  ]);
}
