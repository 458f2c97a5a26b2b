import { fieldError } from '../errors.js';
import type { Timestamp } from '../timestamp.js';
import type { ReturnOutcome } from './return-outcome.js';
import type { ReturnRecord } from './return-record.js';

/**
 * An operator's cancel: only before any receipt, since received goods are already back on the
 * shelf or counted. Canceling a canceled return again changes nothing.
 */
export function cancelReturn(record: ReturnRecord, now: Timestamp): ReturnOutcome {
  if (record.canceled_at !== null) {
    return { record, changed: false, stock: [], quarantine: [], details: {} };
  }
  if (record.receipts.length > 0) {
    throw fieldError(
      'wrong_stage',
      'Return %fieldValue has receipts: it can no longer be canceled.',
      'rma_number',
      record.rma_number,
    );
  }
  return {
    record: { ...record, canceled_at: now, updated_at: now },
    changed: true,
    stock: [],
    quarantine: [],
    details: { rma_number: record.rma_number },
  };
}
