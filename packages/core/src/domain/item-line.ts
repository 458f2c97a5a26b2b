import { prorate } from './money.js';
import type { Item, ItemAmounts } from './types.js';

const LINE_TOTALS = ['total_price', 'total_price_excl_tax', 'total_tax_amount'] as const;

/**
 * Splits `keepQty` off a line, as accept does when it takes part of a line: the kept line and the
 * rest (a new line, id 0). Unit prices stay; line totals follow the quantity and always add up
 * to the original's exactly.
 */
export function splitLine(item: Item, keepQty: number): { kept: Item; rest: Item } {
  const kept: ItemAmounts = { ...item.amounts };
  const rest: ItemAmounts = { ...item.amounts };
  for (const field of LINE_TOTALS) {
    const total = item.amounts[field];
    if (total === undefined) continue;
    kept[field] = prorate(total, keepQty, item.qty);
    rest[field] = total - kept[field];
  }
  return {
    kept: { ...item, qty: keepQty, amounts: kept },
    rest: { ...item, id: 0, qty: item.qty - keepQty, amounts: rest },
  };
}
