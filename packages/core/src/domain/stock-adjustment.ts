import { differingPaths } from './differences.js';
import { DomainError, type ErrorDetail, fieldErrors } from './errors.js';
import type { Timestamp } from './timestamp.js';
import type { StockDelta, StockLevel } from './types.js';

/** Why a partner changes on hand by a delta (docs/partner-guide.md, Adjusting stock). */
export const ADJUSTMENT_REASONS = [
  'received',
  'counted',
  'damaged',
  'lost',
  'found',
  'returned',
  'other',
] as const;

export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

/** One line of an adjustment as sent: a change of the on hand of one sku at one warehouse. */
export interface AdjustmentLine {
  warehouse_code: string;
  sku: string;
  delta: number;
  reason: AdjustmentReason;
}

/** An adjustment once parsed: its number, once per store, and its lines in the order sent. */
export interface ParsedAdjustment {
  adjustment_number: string;
  items: AdjustmentLine[];
}

/** A line as applied: the on hand of its (warehouse, sku) right after it. */
export interface AppliedAdjustmentLine extends AdjustmentLine {
  on_hand: number;
}

/** An adjustment as stored: the start of the stock history. */
export interface StockAdjustmentRecord {
  /** 0 until stored. */
  id: number;
  store_id: number;
  adjustment_number: string;
  /** The token that sent it. */
  token_name: string;
  created_at: Timestamp;
  items: AppliedAdjustmentLine[];
}

/** The public answer: the adjustment with each line's resulting on hand. */
export interface StockAdjustmentResource {
  adjustment_number: string;
  created_at: Timestamp;
  items: AppliedAdjustmentLine[];
}

const stockKey = (entry: { warehouse_code: string; sku: string }): string =>
  `${entry.warehouse_code}\u0000${entry.sku}`;

function rejected(problems: ErrorDetail[]): DomainError {
  return fieldErrors(
    'invalid_stock_batch',
    `The adjustment was rejected whole: ${problems.length} invalid entr${problems.length === 1 ? 'y' : 'ies'}.`,
    problems,
  );
}

/** Every line's warehouse known and in the caller's scope, else 400 naming each such line. */
export function assertAdjustableWarehouses(
  adjustment: ParsedAdjustment,
  visibleWarehouses: ReadonlySet<string>,
): void {
  const problems: ErrorDetail[] = [];
  adjustment.items.forEach((line, index) => {
    if (visibleWarehouses.has(line.warehouse_code)) return;
    problems.push({
      message: 'Warehouse %fieldValue of %fieldName does not exist.',
      parameters: [
        { fieldName: `adjustment.items[${index}].warehouse_code`, fieldValue: line.warehouse_code },
      ],
    });
  });
  if (problems.length > 0) throw rejected(problems);
}

/** The distinct (warehouse_code, sku) rows an adjustment changes. */
export function adjustedKeys(
  adjustment: ParsedAdjustment,
): { warehouse_code: string; sku: string }[] {
  const keys = new Map(
    adjustment.items.map(({ warehouse_code, sku }) => [
      stockKey({ warehouse_code, sku }),
      { warehouse_code, sku },
    ]),
  );
  return [...keys.values()];
}

/**
 * Applies the lines in order to the on hand read under the rows' locks (`current`): each line's
 * resulting on hand, or 400 naming every line that would take its row below 0. A sku adjusted
 * twice in one adjustment counts from the first line's result.
 */
export function applyAdjustment(
  adjustment: ParsedAdjustment,
  current: readonly StockLevel[],
): { lines: AppliedAdjustmentLine[]; deltas: StockDelta[] } {
  const onHand = new Map(current.map((level) => [stockKey(level), level.on_hand]));
  const problems: ErrorDetail[] = [];
  const lines = adjustment.items.map((line, index) => {
    const key = stockKey(line);
    const before = onHand.get(key) ?? 0;
    const after = before + line.delta;
    if (after < 0) {
      problems.push({
        message: `%fieldName would take the on hand of ${line.warehouse_code} ${line.sku} from ${before} to ${after}; it never goes below 0.`,
        parameters: [
          { fieldName: `adjustment.items[${index}].delta`, fieldValue: String(line.delta) },
        ],
      });
    }
    onHand.set(key, after);
    return { ...line, on_hand: after };
  });
  if (problems.length > 0) throw rejected(problems);
  const deltas = adjustment.items.map(({ warehouse_code, sku, delta }) => ({
    warehouse_code,
    sku,
    on_hand: delta,
    reserved: 0,
  }));
  return { lines, deltas };
}

export function presentAdjustment(record: StockAdjustmentRecord): StockAdjustmentResource {
  return {
    adjustment_number: record.adjustment_number,
    created_at: record.created_at,
    items: record.items.map(({ warehouse_code, sku, delta, reason, on_hand }) => ({
      warehouse_code,
      sku,
      delta,
      reason,
      on_hand,
    })),
  };
}

/**
 * A repeat of a stored adjustment: the first answer when the content is the same, else 409
 * naming each differing field.
 */
export function repeatedAdjustment(
  stored: StockAdjustmentRecord,
  sent: ParsedAdjustment,
): StockAdjustmentResource {
  const was: ParsedAdjustment = {
    adjustment_number: stored.adjustment_number,
    items: stored.items.map(({ warehouse_code, sku, delta, reason }) => ({
      warehouse_code,
      sku,
      delta,
      reason,
    })),
  };
  const paths = differingPaths(was, sent, 'adjustment');
  if (paths.length > 0) {
    throw new DomainError(
      'already_exists',
      'Adjustment %fieldValue was already applied with other content; see errors.',
      [{ fieldName: 'adjustment.adjustment_number', fieldValue: sent.adjustment_number }],
      paths.map((path) => ({
        message: 'Field "%fieldName" differs from the adjustment applied under this number.',
        parameters: [{ fieldName: path }],
      })),
    );
  }
  return presentAdjustment(stored);
}
