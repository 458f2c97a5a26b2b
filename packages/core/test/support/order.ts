import type { FulfillmentOrder, Item, StoreSettings } from '../../src/index.js';
import { toMoney } from '../../src/index.js';
import { fixtures } from '../../src/testing/index.js';

export const NOW = '2026-03-01 10:00:00';
export const LATER = '2026-03-01 11:00:00';

export const settings = (overrides: Partial<StoreSettings> = {}): StoreSettings => ({
  partial_items: false,
  partial_qty: false,
  reroute: true,
  courier: { type: 'simulated', fail_skus: [], max_attempts: 3, delay_ms: 0 },
  ...overrides,
});

export function line(id: number, overrides: Partial<Item> = {}): Item {
  const qty = overrides.qty ?? 2;
  return {
    id,
    status: 'pending_accept',
    warehouse_code: 'WH-A',
    name: `Product ${id}`,
    sku: `SKU-${id}`,
    qty,
    amounts: {
      price: toMoney(10),
      price_excl_tax: toMoney(8.2),
      tax_amount: toMoney(1.8),
      tax_rate: toMoney(22),
      total_price: toMoney(10 * qty),
      total_price_excl_tax: toMoney(8.2 * qty),
      total_tax_amount: toMoney(1.8 * qty),
    },
    rejected_by: [],
    invoice_number: null,
    ...overrides,
  };
}

/** A stored-looking order at WH-A (id 1, shipping 5) whose status is derived from the given items. */
export function order(items: Item[], overrides: Partial<FulfillmentOrder> = {}): FulfillmentOrder {
  return fixtures.order({
    id: 1,
    store_id: 1,
    fulfillment_order_number: '100001-1',
    sales_order_id: 100001,
    sales_order_number: '100001',
    amounts: { shipping_amount: toMoney(5), grand_total: toMoney(25) },
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
    items,
  });
}

export const context = (overrides: Partial<StoreSettings> = {}) => ({
  now: LATER,
  settings: settings(overrides),
});
