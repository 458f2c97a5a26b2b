/**
 * @fulfil/storage-postgres — the `Repository` of `@fulfil/core` over Postgres (pg pool): row
 * locks, atomic upserts, migrations safe when several processes start at once.
 */

// Which statements have a span: an app's choice, process-wide, whichever adapter it opens.
export { recordStatementSpansFrom } from '@fulfil/storage-kysely';
export { explainPollQuery } from './explain-poll-query.js';
export { int8AsNumber } from './int8-as-number.js';
export { migrateWithLock } from './migrate-with-lock.js';
export {
  openPostgresRepository,
  POSTGRES_SCHEMA_FLAGS,
  type PostgresPoolOptions,
  type PostgresRepository,
  type PostgresRepositoryOptions,
} from './open-postgres-repository.js';
export { isPostgresRetryable, isPostgresUnavailable } from './postgres-errors.js';
