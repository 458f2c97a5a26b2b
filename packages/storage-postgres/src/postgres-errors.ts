/** SQLSTATEs after which a rolled-back transaction may simply run again. */
const RETRYABLE_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/** Whether a Postgres error (pg's `DatabaseError`, read structurally) is worth a retry. */
export function isPostgresRetryable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const { code } = error as { code: unknown };
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}
