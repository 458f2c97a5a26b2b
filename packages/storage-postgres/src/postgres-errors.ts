import { appendAll } from '@fulfil/core';
import { isStalePlan } from './named-statements.js';

/** SQLSTATEs after which a rolled-back transaction may simply run again. */
const RETRYABLE_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

/** SQLSTATEs that say the server cannot serve now, whatever was asked of it. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, or a fast/smart shutdown
  '57P02', // crash_shutdown: another backend crashed, every session is cut
  '57P03', // cannot_connect_now: starting up or shutting down
  '57P05', // idle_session_timeout
]);

/** SQLSTATE classes of the same kind: connection exceptions, insufficient resources. */
const UNAVAILABLE_SQLSTATE_CLASSES = new Set(['08', '53']);

/** Socket errors on the way to the server (Node's `code`). */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * What pg and pg-pool throw, without any code, when a connection is lost, cannot be made in
 * time, or the pool has been ended. Their exact words are the only thing to go by.
 */
const UNAVAILABLE_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
]);

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function codeOf(error: ErrorLike): string | undefined {
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Whether a Postgres error (pg's `DatabaseError`, read structurally) is worth a retry: a
 * serialization failure, a deadlock, or a prepared statement gone stale under a migration
 * (named-statements.ts: the connection prepares it afresh).
 */
export function isPostgresRetryable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = codeOf(error as ErrorLike);
  return (code !== undefined && RETRYABLE_SQLSTATES.has(code)) || isStalePlan(error);
}

function isUnavailableOne(error: ErrorLike): boolean {
  const code = codeOf(error);
  if (code !== undefined) {
    if (UNAVAILABLE_ERRNOS.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.has(code.slice(0, 2))) {
      return true;
    }
  }
  return typeof error.message === 'string' && UNAVAILABLE_MESSAGES.has(error.message);
}

/**
 * Whether the error says the Postgres server cannot serve now: refused or dropped connections,
 * a connect or pool wait that timed out, a server shutting down or out of connections. Read
 * structurally, through `cause` and the `errors` of an AggregateError (a host name with several
 * addresses), so no driver type is imported.
 */
export function isPostgresUnavailable(error: unknown): boolean {
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length > 0 && seen < 10; seen++) {
    const current = pending.shift();
    if (typeof current !== 'object' || current === null) continue;
    const candidate = current as ErrorLike;
    if (isUnavailableOne(candidate)) return true;
    if (candidate.cause !== undefined) pending.push(candidate.cause);
    if (Array.isArray(candidate.errors)) appendAll(pending, candidate.errors);
  }
  return false;
}
