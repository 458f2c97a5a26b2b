import type { ReturnRecord } from './return-record.js';

/** The key of one (warehouse, sku), as `quarantinedBy` keys its counts. */
export function quarantineKey(row: { warehouse_code: string; sku: string }): string {
  return `${row.warehouse_code}\u0000${row.sku}`;
}

/**
 * What the returns' receipts put in quarantine, per (warehouse, sku): what the counts of
 * `return_quarantine` must hold. Canceled returns have no receipt, so add nothing.
 */
export function quarantinedBy(returns: readonly ReturnRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of returns) {
    for (const line of record.items) {
      if (line.qty_quarantined === 0) continue;
      const key = quarantineKey({ warehouse_code: record.warehouse_code, sku: line.sku });
      counts.set(key, (counts.get(key) ?? 0) + line.qty_quarantined);
    }
  }
  return counts;
}
