import { type ErrorDetail, fieldErrors } from './errors.js';
import type { StockLevel } from './types.js';

/** A guarded set's `change_from` (at `fieldName`) that is not the on hand `now`. */
export function stockChanged(fieldName: string, changeFrom: number, now: number): ErrorDetail {
  return {
    message: `%fieldName was ${changeFrom}, but the on hand is %fieldValue now.`,
    parameters: [{ fieldName, fieldValue: String(now) }],
  };
}

const stockKey = (entry: { warehouse_code: string; sku: string }): string =>
  `${entry.warehouse_code}\u0000${entry.sku}`;

/**
 * A stock batch once parsed: the on-hand quantity of each (warehouse, sku), and for a guarded
 * entry the on hand its sender counted from.
 */
export interface ParsedStockItems {
  stock_items: { warehouse_code: string; sku: string; qty: number; change_from?: number }[];
}

/**
 * The checks of a stock batch that need the store (docs/behaviour.md): every warehouse known and in
 * the caller's scope, no (warehouse_code, sku) twice. Any failure rejects the whole batch,
 * naming each bad entry.
 */
export function assertValidStockBatch(
  batch: ParsedStockItems,
  visibleWarehouses: ReadonlySet<string>,
): void {
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  batch.stock_items.forEach((entry, index) => {
    if (!visibleWarehouses.has(entry.warehouse_code)) {
      problems.push({
        message: 'Warehouse %fieldValue of %fieldName does not exist.',
        parameters: [
          { fieldName: `stock_items[${index}].warehouse_code`, fieldValue: entry.warehouse_code },
        ],
      });
    }
    const key = stockKey(entry);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({
        message: `%fieldName repeats the warehouse_code and sku of stock_items[${first}].`,
        parameters: [
          {
            fieldName: `stock_items[${index}]`,
            fieldValue: `${entry.warehouse_code} ${entry.sku}`,
          },
        ],
      });
    } else seen.set(key, index);
  });
  if (problems.length > 0) {
    throw fieldErrors(
      'invalid_stock_batch',
      `The stock batch was rejected whole: ${problems.length} invalid entr${problems.length === 1 ? 'y' : 'ies'}.`,
      problems,
    );
  }
}

/**
 * A guarded set applies only while every `change_from` is still the on hand (`current`, read
 * under the rows' locks): one entry whose stock moved refuses the whole batch, naming each such
 * entry with the on hand it has now, for the sender to recompute and send again.
 */
export function assertStockUnchanged(
  batch: ParsedStockItems,
  current: readonly StockLevel[],
): void {
  const onHand = new Map(current.map((level) => [stockKey(level), level.on_hand]));
  const problems: ErrorDetail[] = [];
  batch.stock_items.forEach((entry, index) => {
    if (entry.change_from === undefined) return;
    const now = onHand.get(stockKey(entry)) ?? 0;
    if (now !== entry.change_from) {
      problems.push(stockChanged(`stock_items[${index}].change_from`, entry.change_from, now));
    }
  });
  if (problems.length > 0) {
    throw fieldErrors(
      'stock_changed',
      `The stock batch was refused whole: the on hand of ${problems.length} entr${problems.length === 1 ? 'y' : 'ies'} changed since its change_from.`,
      problems,
    );
  }
}
