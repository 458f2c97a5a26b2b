import type { CalendarFields, Weekday } from './calendar.js';
import type { Money } from './money.js';
import type { RoutingRule, WhenShort } from './routing/rules.js';
import type { Timestamp } from './timestamp.js';

/**
 * The engine's records. Resource fields keep the names of the public contract
 * (fulfillment-order-service.md) so that reading the spec and reading the code is one act.
 */

export type ItemStatus =
  | 'pending_accept'
  | 'pending_allocation'
  | 'pending_shipment'
  | 'pending_invoice'
  | 'invoiced'
  | 'rejected'
  | 'canceled';

export type OrderStatus =
  | 'pending_accept'
  | 'pending_allocation'
  | 'pending_shipment'
  | 'pending_invoice'
  | 'invoiced'
  | 'partially_accepted'
  | 'partially_allocated'
  | 'partially_shipped'
  | 'partially_invoiced'
  | 'rejected'
  | 'canceled'
  | 'failed';

/**
 * The queues an order moves through; `failed` is the one it leaves them for, and
 * `pending_cancellation` lists it beside them while a cancellation request waits for its partner.
 */
export type ActiveQueueName = Exclude<QueueName, 'failed' | 'pending_cancellation'>;

/**
 * What a store's `attention_after_hours` sets: each active queue, counted from the order's
 * creation, and `pending_cancellation`, counted from the request's.
 */
export type AttentionQueueName = ActiveQueueName | 'pending_cancellation';

export type QueueName =
  | 'pending_accept'
  | 'pending_allocation'
  | 'pending_shipment'
  | 'pending_invoice'
  | 'failed'
  | 'pending_cancellation';

/** The stage of the flow in which an order failed (docs/behaviour.md). */
export type FailureStage = 'allocation' | 'shipment' | 'invoice';

export interface CourierSettings {
  /** `simulated`, or the type of the carrier account the store ships with. */
  type: string;
  /**
   * The installation's carrier account the store ships with, by name (docs/couriers.md): where
   * its calls go and which secret they carry are the installation's, never the store's.
   */
  account?: string;
  /** Skus the built-in `simulated` courier refuses, to rehearse failures. */
  fail_skus: string[];
  max_attempts: number;
  /** How long the built-in `simulated` courier takes to answer, to rehearse a slow courier. */
  delay_ms: number;
  /** Carrier calls a second this process makes for the store's carrier account (default 5). */
  rate_per_second?: number;
  /** ShipEngine: the carrier account, service and ship-from warehouse labels are bought with. */
  carrier_id?: string;
  service_code?: string;
  warehouse_id?: string;
  /** ShipEngine: the address parcels leave from and return to. */
  ship_from?: CarrierAddress;
}

/**
 * Where releases before carrier accounts let a store point its courier, as such stores still
 * hold it. Read only to find the account the installation declares with exactly this type, URL
 * and variable (docs/couriers.md, "Upgrading"); no store can write it any more.
 */
export interface LegacyCourierEndpoint {
  url?: string;
  base_url?: string;
  secret_env?: string;
  api_key_env?: string;
}

/** A warehouse's postal address as carriers take it. */
export interface CarrierAddress {
  name: string;
  phone: string;
  company_name?: string;
  address_line1: string;
  city_locality: string;
  state_province: string;
  postal_code: string;
  country_code: string;
}

export interface StoreSettings {
  partial_items: boolean;
  partial_qty: boolean;
  reroute: boolean;
  courier: CourierSettings & LegacyCourierEndpoint;
  /** ISO 4217 code the console shows amounts in; absent or null: two decimals, no symbol. */
  currency?: string | null;
  /**
   * Hours an order may wait in each queue, counted from its creation, and a cancellation request
   * unanswered, counted from the request, before the dashboard asks a person to look (null:
   * never); a queue left out takes its default (attention.ts).
   */
  attention_after_hours?: Partial<Record<AttentionQueueName, number | null>>;
  // Routing (docs/routing.md); absent, each is its default (routingSettings).
  /** The routing rules, in order. */
  routing?: RoutingRule[];
  /** The most warehouses the fewest-shipments search tries. */
  max_shipments?: number;
  /** Whether one line's quantity may be split across warehouses. */
  split_lines?: boolean;
  /** What intake does with an order that has a short line (`route_anyway`, `hold`). */
  when_short?: WhenShort;
  // Deadlines (docs/deadlines.md).
  /** Hours before its `fulfill_by` an unshipped order is at risk (default 24). */
  at_risk_hours?: number;
  /** The calendar of each warehouse that sets no field of its own. */
  calendar?: CalendarFields;
}

export interface Store {
  id: number;
  code: string;
  settings: StoreSettings;
}

export type FulfilledBy = 'partner' | 'courier';

export interface Warehouse {
  store_id: number;
  code: string;
  name: string;
  active: boolean;
  fulfilled_by: FulfilledBy;
  /** Higher goes first when routing and rerouting. */
  priority: number;
  // Routing (docs/routing.md); absent is null.
  /** Where it is (the `distance` rule), with `longitude`; null: unknown, it sorts last. */
  latitude?: number | null;
  longitude?: number | null;
  /** ISO 3166-1 alpha-2 codes of the countries it ships to (the `market` rule); null: all. */
  countries?: string[] | null;
  /** Fulfillment orders it takes per local day (the `capacity` rules); null: no limit. */
  daily_capacity?: number | null;
  /** Kept back from routing of each sku without its own (docs/behaviour.md, Stock); absent is 0. */
  safety_stock?: number;
  /**
   * IANA time zone its days are counted in; absent or null: UTC for its daily capacity, the
   * store's calendar's (else UTC) for its deadlines.
   */
  timezone?: string | null;
  // Its calendar (docs/deadlines.md); null or absent: the store's, else the default.
  processing_days?: number | null;
  working_days?: Weekday[] | null;
  holidays?: string[] | null;
  cutoff?: string | null;
}

export interface StockLevel {
  warehouse_code: string;
  sku: string;
  on_hand: number;
  reserved: number;
  /** This sku's own safety stock there; absent: the warehouse's. */
  safety_stock?: number;
}

/** A change to apply atomically to one stock row; rows that do not exist start at 0. */
export interface StockDelta {
  warehouse_code: string;
  sku: string;
  on_hand: number;
  reserved: number;
}

export interface Address {
  firstname: string;
  lastname: string;
  email: string;
  street: string;
  city: string;
  postcode: string;
  region: string;
  country_id: string;
  telephone: string;
  company: string;
  vat_id: string;
}

export interface Payment {
  method_code: string;
  method_name: string;
}

export interface Shipping {
  method_code: string;
  method_name: string;
  internal_method_code: string;
  customer_note?: string;
  pickup_point_delivery?: { location_id: string; location_name: string };
}

export interface OrderAmounts {
  shipping_amount?: Money;
  shipping_amount_excl_tax?: Money;
  shipping_tax_amount?: Money;
  shipping_tax_rate?: Money;
  grand_total?: Money;
  grand_total_excl_tax?: Money;
  tax_amount?: Money;
  cod_amount?: Money;
  package_value?: Money;
}

export interface ItemAmounts {
  price?: Money;
  price_excl_tax?: Money;
  tax_amount?: Money;
  tax_rate?: Money;
  total_price?: Money;
  total_price_excl_tax?: Money;
  total_tax_amount?: Money;
}

export const ORDER_AMOUNT_FIELDS = [
  'shipping_amount',
  'shipping_amount_excl_tax',
  'shipping_tax_amount',
  'shipping_tax_rate',
  'grand_total',
  'grand_total_excl_tax',
  'tax_amount',
  'cod_amount',
  'package_value',
] as const satisfies readonly (keyof OrderAmounts)[];

export const ITEM_AMOUNT_FIELDS = [
  'price',
  'price_excl_tax',
  'tax_amount',
  'tax_rate',
  'total_price',
  'total_price_excl_tax',
  'total_tax_amount',
] as const satisfies readonly (keyof ItemAmounts)[];

export interface Item {
  /** 0 until the repository stores it. */
  id: number;
  status: ItemStatus;
  /** The source warehouse: differs from the order's for an inter-warehouse transfer. */
  warehouse_code: string;
  name: string;
  sku: string;
  qty: number;
  amounts: ItemAmounts;
  /** Warehouses that already turned this line down; rerouting never goes back to them. */
  rejected_by: string[];
  /** Set once the item is invoiced. */
  invoice_number: string | null;
}

export interface Track {
  carrier_code: string;
  title: string;
  track_number: string;
  /** The tracking page the courier's label named; only on tracks of courier labels. */
  tracking_url?: string;
}

export interface Shipment {
  /** 0 until the repository stores it. */
  id: number;
  items: { item_id: number; qty: number }[];
  tracks: Track[];
  created_at: Timestamp;
}

export interface Invoice {
  /** 0 until the repository stores it. */
  id: number;
  invoice_number: string;
  item_ids: number[];
  shipping_amount_incl_tax: Money;
  invoice_time: string | null;
  additional_data: string | null;
  doc_binary: string | null;
  created_at: Timestamp;
}

export interface OrderFailure {
  stage: FailureStage;
  reason: string;
  /** An abandoned order stays failed for good. */
  abandoned: boolean;
  failed_at: Timestamp;
}

/** Courier dispatch bookkeeping for orders of `fulfilled_by: "courier"` warehouses. */
export interface CourierState {
  attempts: number;
  last_error: string | null;
  /** Earliest moment of the next attempt; null when none is due. */
  next_attempt_at: Timestamp | null;
}

/** Why an order is held (docs/channel-guide.md). */
export const HOLD_REASONS = [
  'awaiting_payment',
  'high_risk_of_fraud',
  'incorrect_address',
  'inventory_out_of_stock',
  'other',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** A hold on a fulfillment order, placed for its sales order under a handle. */
export interface OrderHold {
  /** Unique per sales order: the one `release` names. */
  handle: string;
  reason: HoldReason;
  note: string | null;
  placed_by: string;
  placed_at: Timestamp;
  /** Null while the hold is active. */
  released_by: string | null;
  released_at: Timestamp | null;
}

/** Why a sales channel or an operator cancels (docs/channel-guide.md). */
export const CANCELLATION_REASONS = ['customer', 'fraud', 'inventory', 'other'] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/** A request to the partner holding a fulfillment order's accepted lines to cancel them. */
export interface CancellationRequest {
  /** 1, 2, … within its fulfillment order. */
  id: number;
  reason: CancellationReason;
  item_ids: number[];
  requested_by: string;
  requested_at: Timestamp;
  status: 'open' | 'accepted' | 'rejected';
  /** The partner's words; `shipped` when a ship of one of its lines rejected it. */
  message: string | null;
  /** Null while open, and for a request a ship rejected. */
  answered_by: string | null;
  answered_at: Timestamp | null;
}

export interface Customer {
  customer_firstname: string;
  customer_lastname: string;
  customer_email: string;
  customer_is_guest: boolean;
}

export interface FulfillmentOrder extends Customer {
  /** 0 until the repository stores it. */
  id: number;
  store_id: number;
  fulfillment_order_number: string;
  sales_order_id: number;
  sales_order_number: string;
  warehouse_code: string;
  /** Customer consent or operator override; null defers to the store settings. */
  allow_partial: boolean | null;
  status: OrderStatus;
  amounts: OrderAmounts;
  payment: Payment;
  shipping: Shipping;
  billing_address: Address;
  shipping_address: Address;
  items: Item[];
  shipments: Shipment[];
  invoices: Invoice[];
  failure: OrderFailure | null;
  courier: CourierState;
  /** Every hold placed on it, active ones with `released_at` null; oldest first. */
  holds: OrderHold[];
  /** Every cancellation request made of it, at most one open (the last); oldest first. */
  cancellation_requests: CancellationRequest[];
  allocated_at: Timestamp | null;
  shipped_at: Timestamp | null;
  invoiced_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * When it must leave its warehouse (docs/deadlines.md); null for one taken in before deadlines
   * were kept.
   */
  fulfill_by?: Timestamp | null;
}

/** Who performs an action: a token, or an operator working through the library or CLI. */
export interface Actor {
  store_code: string;
  /** Recorded in the audit trail. */
  name: string;
  /** Warehouses the actor may see; null means the whole store. */
  warehouses: readonly string[] | null;
  /** The request that acts (HTTP `X-Request-Id`), recorded with each audit event; null: none. */
  request_id?: string | null;
  /** Why the actor acts (an operator's words), recorded with each audit event. */
  reason?: string | null;
}

export interface AuditEvent {
  id: number;
  order_id: number;
  at: Timestamp;
  actor: string;
  action: string;
  details: Record<string, unknown>;
  /** The request that caused it; null (or absent) for the CLI, the library and older events. */
  request_id?: string | null;
  /** The operator's stated reason, when one was given. */
  reason?: string | null;
}

export interface TokenRecord {
  id: number;
  store_id: number;
  name: string;
  /** SHA-256 of the secret, hex; the secret itself is never stored. */
  hash: string;
  resources: string[];
  warehouses: string[] | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
  /** Last authentication with it, to the minute (admin-api); absent where not tracked. */
  last_used_at?: Timestamp | null;
}
