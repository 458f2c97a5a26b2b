import { fieldError } from '../errors.js';
import type { StockDelta } from '../types.js';
import type { ReturnRecord } from './return-record.js';

/** A change to the quarantined (never available) count of one sku at one warehouse. */
export interface QuarantineDelta {
  warehouse_code: string;
  sku: string;
  qty: number;
}

/** What an action on a return decided; the use case writes it in the same transaction. */
export interface ReturnOutcome {
  /** The return after the action; the same object when nothing changed. */
  record: ReturnRecord;
  /** False for a retry of an applied action: nothing is written, not even `updated_at`. */
  changed: boolean;
  /** On hand added back at the receiving warehouse. */
  stock: StockDelta[];
  quarantine: QuarantineDelta[];
  /** What the timeline records of the action. */
  details: Record<string, unknown>;
}

/** A canceled return takes no receipt, credit or other change. */
export function assertOpen(record: ReturnRecord, body: string): void {
  if (record.canceled_at === null) return;
  throw fieldError(
    'wrong_stage',
    'Return %fieldValue was canceled: it takes nothing more.',
    `${body}.rma_number`,
    record.rma_number,
  );
}
