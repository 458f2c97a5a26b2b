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

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
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
      message: `Invalid value of "%fieldName": ${issue.message}`,
      parameters: [{ fieldName, fieldValue: describeValue(issue.input) }],
    };
  });
  throw fieldErrors(code, (details[0] as ErrorDetail).message, details);
}
