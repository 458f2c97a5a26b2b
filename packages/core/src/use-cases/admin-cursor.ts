import * as v from 'valibot';
import { fieldError } from '../domain/errors.js';

/**
 * The admin API's page cursors: the last row's key as base64url JSON, read back only in the
 * shape it was given (else 400 naming `after`).
 */

export function encodeCursor(key: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<S extends v.GenericSchema>(
  schema: S,
  after: string,
): v.InferOutput<S> {
  try {
    return v.parse(schema, JSON.parse(Buffer.from(after, 'base64url').toString('utf8')));
  } catch {
    throw fieldError(
      'invalid_request',
      'The cursor %fieldValue is not one this API gave.',
      'after',
      after,
    );
  }
}
