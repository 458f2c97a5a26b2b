/**
 * A sales channel's worker: a Shopify store hands its orders to Fulfil and learns from Fulfil
 * when they ship. It takes Shopify's `orders/create` webhook (verifying its HMAC), maps the order
 * to a sales order and hands it in with @fulfil/client (a retried webhook is answered with the
 * same sales order: never a second one), and follows the sales orders feed: when a sales order
 * has a shipment Shopify has not heard of, it creates a fulfillment there with the tracking
 * number, through Shopify's Admin GraphQL API (`fulfillmentCreate`).
 *
 * It keeps the feed's cursor in a file (CHANNEL_WORKER_STATE, default `channel-worker.cursor`):
 * a restart goes on where it stopped. With none saved (a first start) it follows the feed from
 * now on: orders that shipped before it ran are not written back. A failed call (Shopify or
 * Fulfil down, a refusal) is logged and tried again after a wait that doubles; the worker never
 * stops for it. SIGINT or SIGTERM stops it.
 *
 * Against your shop (examples/README.md runs it against a local fake of Shopify instead):
 *   FULFIL_TOKEN=<a channel token> SHOPIFY_SHOP=<shop>.myshopify.com SHOPIFY_ACCESS_TOKEN=… \
 *   SHOPIFY_WEBHOOK_SECRET=… npx tsx examples/channel-worker.ts
 * SHOPIFY_URL (any base URL, such as the fake's) takes the place of SHOPIFY_SHOP. It listens for
 * the webhook on PORT (default 3000, path /webhooks/orders-create).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as wait } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import {
  type ClientOptions,
  createClient,
  FulfilApiError,
  type FulfilClient,
  type SalesOrder,
  type SalesOrderInput,
} from '@fulfil/client';

/** The Admin API version whose schema the calls below are written against. */
export const SHOPIFY_API_VERSION = '2025-01';

// ── the webhook ─────────────────────────────────────────────────────────────────────────────

/**
 * Whether `rawBody` is what Shopify signed: `X-Shopify-Hmac-Sha256` is the base64 HMAC-SHA256 of
 * the raw body with the app's secret, compared in constant time. Verify the bytes as received,
 * before parsing them.
 */
export function verifyShopifyWebhook(
  rawBody: Buffer,
  hmacHeader: string | undefined,
  secret: string,
): boolean {
  if (!hmacHeader) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(hmacHeader, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface ShopifyAddress {
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  zip?: string | null;
  province_code?: string | null;
  country_code?: string | null;
  phone?: string | null;
}

interface ShopifyTaxLine {
  price: string;
  rate: number;
}

/** The fields of Shopify's `orders/create` payload (a REST Order) this worker reads. */
export interface ShopifyOrder {
  admin_graphql_api_id: string;
  order_number: number;
  name: string;
  email?: string | null;
  contact_email?: string | null;
  taxes_included: boolean;
  total_price: string;
  subtotal_price: string;
  total_tax: string;
  payment_gateway_names?: string[];
  customer?: { first_name?: string | null; last_name?: string | null } | null;
  billing_address?: ShopifyAddress | null;
  shipping_address?: ShopifyAddress | null;
  shipping_lines: {
    code?: string | null;
    title: string;
    price: string;
    tax_lines: ShopifyTaxLine[];
  }[];
  line_items: {
    sku?: string | null;
    variant_id?: number | null;
    name: string;
    quantity: number;
    price: string;
    tax_lines: ShopifyTaxLine[];
    requires_shipping: boolean;
  }[];
}

const money = (text: string | number) => Math.round(Number(text) * 100) / 100;
const sum = (lines: readonly { price: string }[]) =>
  money(lines.reduce((total, line) => total + Number(line.price), 0));

/** Shopify's order id, exact: the numeric part of its GraphQL id (the REST `id` loses digits in JS). */
export function shopifyOrderId(order: Pick<ShopifyOrder, 'admin_graphql_api_id'>): string {
  const id = /^gid:\/\/shopify\/Order\/(\d+)$/.exec(order.admin_graphql_api_id)?.[1];
  if (!id) throw new Error(`not a Shopify order id: ${order.admin_graphql_api_id}`);
  return id;
}

function addressOf(address: ShopifyAddress | null | undefined, email: string) {
  const street = [address?.address1, address?.address2].filter(Boolean).join(', ');
  return {
    firstname: address?.first_name ?? '',
    lastname: address?.last_name ?? '',
    email,
    street,
    city: address?.city ?? '',
    postcode: address?.zip ?? '',
    region: address?.province_code ?? '',
    country_id: address?.country_code ?? '',
    telephone: address?.phone ?? '',
    company: address?.company ?? '',
    vat_id: '',
  };
}

/**
 * The sales order of a Shopify order: its number is Shopify's order id (unique per shop, and how
 * the tracking finds its way back), its id the shop's order number; prices include tax as Fulfil
 * keeps them. Lines that need no shipping (a gift card) are left to Shopify.
 */
export function salesOrderFromShopify(order: ShopifyOrder): SalesOrderInput {
  const email = order.email ?? order.contact_email ?? '';
  const shipping = order.shipping_lines[0];
  const shippingTax = money(order.shipping_lines.reduce((t, line) => t + sum(line.tax_lines), 0));
  const shippingAmount = money(
    order.shipping_lines.reduce((t, line) => t + Number(line.price), 0) +
      (order.taxes_included ? 0 : shippingTax),
  );
  const items = order.line_items
    .filter((line) => line.requires_shipping)
    .map((line) => {
      const unitTax = money(sum(line.tax_lines) / line.quantity);
      const price = money(Number(line.price) + (order.taxes_included ? 0 : unitTax));
      return {
        sku: line.sku || `variant-${line.variant_id}`,
        name: line.name,
        qty: line.quantity,
        price,
        price_excl_tax: money(price - unitTax),
        tax_amount: unitTax,
        tax_rate: money((line.tax_lines[0]?.rate ?? 0) * 100),
        total_price: money(price * line.quantity),
        total_price_excl_tax: money((price - unitTax) * line.quantity),
        total_tax_amount: money(unitTax * line.quantity),
      };
    });
  const grandTotal = money(order.total_price);
  return {
    sales_order_id: order.order_number,
    sales_order_number: shopifyOrderId(order),
    customer_firstname: order.customer?.first_name ?? order.shipping_address?.first_name ?? '',
    customer_lastname: order.customer?.last_name ?? order.shipping_address?.last_name ?? '',
    customer_email: email,
    customer_is_guest: !order.customer,
    shipping_amount: shippingAmount,
    shipping_amount_excl_tax: money(shippingAmount - shippingTax),
    shipping_tax_amount: shippingTax,
    grand_total: grandTotal,
    grand_total_excl_tax: money(grandTotal - money(order.total_tax)),
    tax_amount: money(order.total_tax),
    package_value: money(items.reduce((total, item) => total + item.total_price, 0)),
    payment: {
      method_code: order.payment_gateway_names?.[0] ?? '',
      method_name: order.payment_gateway_names?.join(', ') ?? '',
    },
    shipping: {
      method_code: shipping?.code ?? '',
      method_name: shipping?.title ?? '',
      internal_method_code: shipping?.code ?? '',
    },
    billing_address: addressOf(order.billing_address ?? order.shipping_address, email),
    shipping_address: addressOf(order.shipping_address, email),
    items,
  };
}

/** What a webhook delivery came to: the HTTP status to answer Shopify with, and why. */
export interface WebhookAnswer {
  status: number;
  salesOrder?: SalesOrder;
  message?: string;
}

/**
 * Handles one `orders/create` delivery. A bad signature is 401 and reaches no one; the order is
 * handed in, and a delivery Shopify sends again (it retries until it gets a 2xx) is answered by
 * Fulfil with the same sales order. A 409 (the same number with other content) is answered 200
 * all the same: Shopify cannot mend it by retrying; it needs a person, so it is logged.
 */
export async function handleOrderCreated(
  fulfil: FulfilClient,
  rawBody: Buffer,
  hmacHeader: string | undefined,
  secret: string,
): Promise<WebhookAnswer> {
  if (!verifyShopifyWebhook(rawBody, hmacHeader, secret)) {
    return { status: 401, message: 'the HMAC does not match' };
  }
  const order = JSON.parse(rawBody.toString('utf8')) as ShopifyOrder;
  try {
    return { status: 200, salesOrder: await fulfil.createSalesOrder(salesOrderFromShopify(order)) };
  } catch (error) {
    if (error instanceof FulfilApiError && (error.status === 409 || error.status === 400)) {
      return { status: 200, message: error.message };
    }
    throw error; // 5xx: Shopify delivers again later, and the retry is safe
  }
}

// ── writing the tracking back ───────────────────────────────────────────────────────────────

/** Shopify's Admin GraphQL API, as the worker calls it. */
export interface ShopifyAdmin {
  /** `https://<shop>.myshopify.com` (or a local fake's URL). */
  shopUrl: string;
  accessToken: string;
  fetch?: typeof fetch;
}

async function graphql<T>(admin: ShopifyAdmin, query: string, variables: object): Promise<T> {
  const response = await (admin.fetch ?? fetch)(
    `${admin.shopUrl}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-access-token': admin.accessToken,
      },
      body: JSON.stringify({ query, variables }),
    },
  );
  const answer = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (!response.ok || answer.errors?.length || !answer.data) {
    throw new Error(`Shopify: ${response.status} ${JSON.stringify(answer.errors ?? answer)}`);
  }
  return answer.data;
}

export const FULFILLMENT_ORDERS_QUERY = `query FulfillmentOrdersOf($id: ID!) {
  order(id: $id) {
    fulfillmentOrders(first: 20) {
      nodes { id status lineItems(first: 100) { nodes { id sku remainingQuantity } } }
    }
  }
}`;

export const FULFILLMENT_CREATE = `mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id status }
    userErrors { field message }
  }
}`;

interface FulfillmentOrders {
  order: {
    fulfillmentOrders: {
      nodes: {
        id: string;
        status: string;
        lineItems: { nodes: { id: string; sku: string | null; remainingQuantity: number }[] };
      }[];
    };
  } | null;
}

/**
 * Tells Shopify of one shipment: the open fulfillment order lines of its skus, with its first
 * track (company, number and the carrier's tracking page when Fulfil knows it).
 */
export async function fulfillOnShopify(
  admin: ShopifyAdmin,
  salesOrder: SalesOrder,
  shipment: SalesOrder['shipments'][number],
): Promise<void> {
  const id = `gid://shopify/Order/${salesOrder.sales_order_number}`;
  const { order } = await graphql<FulfillmentOrders>(admin, FULFILLMENT_ORDERS_QUERY, { id });
  const wanted = new Map<string, number>();
  for (const item of shipment.items) wanted.set(item.sku, (wanted.get(item.sku) ?? 0) + item.qty);
  const lineItemsByFulfillmentOrder = (order?.fulfillmentOrders.nodes ?? [])
    .filter((fo) => fo.status === 'OPEN' || fo.status === 'IN_PROGRESS')
    .map((fo) => ({
      fulfillmentOrderId: fo.id,
      fulfillmentOrderLineItems: fo.lineItems.nodes.flatMap((line) => {
        const qty = Math.min(wanted.get(line.sku ?? '') ?? 0, line.remainingQuantity);
        if (qty <= 0) return [];
        wanted.set(line.sku ?? '', (wanted.get(line.sku ?? '') ?? 0) - qty);
        return [{ id: line.id, quantity: qty }];
      }),
    }))
    .filter((entry) => entry.fulfillmentOrderLineItems.length > 0);
  if (lineItemsByFulfillmentOrder.length === 0) return; // nothing left open there
  const [track] = shipment.tracks;
  const created = await graphql<{
    fulfillmentCreate: { userErrors: { field: string[] | null; message: string }[] };
  }>(admin, FULFILLMENT_CREATE, {
    fulfillment: {
      lineItemsByFulfillmentOrder,
      notifyCustomer: true,
      ...(track
        ? {
            trackingInfo: {
              company: track.title || track.carrier_code,
              number: track.track_number,
              ...(track.tracking_url ? { url: track.tracking_url } : {}),
            },
          }
        : {}),
    },
  });
  const errors = created.fulfillmentCreate.userErrors;
  if (errors.length) throw new Error(`Shopify refused the fulfillment: ${JSON.stringify(errors)}`);
}

/** Shipments already told to Shopify, by shipment id (a view comes again whenever it changes). */
export type Told = Set<number>;

/** Tells Shopify of every shipment of `salesOrder` it has not been told of. */
export async function writeBack(admin: ShopifyAdmin, salesOrder: SalesOrder, told: Told) {
  for (const shipment of salesOrder.shipments) {
    if (told.has(shipment.id)) continue;
    await fulfillOnShopify(admin, salesOrder, shipment);
    told.add(shipment.id);
  }
}

/** How the worker goes on when something fails: where it logs, and how it waits. */
export interface Patience {
  log: (line: string) => void;
  /** Waits `ms` (resolves early when the worker is stopped). */
  sleep: (ms: number) => Promise<void>;
  /** The first wait after a failure, doubling at each one after: default 1 s. */
  firstWaitMs?: number;
  /** The longest wait: default 60 s. */
  maxWaitMs?: number;
  /** Attempts at one sales order before moving on: default 6. */
  attempts?: number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The wait before attempt `attempt + 1`, after `attempt` failures (1-based). */
export function backoffMs(patience: Patience, attempt: number): number {
  const first = patience.firstWaitMs ?? 1_000;
  return Math.min(first * 2 ** (attempt - 1), patience.maxWaitMs ?? 60_000);
}

/**
 * `writeBack`, never throwing: a failed Shopify call (an outage, a 5xx, a refusal) is logged, and
 * tried again after a wait that doubles; after the last attempt the worker goes on with the
 * feed, and the shipments left untold are told when the sales order next comes (any change of
 * it), or at a restart from an earlier cursor. Answers whether every shipment was told.
 */
export async function writeBackPatiently(
  admin: ShopifyAdmin,
  salesOrder: SalesOrder,
  told: Told,
  patience: Patience,
): Promise<boolean> {
  const attempts = patience.attempts ?? 6;
  const which = `sales order ${salesOrder.sales_order_number}`;
  for (let attempt = 1; ; attempt++) {
    const before = told.size;
    try {
      await writeBack(admin, salesOrder, told);
      if (told.size > before)
        patience.log(`${which}: Shopify told of ${told.size - before} shipment(s)`);
      return true;
    } catch (error) {
      if (attempt >= attempts) {
        patience.log(`${which}: ${messageOf(error)}; giving up for now, going on with the feed`);
        return false;
      }
      const wait = backoffMs(patience, attempt);
      patience.log(`${which}: ${messageOf(error)}; trying again in ${wait / 1000} s`);
      await patience.sleep(wait);
    }
  }
}

/**
 * The cursor of the feed as it stands: following from it, the worker tells Shopify of what ships
 * from now on, never of what shipped before it started.
 */
export async function cursorOfNow(fulfil: FulfilClient): Promise<string> {
  // Any page carries the cursor of the moment it was read; one past the last id is empty.
  const { cursor } = await fulfil.salesOrdersPage({ after: Number.MAX_SAFE_INTEGER });
  if (!cursor) throw new Error('Fulfil answered the feed without a Fulfil-Cursor');
  return cursor;
}

/**
 * Follows the sales orders feed for as long as `signal` lets it (held polls, resumed from the
 * cursor across failures), writing each new shipment back to Shopify. With no `cursor` (a first
 * start), it follows from now: what shipped before is not written back. `onCursor` is handed
 * each cursor to persist, the first one at once. Throws when the feed refuses the worker for
 * good (401, 403): the caller logs it and tries again later.
 */
export async function followShipments(
  fulfil: FulfilClient,
  admin: ShopifyAdmin,
  told: Told,
  options: {
    cursor?: string;
    onCursor?: (cursor: string) => void;
    signal?: AbortSignal;
    patience: Patience;
  },
): Promise<void> {
  const { onCursor, signal, patience } = options;
  let cursor = options.cursor;
  if (cursor === undefined) {
    cursor = await cursorOfNow(fulfil);
    onCursor?.(cursor);
  }
  const watching = fulfil.watchSalesOrders({
    cursor,
    ...(onCursor ? { onCursor } : {}),
    ...(signal ? { signal } : {}),
  });
  for await (const salesOrder of watching) {
    await writeBackPatiently(admin, salesOrder, told, patience);
  }
}

/** The webhook's path on the worker's own HTTP server. */
export const WEBHOOK_PATH = '/webhooks/orders-create';

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line: string) => console.log(`channel-worker: ${line}`);
  const missing = ['FULFIL_TOKEN', 'SHOPIFY_ACCESS_TOKEN', 'SHOPIFY_WEBHOOK_SECRET'].filter(
    (name) => !process.env[name],
  );
  if (!process.env.SHOPIFY_URL && !process.env.SHOPIFY_SHOP) missing.push('SHOPIFY_SHOP');
  if (missing.length > 0) {
    console.error(`channel-worker: set ${missing.join(', ')} (see examples/README.md)`);
    process.exit(2);
  }
  const env = (name: string) => process.env[name] as string;
  const options: ClientOptions = {
    baseUrl: process.env.FULFIL_URL ?? 'http://127.0.0.1:8080',
    storeCode: process.env.FULFIL_STORE ?? 'default',
    token: env('FULFIL_TOKEN'),
  };
  const fulfil = createClient(options);
  const admin: ShopifyAdmin = {
    // The shop's own address, or any base URL (a local fake of Shopify's Admin API).
    shopUrl: (process.env.SHOPIFY_URL ?? `https://${env('SHOPIFY_SHOP')}`).replace(/\/+$/, ''),
    accessToken: env('SHOPIFY_ACCESS_TOKEN'),
  };
  const secret = env('SHOPIFY_WEBHOOK_SECRET');
  // Where the feed's cursor is kept across restarts.
  const stateFile = process.env.CHANNEL_WORKER_STATE ?? 'channel-worker.cursor';
  const saved = existsSync(stateFile) ? readFileSync(stateFile, 'utf8').trim() : '';

  const stop = new AbortController();
  const sleep = (ms: number) => wait(ms, undefined, { signal: stop.signal }).catch(() => {});
  const patience: Patience = { log, sleep };
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== WEBHOOK_PATH) return res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hmac = req.headers['x-shopify-hmac-sha256'];
      handleOrderCreated(
        fulfil,
        Buffer.concat(chunks),
        typeof hmac === 'string' ? hmac : undefined,
        secret,
      )
        .then((answer) => {
          log(
            `webhook: ${answer.status}${answer.salesOrder ? `, sales order ${answer.salesOrder.sales_order_number}` : ''}${answer.message ? `: ${answer.message}` : ''}`,
          );
          res.writeHead(answer.status).end();
        })
        .catch((error: unknown) => {
          // Shopify delivers it again later: the retry is safe.
          log(`webhook: ${messageOf(error)}; answered 503`);
          res.writeHead(503).end();
        });
    });
  });
  server.listen(Number(process.env.PORT ?? 3000), () => {
    const { port } = server.address() as AddressInfo;
    log(`listening for Shopify's orders/create webhook on http://127.0.0.1:${port}${WEBHOOK_PATH}`);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping`);
      stop.abort();
      server.close();
    });
  }

  let cursor = saved || undefined;
  log(
    cursor
      ? `following the sales orders feed from the cursor saved in ${stateFile}`
      : `no cursor saved in ${stateFile}: following the sales orders feed from now on (what shipped before is not written back)`,
  );
  const told: Told = new Set();
  for (let failures = 0; !stop.signal.aborted; ) {
    try {
      await followShipments(fulfil, admin, told, {
        ...(cursor ? { cursor } : {}),
        onCursor: (next) => {
          cursor = next;
          writeFileSync(stateFile, `${next}\n`);
        },
        signal: stop.signal,
        patience,
      });
      failures = 0;
    } catch (error) {
      if (stop.signal.aborted) break;
      failures += 1;
      const ms = backoffMs(patience, failures);
      log(`the sales orders feed: ${messageOf(error)}; trying again in ${ms / 1000} s`);
      await sleep(ms);
    }
  }
}
