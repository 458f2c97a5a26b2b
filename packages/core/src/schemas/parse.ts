import * as v from 'valibot';
import { type ErrorCode, type ErrorDetail, fieldErrors } from '../domain/errors.js';
import { malformedStrings } from './well-formed.js';

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
  if (text.length <= SHOWN) return text;
  // Never half a surrogate pair: the text shown would hold the lone surrogate refused here.
  const cut = /[\uD800-\uDBFF]/.test(text.charAt(SHOWN - 4)) ? SHOWN - 4 : SHOWN - 3;
  return `${text.slice(0, cut)}...`;
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

const KINDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
};

/** `("a" | "b")`, valibot's list of what a picklist expects, as a person reads it: `a, b`. */
function listed(expected: string | null): string {
  return (expected ?? '')
    .replace(/^\((.*)\)$/, '$1')
    .split(' | ')
    .map((option) => option.replace(/^"(.*)"$/, '$1'))
    .join(', ');
}

/**
 * Our words for an issue whose schema gave none: valibot's own ("Invalid value: Expected >=1 but
 * received 0") quotes the value and speaks its own language.
 */
function issueText(issue: v.BaseIssue<unknown>): string {
  const { type, requirement } = issue;
  if (issue.kind === 'schema') {
    const kind = KINDS[type];
    if (kind) return `must be ${kind}`;
    return type === 'picklist'
      ? `must be one of ${listed(issue.expected)}`
      : 'is not of an accepted type';
  }
  if (type === 'min_value') return `must be at least ${String(requirement)}`;
  if (type === 'max_value') return `must be at most ${String(requirement)}`;
  if (type === 'integer' || type === 'safe_integer') return 'must be an integer';
  if (type === 'min_length') return `must have a length of at least ${String(requirement)}`;
  if (type === 'max_length') return `must have a length of at most ${String(requirement)}`;
  return 'is not valid';
}

/**
 * Refuses an input holding a string that is not well-formed Unicode (schemas/well-formed.ts),
 * anywhere, even in a field the schema would ignore: one detail per string, naming its path.
 * `parseWith` calls it; so do the operator's lookups for their plain arguments
 * (`assertWellFormed({ number })`), whose lone surrogates a database would read as U+FFFD.
 */
export function assertWellFormed(input: unknown, code: ErrorCode = 'invalid_request'): void {
  const malformed = malformedStrings(input);
  if (malformed.length === 0) return;
  const details: ErrorDetail[] = malformed.map(({ path, shown, key }) => ({
    message: key
      ? 'Invalid field name "%fieldName": not well-formed Unicode (a lone surrogate).'
      : 'Invalid value of "%fieldName": not well-formed Unicode (a lone surrogate).',
    parameters: [{ fieldName: path || '(root)', fieldValue: shorten(shown) }],
  }));
  throw fieldErrors(code, (details[0] as ErrorDetail).message, details);
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
  assertWellFormed(input, code);
  const result = v.safeParse(schema, input, { abortPipeEarly: true, message: issueText });
  if (result.success) return result.output;
  const details: ErrorDetail[] = result.issues.map((issue) => {
    const fieldName = issuePath(issue) || '(root)';
    if (issue.input === undefined && issue.path) {
      return { message: 'Missing required field "%fieldName".', parameters: [{ fieldName }] };
    }
    return {
      // Every issue's message is ours (issueText, or the schema's own), never valibot's quoting
      // the value received: it is bounded by the schema, and shown whole (an enum lists every
      // value); the value itself goes, shortened, in fieldValue.
      message: `Invalid value of "%fieldName": ${issue.message}`,
      parameters: [{ fieldName, fieldValue: describeValue(issue.input) }],
    };
  });
  throw fieldErrors(code, (details[0] as ErrorDetail).message, details);
}
