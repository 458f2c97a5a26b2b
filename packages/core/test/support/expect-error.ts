import { expect } from 'vitest';
import { DomainError, type ErrorCode } from '../../src/index.js';

/** Asserts that `run` throws a DomainError of `code` whose parameters name `fieldName`. */
export function expectDomainError(
  run: () => unknown,
  code: ErrorCode,
  fieldName?: string,
): DomainError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DomainError);
  const error = caught as DomainError;
  expect(error.code).toBe(code);
  if (fieldName !== undefined) {
    expect(error.parameters.map((parameter) => parameter.fieldName)).toContain(fieldName);
  }
  return error;
}
