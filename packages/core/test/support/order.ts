import type { FulfillmentOrder, Item, StoreSettings } from '../../src/index.js';
import { deriveOrderStatus, toMoney } from '../../src/index.js';
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

/** A stored-looking order at WH-A whose status is derived from the given items. */
export function order(items: Item[], overrides: Partial<FulfillmentOrder> = {}): FulfillmentOrder {
  const base: FulfillmentOrder = {
    id: 1,
    store_id: 1,
    fulfillment_order_number: '100001-1',
    sales_order_id: 100001,
    sales_order_number: '100001',
    warehouse_code: 'WH-A',
    allow_partial: null,
    status: 'pending_accept',
    customer_firstname: 'Ada',
    customer_lastname: 'Lovelace',
    customer_email: 'ada@example.com',
    customer_is_guest: false,
    amounts: { shipping_amount: toMoney(5), grand_total: toMoney(25) },
    payment: { method_code: 'card', method_name: 'Card' },
    shipping: { method_code: 'std', method_name: 'Standard', internal_method_code: 'std' },
    billing_address: fixtures.address(),
    shipping_address: fixtures.address(),
    items,
    shipments: [],
    invoices: [],
    failure: null,
    courier: { attempts: 0, last_error: null, next_attempt_at: null },
    allocated_at: null,
    shipped_at: null,
    invoiced_at: null,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
  return { ...base, status: deriveOrderStatus(base.items, base.failure) };
}

export const context = (overrides: Partial<StoreSettings> = {}) => ({
  now: LATER,
  settings: settings(overrides),
});
