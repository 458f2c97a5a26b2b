import type { ErrorDetail, ErrorParameter } from '@fulfil/core';
import * as v from 'valibot';
import type { ErrorBody } from '../errors.js';

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
  code: v.pipe(
    v.optional(integer),
    v.description(
      'The error code: 1001-1010 invalid requests, 1401 unauthenticated, 1403 forbidden, 1404 not found, 1409 already exists; the HTTP status for errors of the HTTP layer.',
    ),
  ),
  parameters: v.optional(v.array(ErrorParameterSchema)),
  errors: v.optional(
    v.array(v.object({ message: v.string(), parameters: v.array(ErrorParameterSchema) })),
  ),
  trace: v.pipe(v.optional(v.string()), v.description('Only when the server runs in debug mode.')),
});

// ── kept in step with the engine's types ──────────────────────────────────────────────────────
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type ResourceSchemaChecks = [
  Assert<Same<v.InferOutput<typeof ErrorParameterSchema>, ErrorParameter>>,
  Assert<Same<v.InferOutput<typeof ErrorBodySchema>['errors'], ErrorDetail[] | undefined>>,
  Assert<Same<v.InferOutput<typeof ErrorBodySchema>, ErrorBody>>,
];
