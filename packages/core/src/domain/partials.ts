import type { FulfillmentOrder, StoreSettings } from './types.js';

type PartialsView = Pick<FulfillmentOrder, 'allow_partial'>;

/**
 * Whether an action may list a subset of the order's items (spec rule 2, docs/behaviour.md): the
 * order's own consent or override wins over the store setting, in both directions.
 */
export function partialItemsEnabled(order: PartialsView, settings: StoreSettings): boolean {
  return order.allow_partial ?? settings.partial_items;
}

/** Whether accept may take less than the ordered quantity of an item. */
export function partialQtyEnabled(order: PartialsView, settings: StoreSettings): boolean {
  return order.allow_partial ?? settings.partial_qty;
}
