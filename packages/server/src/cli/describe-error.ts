import { isDomainError, renderMessage } from '@fulfil/core';

/** One line for stderr: what went wrong, a DomainError's placeholders filled and its field named. */
export function describeError(error: unknown): string {
  if (isDomainError(error)) {
    const message = renderMessage(error.message, error.parameters);
    const field = error.parameters.find((parameter) => parameter.fieldName)?.fieldName;
    const more = error.errors.length > 1 ? ` (and ${error.errors.length - 1} more)` : '';
    const where = field && !error.message.includes('%fieldName') ? ` [${field}]` : '';
    return `${message}${where}${more}`;
  }
  return error instanceof Error ? error.message : String(error);
}
