/**
 * The admin API as the page calls it: relative URLs (`api/…` from the page at `/admin/`), so
 * the console works behind a proxy that mounts it under any prefix; never cached, so every
 * render shows what the server holds now.
 */

/** The error body every Fulfil API answers with, plus the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    /** The body's `parameters`: the fields it names, each with the value the server found. */
    readonly parameters: readonly { fieldName?: string; fieldValue?: string }[] = [],
  ) {
    super(message);
  }
}

/** Called when the session is gone (401), so the shell can show the login form. */
let onUnauthorized: () => void = () => {};
export function whenUnauthorized(callback: () => void): void {
  onUnauthorized = callback;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`api/${path}`, {
    method,
    cache: 'no-store',
    credentials: 'same-origin',
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let value: unknown = null;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    value = null;
  }
  if (!response.ok) {
    // The error body's `detail`: its message with the values filled in, as the server words it.
    const error = (value ?? {}) as {
      detail?: string;
      code?: string;
      parameters?: { fieldName?: string; fieldValue?: string }[];
    };
    if (response.status === 401 && path !== 'session') onUnauthorized();
    throw new ApiError(
      response.status,
      error.detail || `HTTP ${response.status}`,
      error.code,
      Array.isArray(error.parameters) ? error.parameters : [],
    );
  }
  return value as T;
}

/** A path segment, encoded: store codes, order numbers and skus are data. */
export const seg = (value: string): string => encodeURIComponent(value);

/** `a=1&b=2` of the values that are set. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

// ── the shapes the admin API answers with: the engine's own types (erased at build time) ──

import type {
  AdminEngine,
  BulkOutcome,
  Intervention,
  OperatorRole,
  OrderDetail,
  OrderList,
} from '@fulfil/core';

/** What the admin engine's `method` resolves to: what the API answers with as JSON. */
type Answer<Method extends keyof AdminEngine> = Awaited<
  ReturnType<Extract<AdminEngine[Method], (...args: never[]) => unknown>>
>;

export type {
  BulkOutcome as BulkResult,
  Intervention,
  OperatorRole as Role,
  OrderDetail,
  OrderList as OrderPage,
};
export type OrderSummary = OrderList['orders'][number];
export type Address = OrderDetail['order']['shipping_address'];
export type OrderItem = OrderDetail['order']['items'][number];
export type Shipment = OrderDetail['shipments'][number];
export type Track = Shipment['tracks'][number];
export type TimelineEntry = OrderDetail['timeline'][number];
export type Label = Answer<'labels'>['labels'][number];
export type Dashboard = Answer<'dashboard'>;
export type StoreDashboard = Dashboard['stores'][number];
export type Store = Answer<'getStore'>;
export type Warehouse = Answer<'listWarehouses'>['warehouses'][number];
export type StockRow = Answer<'listStock'>['items'][number];
export type StockHistoryItem = Answer<'stockHistory'>['items'][number];
export type RoutingPreview = Answer<'previewRouting'>;
export type TokenInfo = Answer<'listTokens'>['tokens'][number];
export type Operator = Answer<'listOperators'>[number];
export type ReservationMismatch = Answer<'checkReservations'>['mismatches'][number];
export type QuarantineMismatch = Answer<'checkReservations'>['quarantine'][number];
export type ReturnView = Answer<'getReturn'>;
export type HoldList = Answer<'holds'>;
export type CancellationRequestList = Answer<'cancellationRequests'>;
export type BulkCount = { count: number; selected: number };

export interface Session {
  name: string;
  role: OperatorRole;
  store_code: string | null;
}

/** The path of an order under `api/`, its parts encoded. */
export const orderPath = (store: string, number: string): string =>
  `stores/${seg(store)}/orders/${seg(number)}`;
