import * as v from 'valibot';
import { type ErrorCode, type ErrorDetail, fieldErrors } from '../domain/errors.js';

/** `order.items[1].qty`: the path of the field an issue is about, as integrators write it. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  let path = '';
  for (const item of issue.path ?? []) {
    const key = item.key;
    path += typeof key === 'number' ? `[${key}]` : path ? `.${String(key)}` : String(key);
  }
  return path;
}

const SHOWN = 80;

function shorten(text: string): string {
  return text.length > SHOWN ? `${text.slice(0, SHOWN - 3)}...` : text;
}

/** A short text for a bad value: never the whole of a huge string, never a deep structure. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value !== 'object' || value === null) return shorten(String(value));
  try {
    return shorten(JSON.stringify(value));
  } catch {
    // Nested too deep to write out (the call stack ran out): say what it is instead.
    return Array.isArray(value) ? 'an array' : 'an object';
  }
}

/**
 * Validates `input` against a schema; the output on success, otherwise a DomainError with one
 * detail per problem, each naming its field path.
 */
export function parseWith<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
  code: ErrorCode = 'invalid_request',
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const details: ErrorDetail[] = result.issues.map((issue) => {
    const fieldName = issuePath(issue) || '(root)';
    if (issue.input === undefined && issue.path) {
      return { message: 'Missing required field "%fieldName".', parameters: [{ fieldName }] };
    }
    return {
      // valibot's message quotes the value received: a huge string would come back whole.
      message: `Invalid value of "%fieldName": ${shorten(issue.message)}`,
      parameters: [{ fieldName, fieldValue: describeValue(issue.input) }],
    };
  });
  throw fieldErrors(code, (details[0] as ErrorDetail).message, details);
}
