import { deriveOrderStatus } from '../domain/order-status.js';
import type { Timestamp } from '../domain/timestamp.js';
import type {
  Address,
  FulfillmentOrder,
  Item,
  ItemStatus,
  StoreSettings,
  TokenRecord,
  Warehouse,
} from '../domain/types.js';
import type { SeedInput } from '../schemas/operator.js';
import type { CreditInput, ReceiptInput, ReturnRequestInput } from '../schemas/returns.js';
import type { SalesOrderInput } from '../schemas/sales-order.js';

/** Builders of valid records for tests: every field set, overridable piece by piece. */

export const FIXTURE_TIME: Timestamp = '2026-01-15 10:00:00';

export function storeSettings(overrides: Partial<StoreSettings> = {}): StoreSettings {
  return {
    partial_items: false,
    partial_qty: false,
    reroute: true,
    courier: { type: 'simulated', fail_skus: [], max_attempts: 3, delay_ms: 0 },
    ...overrides,
  };
}

export function warehouse(
  storeId: number,
  code: string,
  overrides: Partial<Warehouse> = {},
): Warehouse {
  return {
    store_id: storeId,
    code,
    name: `Warehouse ${code}`,
    active: true,
    fulfilled_by: 'partner',
    priority: 10,
    latitude: null,
    longitude: null,
    countries: null,
    daily_capacity: null,
    safety_stock: 0,
    processing_days: null,
    working_days: null,
    holidays: null,
    cutoff: null,
    timezone: null,
    ...overrides,
  };
}

export function address(overrides: Partial<Address> = {}): Address {
  return {
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: 'ada@example.com',
    street: '1 Main St',
    city: 'Town',
    postcode: '10000',
    region: 'R',
    country_id: 'IT',
    telephone: '+39 000',
    company: '',
    vat_id: '',
    ...overrides,
  };
}

/** A new item line (id 0) of 2 × 10.0000 at 22 % tax. */
export function item(sku: string, overrides: Partial<Item> = {}): Item {
  return {
    id: 0,
    status: 'pending_accept',
    warehouse_code: 'WH-A',
    name: `Product ${sku}`,
    sku,
    qty: 2,
    amounts: {
      price: 100_000,
      price_excl_tax: 81_967,
      tax_amount: 18_033,
      tax_rate: 220_000,
      total_price: 200_000,
      total_price_excl_tax: 163_934,
      total_tax_amount: 36_066,
    },
    rejected_by: [],
    invoice_number: null,
    ...overrides,
  };
}

export interface OrderFixture extends Partial<Omit<FulfillmentOrder, 'items'>> {
  store_id: number;
  /** The items, or just their statuses (one `item()` per status). Default: two pending_accept. */
  items?: Item[] | ItemStatus[];
}

/**
 * A valid new fulfillment order (every id 0) whose status is derived from its items, as the
 * engine would derive it. `fulfillment_order_number` defaults to a fresh unique number.
 */
export function order(fixture: OrderFixture): FulfillmentOrder {
  const { items: given, store_id: storeId, ...overrides } = fixture;
  const warehouseCode = overrides.warehouse_code ?? 'WH-A';
  const items: Item[] = (given ?? ['pending_accept', 'pending_accept']).map((entry, index) =>
    typeof entry === 'string'
      ? item(`SKU-${index + 1}`, { status: entry, warehouse_code: warehouseCode })
      : entry,
  );
  const salesOrderNumber = overrides.sales_order_number ?? nextNumber();
  const base: FulfillmentOrder = {
    id: 0,
    store_id: storeId,
    fulfillment_order_number: `${salesOrderNumber}-1`,
    sales_order_id: 1001,
    sales_order_number: salesOrderNumber,
    warehouse_code: warehouseCode,
    allow_partial: null,
    status: 'pending_accept',
    customer_firstname: 'Ada',
    customer_lastname: 'Lovelace',
    customer_email: 'ada@example.com',
    customer_is_guest: false,
    amounts: {
      shipping_amount: 50_000,
      shipping_amount_excl_tax: 40_984,
      shipping_tax_amount: 9_016,
      shipping_tax_rate: 220_000,
      grand_total: 450_000,
      grand_total_excl_tax: 368_852,
      tax_amount: 81_148,
      cod_amount: 0,
      package_value: 400_000,
    },
    payment: { method_code: 'card', method_name: 'Card' },
    shipping: { method_code: 'std', method_name: 'Standard', internal_method_code: 'std' },
    billing_address: address(),
    shipping_address: address({ street: '2 Side St' }),
    items,
    shipments: [],
    invoices: [],
    failure: null,
    courier: { attempts: 0, last_error: null, next_attempt_at: null },
    holds: [],
    cancellation_requests: [],
    allocated_at: null,
    shipped_at: null,
    invoiced_at: null,
    created_at: FIXTURE_TIME,
    updated_at: FIXTURE_TIME,
    fulfill_by: null,
    ...overrides,
  };
  return { ...base, status: overrides.status ?? deriveOrderStatus(base.items, base.failure) };
}

let counter = 100_000_000;
function nextNumber(): string {
  counter += 1;
  return String(counter);
}

/** A new token record (id 0 omitted) with a hash derived from its name. */
export function token(
  storeId: number,
  name: string,
  overrides: Partial<Omit<TokenRecord, 'id'>> = {},
): Omit<TokenRecord, 'id'> {
  return {
    store_id: storeId,
    name,
    hash: `hash-${storeId}-${name}`.padEnd(64, '0'),
    resources: ['Fulfil_FulfillmentOrder::api_pending_accept'],
    warehouses: null,
    expires_at: null,
    revoked_at: null,
    created_at: FIXTURE_TIME,
    ...overrides,
  };
}

/** One line of a sales order fixture; the price (incl. 22 % tax) defaults to 10. */
export interface SalesLineFixture {
  sku: string;
  qty: number;
  price?: number;
  name?: string;
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

/**
 * A valid intake request (the shape of docs/seed-file.md's orders): the lines' prices at 22 % tax,
 * shipping 5, and totals that add up. Amounts are plain numbers, as the API takes them.
 */
export function salesOrder(
  number: string,
  lines: readonly SalesLineFixture[] = [{ sku: 'SKU-1', qty: 2 }],
  overrides: Partial<SalesOrderInput> = {},
): SalesOrderInput {
  const items = lines.map(({ sku, qty, price = 10, name = `Product ${sku}` }) => {
    const priceExclTax = cents(price / 1.22);
    return {
      sku,
      name,
      qty,
      price,
      price_excl_tax: priceExclTax,
      tax_amount: cents(price - priceExclTax),
      tax_rate: 22,
      total_price: cents(price * qty),
      total_price_excl_tax: cents(priceExclTax * qty),
      total_tax_amount: cents((price - priceExclTax) * qty),
    };
  });
  const sum = (field: 'total_price' | 'total_price_excl_tax' | 'total_tax_amount') =>
    cents(items.reduce((total, line) => total + line[field], 0));
  return {
    sales_order_id: Number.parseInt(number, 10) || 1,
    sales_order_number: number,
    customer_firstname: 'Ada',
    customer_lastname: 'Lovelace',
    customer_email: 'ada@example.com',
    customer_is_guest: false,
    shipping_amount: 5,
    shipping_amount_excl_tax: 4.1,
    shipping_tax_amount: 0.9,
    shipping_tax_rate: 22,
    grand_total: cents(5 + sum('total_price')),
    grand_total_excl_tax: cents(4.1 + sum('total_price_excl_tax')),
    tax_amount: cents(0.9 + sum('total_tax_amount')),
    cod_amount: 0,
    package_value: sum('total_price'),
    payment: { method_code: 'card', method_name: 'Card' },
    shipping: { method_code: 'std', method_name: 'Standard', internal_method_code: 'std' },
    billing_address: address(),
    shipping_address: address(),
    items,
    ...overrides,
  };
}

/** The secrets of the tokens `seed()` creates: 32+ characters, as chosen secrets must be. */
export const SEED_TOKENS = {
  partner: 'fixture-partner-token-0123456789abcdef',
  erp: 'fixture-erp-token-000-0123456789abcdef',
  channel: 'fixture-channel-token-0123456789abcdef',
} as const;

/**
 * A seed (the document `loadSeed` and `fulfil seed` take) with one store, `default`: partner
 * warehouse WH-A, 100 of SKU-1, SKU-2 and SKU-3 there, a partner token scoped to WH-A, an ERP
 * token and a sales channel's token (secrets in SEED_TOKENS), and no orders. Every field of the store can be overridden.
 */
export function seed(overrides: Partial<SeedInput['stores'][number]> = {}): SeedInput {
  return {
    stores: [
      {
        code: 'default',
        settings: { partial_items: false, partial_qty: false, reroute: true },
        warehouses: [{ code: 'WH-A', name: 'Partner A', fulfilled_by: 'partner', priority: 10 }],
        stock: ['SKU-1', 'SKU-2', 'SKU-3'].map((sku) => ({
          warehouse_code: 'WH-A',
          sku,
          qty: 100,
        })),
        tokens: [
          { name: 'partner', token: SEED_TOKENS.partner, acl: 'partner', warehouses: ['WH-A'] },
          { name: 'erp', token: SEED_TOKENS.erp, acl: 'erp' },
          { name: 'channel', token: SEED_TOKENS.channel, acl: 'channel' },
        ],
        orders: [],
        ...overrides,
      },
    ],
  };
}

/** What the return fixtures need of a shipped fulfillment order (a queue's or an action's answer). */
export interface ShippedFixture {
  sales_order_number: string;
  fulfillment_order_number: string;
  items: readonly { id: number; qty: number }[];
}

/**
 * A return (`POST /V1/returns`) of every line of a shipped fulfillment order, whole, for
 * `reason` (docs/channel-guide.md, Returns); override any field, e.g. `warehouse_code`.
 */
export function returnOf(
  rma: string,
  order: ShippedFixture,
  overrides: Partial<ReturnRequestInput['return']> = {},
): ReturnRequestInput['return'] {
  return {
    rma_number: rma,
    sales_order_number: order.sales_order_number,
    items: order.items.map((line) => ({
      fulfillment_order_number: order.fulfillment_order_number,
      item_id: line.id,
      qty: line.qty,
      reason: 'unwanted' as const,
    })),
    ...overrides,
  };
}

/** A receipt (`POST /V1/return/receive`) of every line of a return, whole, in one disposition. */
export function receiptOf(
  opened: { rma_number: string; items: readonly { item_id: number; qty: number }[] },
  receiptNumber: string,
  disposition:
    | 'qty_restocked'
    | 'qty_quarantined'
    | 'qty_disposed'
    | 'qty_missing' = 'qty_restocked',
): ReceiptInput['receipt'] {
  return {
    rma_number: opened.rma_number,
    receipt_number: receiptNumber,
    items: opened.items.map((line) => ({ item_id: line.item_id, [disposition]: line.qty })),
  };
}

/** A credit (`POST /V1/return/credit`) of every line of a return, without amounts to check. */
export function creditOf(
  opened: { rma_number: string; items: readonly { item_id: number }[] },
  creditNoteNumber: string,
  overrides: Partial<CreditInput['credit']> = {},
): CreditInput['credit'] {
  return {
    rma_number: opened.rma_number,
    credit_note_number: creditNoteNumber,
    items: opened.items.map((line) => ({ item_id: line.item_id })),
    ...overrides,
  };
}
