import { type ErrorDetail, fieldErrors } from './errors.js';

/** A stock batch once parsed: the on-hand quantity of each (warehouse, sku). */
export interface ParsedStockItems {
  stock_items: { warehouse_code: string; sku: string; qty: number }[];
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
    const key = `${entry.warehouse_code}\u0000${entry.sku}`;
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
