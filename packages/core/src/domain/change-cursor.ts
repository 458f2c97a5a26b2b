import { fieldError } from './errors.js';

/**
 * A position in the history of a store's queue entries (docs/polling.md): every entry carries the
 * change that last wrote it, and entries are ordered by (change, order id). A position names the
 * last pair a caller has seen; `since` answers the pairs after it.
 */
export interface ChangePosition {
  /** The database's epoch: a position of another database never matches this one's. */
  epoch: string;
  change: number;
  /** -1: every entry of `change` is still to come. */
  order_id: number;
}

/**
 * What one read transaction may serve: every change below `horizon` has committed (or rolled
 * back) and is visible to it, none at or above it is served yet; no position this database ever
 * handed out names a change beyond `newest`.
 */
export interface ChangeHorizon {
  epoch: string;
  horizon: number;
  newest: number;
}

const VERSION = '1';
const CURSOR_FIELD = 'since';

/** The `Fulfil-Cursor` of a position: opaque to callers, base64url of its parts. */
export function encodeCursor(position: ChangePosition): string {
  const text = `${VERSION}.${position.epoch}.${position.change}.${position.order_id}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

/** The position a cursor names; a 400 for anything `encodeCursor` cannot have written. */
export function decodeCursor(cursor: string): ChangePosition {
  const parts = /^[A-Za-z0-9_-]{1,200}$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('utf8').split('.')
    : [];
  const [version, epoch, change, orderId] = parts;
  if (
    parts.length !== 4 ||
    version !== VERSION ||
    !epoch ||
    !/^[0-9a-f]{1,32}$/.test(epoch) ||
    !/^\d{1,16}$/.test(change ?? '') ||
    !/^(-1|\d{1,16})$/.test(orderId ?? '')
  ) {
    throw fieldError(
      'invalid_request',
      'Invalid value of "%fieldName": not a cursor this service wrote (take it from the Fulfil-Cursor header).',
      CURSOR_FIELD,
      cursor.slice(0, 80),
    );
  }
  return { epoch, change: Number(change), order_id: Number(orderId) };
}

/** The position that has seen every change below the horizon, and no other. */
export function positionAt(horizon: ChangeHorizon): ChangePosition {
  return { epoch: horizon.epoch, change: horizon.horizon, order_id: -1 };
}

/** Whether `position` can be served by a read of `horizon`: same database, not from its future. */
export function isServable(position: ChangePosition, horizon: ChangeHorizon): boolean {
  return position.epoch === horizon.epoch && position.change <= horizon.newest;
}

/** The later of two positions of one database. */
export function laterPosition(a: ChangePosition, b: ChangePosition): ChangePosition {
  if (a.change !== b.change) return a.change > b.change ? a : b;
  return a.order_id >= b.order_id ? a : b;
}
