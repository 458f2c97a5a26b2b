import type { ErrorParameter } from '@fulfil/core';
import * as v from 'valibot';
import type { ErrorBody, ErrorEntry } from '../errors.js';

/**
 * The error body as a valibot schema, for the OpenAPI document (the resources' schemas are
 * core's). Compile-time checks at the end keep it in step with the body the server writes.
 */

const integer = v.pipe(v.number(), v.integer());

export const ErrorParameterSchema = v.object({
  resources: v.pipe(v.optional(v.string()), v.description('An ACL resource.')),
  fieldName: v.pipe(v.optional(v.string()), v.description('A missing or invalid field.')),
  fieldValue: v.pipe(v.optional(v.string()), v.description('The incorrect value.')),
});

export const ErrorBodySchema = v.object({
  message: v.pipe(
    v.string(),
    v.description(
      'May hold %name placeholders, filled from the first parameter that has that key.',
    ),
  ),
  detail: v.pipe(
    v.string(),
    v.description('The message with its placeholders filled in: what a person reads.'),
  ),
  code: v.pipe(
    integer,
    v.description(
      'The error code: 1001-1010 invalid requests, 1401 unauthenticated, 1403 forbidden, 1404 not found, 1409 already exists, 1503 unavailable; the HTTP status for errors of the HTTP layer.',
    ),
  ),
  parameters: v.array(ErrorParameterSchema),
  errors: v.pipe(
    v.array(
      v.object({
        message: v.string(),
        detail: v.string(),
        parameters: v.array(ErrorParameterSchema),
      }),
    ),
    v.description('One entry per problem: an error of one problem is its own single entry.'),
  ),
  trace: v.pipe(v.optional(v.string()), v.description('Only when the server runs in debug mode.')),
});

// ── kept in step with the engine's types ──────────────────────────────────────────────────────
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type ResourceSchemaChecks = [
  Assert<Same<v.InferOutput<typeof ErrorParameterSchema>, ErrorParameter>>,
  Assert<Same<v.InferOutput<typeof ErrorBodySchema>['errors'], ErrorEntry[]>>,
  Assert<Same<v.InferOutput<typeof ErrorBodySchema>, ErrorBody>>,
];
