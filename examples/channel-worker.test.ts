import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@fulfil/client';
import { createEngine } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { startHttpServer } from '@fulfil/server';
import { openSqliteRepository } from '@fulfil/storage-sqlite';
import { describe, expect, it } from 'vitest';
import {
  handleOrderCreated,
  type ShopifyOrder,
  salesOrderFromShopify,
  shopifyOrderId,
  writeBack,
} from './channel-worker.js';
import { fakeLinesOf, SAMPLE_ORDER_FILE, shopifyHmac, startFakeShopify } from './fake-shopify.js';

const SECRET = 'shopify-webhook-secret-0123456789';

/**
 * An `orders/create` payload in the shape Shopify publishes for that topic (a REST Order of API
 * version 2025-01): ids, money as strings, tax lines, the customer, both addresses, shipping
 * lines and line items. Its REST `id` exceeds JavaScript's safe integers, as real ones do.
 */
const PAYLOAD = `{
  "id": 820982911946154508,
  "admin_graphql_api_id": "gid://shopify/Order/820982911946154508",
  "app_id": null,
  "browser_ip": null,
  "buyer_accepts_marketing": true,
  "cancel_reason": null,
  "cancelled_at": null,
  "cart_token": null,
  "checkout_id": null,
  "checkout_token": null,
  "confirmation_number": null,
  "confirmed": false,
  "contact_email": "jon@example.com",
  "created_at": "2025-01-01T10:00:00-05:00",
  "currency": "USD",
  "current_subtotal_price": "398.00",
  "current_total_price": "418.00",
  "current_total_tax": "0.00",
  "customer_locale": "en",
  "email": "jon@example.com",
  "estimated_taxes": false,
  "financial_status": "voided",
  "fulfillment_status": "pending",
  "name": "#9999",
  "note": null,
  "order_number": 1234,
  "order_status_url": "https://jsmith.myshopify.com/548380009/orders/123456abcd/authenticate?key=abcdefg",
  "payment_gateway_names": ["visa", "bogus"],
  "phone": null,
  "presentment_currency": "USD",
  "processed_at": "2025-01-01T10:00:00-05:00",
  "subtotal_price": "388.00",
  "tags": "tag1, tag2",
  "tax_lines": [],
  "taxes_included": false,
  "test": true,
  "total_discounts": "20.00",
  "total_line_items_price": "398.00",
  "total_price": "403.00",
  "total_tax": "0.00",
  "total_weight": 0,
  "updated_at": "2025-01-01T10:00:00-05:00",
  "user_id": null,
  "billing_address": {
    "first_name": "Steve", "address1": "123 Shipping Street", "phone": "555-555-SHIP",
    "city": "Shippington", "zip": "K2P0S0", "province": "Kentucky", "country": "United States",
    "last_name": "Shipper", "address2": null, "company": "Shipping Company", "latitude": null,
    "longitude": null, "name": "Steve Shipper", "country_code": "US", "province_code": "KY"
  },
  "customer": {
    "id": 115310627314723954, "email": "john@example.com", "created_at": null, "updated_at": null,
    "first_name": "John", "last_name": "Smith", "state": "disabled", "note": null,
    "verified_email": true, "multipass_identifier": null, "tax_exempt": false, "phone": null,
    "currency": "USD", "tax_exemptions": [],
    "admin_graphql_api_id": "gid://shopify/Customer/115310627314723954"
  },
  "discount_applications": [],
  "fulfillments": [],
  "line_items": [
    {
      "id": 866550311766439020, "admin_graphql_api_id": "gid://shopify/LineItem/866550311766439020",
      "attributed_staffs": [], "current_quantity": 1, "fulfillable_quantity": 1,
      "fulfillment_service": "manual", "fulfillment_status": null, "gift_card": false,
      "grams": 567, "name": "IPod Nano - 8GB", "price": "199.00",
      "price_set": { "shop_money": { "amount": "199.00", "currency_code": "USD" },
                     "presentment_money": { "amount": "199.00", "currency_code": "USD" } },
      "product_exists": true, "product_id": 632910392, "properties": [], "quantity": 1,
      "requires_shipping": true, "sku": "IPOD2008PINK", "taxable": true, "title": "IPod Nano - 8GB",
      "total_discount": "0.00", "variant_id": 808950810, "variant_inventory_management": "shopify",
      "variant_title": null, "vendor": null, "tax_lines": [], "duties": [], "discount_allocations": []
    },
    {
      "id": 141249953214522974, "admin_graphql_api_id": "gid://shopify/LineItem/141249953214522974",
      "attributed_staffs": [], "current_quantity": 1, "fulfillable_quantity": 1,
      "fulfillment_service": "manual", "fulfillment_status": null, "gift_card": false,
      "grams": 567, "name": "IPod Nano - 8GB", "price": "199.00",
      "price_set": { "shop_money": { "amount": "199.00", "currency_code": "USD" },
                     "presentment_money": { "amount": "199.00", "currency_code": "USD" } },
      "product_exists": true, "product_id": 632910392, "properties": [], "quantity": 1,
      "requires_shipping": true, "sku": "IPOD2008BLACK", "taxable": true, "title": "IPod Nano - 8GB",
      "total_discount": "5.00", "variant_id": 808950810, "variant_inventory_management": "shopify",
      "variant_title": null, "vendor": null, "tax_lines": [], "duties": [], "discount_allocations": []
    }
  ],
  "payment_terms": null,
  "refunds": [],
  "shipping_address": {
    "first_name": "Steve", "address1": "123 Shipping Street", "phone": "555-555-SHIP",
    "city": "Shippington", "zip": "K2P0S0", "province": "Kentucky", "country": "United States",
    "last_name": "Shipper", "address2": null, "company": "Shipping Company", "latitude": null,
    "longitude": null, "name": "Steve Shipper", "country_code": "US", "province_code": "KY"
  },
  "shipping_lines": [
    {
      "id": 271878346596884015, "carrier_identifier": null, "code": null,
      "discounted_price": "10.00", "is_removed": false, "phone": null, "price": "10.00",
      "price_set": { "shop_money": { "amount": "10.00", "currency_code": "USD" },
                     "presentment_money": { "amount": "10.00", "currency_code": "USD" } },
      "requested_fulfillment_service_id": null, "source": "shopify",
      "title": "Generic Shipping", "tax_lines": [], "discount_allocations": []
    }
  ]
}`;

const sign = (body: Buffer, secret = SECRET) =>
  createHmac('sha256', secret).update(body).digest('base64');

describe('examples/channel-worker.ts', () => {
  it('maps a Shopify order: its exact id as the number, amounts as numbers, a complete sales order', () => {
    const order = salesOrderFromShopify(JSON.parse(PAYLOAD) as ShopifyOrder);
    expect(order).toMatchObject({
      sales_order_id: 1234,
      sales_order_number: '820982911946154508',
      customer_firstname: 'John',
      customer_email: 'jon@example.com',
      customer_is_guest: false,
      shipping_amount: 10,
      grand_total: 403,
      payment: { method_code: 'visa', method_name: 'visa, bogus' },
      shipping: { method_code: '', method_name: 'Generic Shipping' },
    });
    expect(order.items.map((item) => [item.sku, item.qty, item.price])).toEqual([
      ['IPOD2008PINK', 1, 199],
      ['IPOD2008BLACK', 1, 199],
    ]);
  });

  it('verifies the webhook, hands the order in once, and writes the tracking back to Shopify when it ships', async () => {
    const engine = createEngine({ repository: await openSqliteRepository(':memory:') });
    await engine.loadSeed(
      fixtures.seed({
        stock: ['IPOD2008PINK', 'IPOD2008BLACK'].map((sku) => ({
          warehouse_code: 'WH-A',
          sku,
          qty: 10,
        })),
      }),
    );
    const server = await startHttpServer({ engine, port: 0, log: () => {} });
    const shopify = await startFakeShopify('820982911946154508', [
      { id: 'gid://shopify/FulfillmentOrderLineItem/1', sku: 'IPOD2008PINK', remainingQuantity: 1 },
      {
        id: 'gid://shopify/FulfillmentOrderLineItem/2',
        sku: 'IPOD2008BLACK',
        remainingQuantity: 1,
      },
    ]);
    try {
      const fulfil = createClient({
        baseUrl: server.url,
        storeCode: 'default',
        token: fixtures.SEED_TOKENS.channel,
      });
      const body = Buffer.from(PAYLOAD, 'utf8');

      // A forged delivery reaches no one.
      const forged = await handleOrderCreated(fulfil, body, sign(body, 'not-the-secret'), SECRET);
      expect(forged.status).toBe(401);
      expect((await fulfil.salesOrdersPage({ after: 0 })).salesOrders).toEqual([]);

      // Shopify delivers it, and delivers it again: one sales order.
      const first = await handleOrderCreated(fulfil, body, sign(body), SECRET);
      const again = await handleOrderCreated(fulfil, body, sign(body), SECRET);
      expect(first.status).toBe(200);
      expect(again.salesOrder).toEqual(first.salesOrder);
      const page = await fulfil.salesOrdersPage({ after: 0 });
      expect(page.salesOrders.map((salesOrder) => salesOrder.sales_order_number)).toEqual([
        '820982911946154508',
      ]);

      // The partner and the ERP do their part (through the engine here): two parcels.
      const operator = engine.operator('default');
      const [fo] = first.salesOrder?.fulfillment_orders ?? [];
      const orderId = fo?.fulfillment_order_number as string;
      const items = (fo?.items ?? []).map((item) => ({ item_id: item.id, qty: item.qty }));
      await engine.upsertStore('default', { partial_items: true });
      await engine.accept(operator, { order: { order_id: orderId, items } });
      await engine.allocate(operator, { allocation: { order_id: orderId, items } });
      await engine.ship(operator, {
        shipment: {
          order_id: orderId,
          items: items.slice(0, 1),
          tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z999AA10123456784' }],
        },
      });

      // The worker reads the feed after its cursor and tells Shopify, through its schema.
      const told = new Set<number>();
      const admin = { shopUrl: shopify.url, accessToken: shopify.accessToken };
      const changed = await fulfil.salesOrdersPage({ since: page.cursor as string });
      for (const salesOrder of changed.salesOrders) await writeBack(admin, salesOrder, told);
      await engine.ship(operator, {
        shipment: {
          order_id: orderId,
          items: items.slice(1),
          tracks: [{ carrier_code: 'fedex', title: 'FedEx', track_number: '7489' }],
        },
      });
      const later = await fulfil.salesOrdersPage({ since: changed.cursor as string });
      for (const salesOrder of [...later.salesOrders, ...later.salesOrders]) {
        await writeBack(admin, salesOrder, told); // a view seen twice writes once
      }

      expect(shopify.calls.flatMap((call) => call.violations)).toEqual([]);
      expect(shopify.calls).toHaveLength(4);
      expect(shopify.fulfillments).toEqual([
        {
          lineItemsByFulfillmentOrder: [
            {
              fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/1046000001',
              fulfillmentOrderLineItems: [
                { id: 'gid://shopify/FulfillmentOrderLineItem/1', quantity: 1 },
              ],
            },
          ],
          notifyCustomer: true,
          trackingInfo: {
            company: 'UPS',
            number: '1Z999AA10123456784',
            url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
          },
        },
        {
          lineItemsByFulfillmentOrder: [
            {
              fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/1046000001',
              fulfillmentOrderLineItems: [
                { id: 'gid://shopify/FulfillmentOrderLineItem/2', quantity: 1 },
              ],
            },
          ],
          notifyCustomer: true,
          trackingInfo: {
            company: 'FedEx',
            number: '7489',
            url: 'https://www.fedex.com/fedextrack/?trknbr=7489',
          },
        },
      ]);
    } finally {
      await shopify.close();
      await server.close();
      await engine.close();
    }
  });

  it('the fake refuses what Shopify would: a field its schema does not have', async () => {
    const shopify = await startFakeShopify('1', []);
    try {
      const response = await fetch(`${shopify.url}/admin/api/2025-01/graphql.json`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-access-token': shopify.accessToken,
        },
        body: JSON.stringify({
          query:
            'mutation { fulfillmentCreate(fulfillment: { trackingNumber: "1" }) { userErrors { message } } }',
        }),
      });
      expect(((await response.json()) as { errors?: unknown[] }).errors?.length).toBeGreaterThan(0);
      expect(shopify.calls[0]?.violations.length).toBeGreaterThan(0);
    } finally {
      await shopify.close();
    }
  });

  it('runs as a process: from now on, through a Shopify outage, and on from its saved cursor', async () => {
    const raw = readFileSync(SAMPLE_ORDER_FILE);
    const payload = JSON.parse(raw.toString('utf8')) as ShopifyOrder;
    const skus = payload.line_items.map((line) => line.sku as string);
    const engine = createEngine({ repository: await openSqliteRepository(':memory:') });
    await engine.loadSeed(
      fixtures.seed({
        settings: { partial_items: true },
        stock: skus.map((sku) => ({ warehouse_code: 'WH-A', sku, qty: 10 })),
      }),
    );
    const server = await startHttpServer({ engine, port: 0, log: () => {} });
    const { orderId, lines } = fakeLinesOf(payload);
    const shopify = await startFakeShopify(orderId, lines);
    const dir = await mkdtemp(join(tmpdir(), 'channel-worker-'));
    const stateFile = join(dir, 'cursor');
    const operator = engine.operator('default');
    const fulfil = createClient({
      baseUrl: server.url,
      storeCode: 'default',
      token: fixtures.SEED_TOKENS.channel,
    });
    /** The partner and the ERP take the lines of `skus` of a fulfillment order to shipped. */
    const shipLines = async (number: string, only: string[], track: string) => {
      const order = await engine.getOrder('default', number);
      const items = order.items
        .filter((item) => only.includes(item.sku))
        .map((item) => ({ item_id: item.id, qty: item.qty }));
      await engine.accept(operator, { order: { order_id: number, items } });
      await engine.allocate(operator, { allocation: { order_id: number, items } });
      await engine.ship(operator, {
        shipment: {
          order_id: number,
          items,
          tracks: [{ carrier_code: 'brt', title: 'BRT', track_number: track }],
        },
      });
    };
    // An order that shipped before the worker ever ran: it is not written back.
    const old = salesOrderFromShopify({
      ...payload,
      admin_graphql_api_id: 'gid://shopify/Order/5660010000999',
    });
    const oldView = await fulfil.createSalesOrder(old);
    await shipLines(
      oldView.fulfillment_orders[0]?.fulfillment_order_number as string,
      skus,
      'OLD-1',
    );

    let worker: ChildProcess | undefined;
    let output = '';
    const start = async () => {
      output = '';
      worker = spawn(process.execPath, ['--import', 'tsx', 'examples/channel-worker.ts'], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: {
          ...process.env,
          FULFIL_URL: server.url,
          FULFIL_TOKEN: fixtures.SEED_TOKENS.channel,
          SHOPIFY_URL: shopify.url,
          SHOPIFY_ACCESS_TOKEN: shopify.accessToken,
          SHOPIFY_WEBHOOK_SECRET: SECRET,
          CHANNEL_WORKER_STATE: stateFile,
          PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      worker.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      worker.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      await until(() => /listening .* on (http:\S+)/.test(output) && /following/.test(output));
      return /listening .* on (http:\S+)/.exec(output)?.[1] as string;
    };
    const until = async (check: () => boolean) => {
      while (!check()) {
        if (worker?.exitCode !== null) throw new Error(`the worker ended:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const stop = async () => {
      const ended = new Promise<number | null>((done) => worker?.once('exit', done));
      worker?.kill('SIGTERM');
      return ended;
    };
    try {
      const webhook = await start();
      expect(output).toContain('following the sales orders feed from now on');
      // Shopify is down for its next two calls; the worker waits and tries again.
      shopify.fail(2);
      const delivered = await fetch(webhook, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-hmac-sha256': shopifyHmac(raw, SECRET),
        },
        body: raw,
      });
      expect(delivered.status).toBe(200);
      const view = await fulfil.getSalesOrder(shopifyOrderId(payload));
      const number = view.fulfillment_orders[0]?.fulfillment_order_number as string;
      await shipLines(number, ['MOKA-3'], 'BRT-1');
      await until(() => shopify.fulfillments.length === 1);
      expect(output).toMatch(/Shopify: 503 .*; trying again in 1 s/);
      expect(output).toMatch(/trying again in 2 s/);
      expect(worker?.exitCode).toBeNull();
      expect(await stop()).toBe(0);
      const saved = (await readFile(stateFile, 'utf8')).trim();
      expect(saved.length).toBeGreaterThan(0);

      // Shipped while the worker was down: it goes on from its cursor, and tells Shopify once.
      await shipLines(number, ['CUPS-ESP-6'], 'BRT-2');
      await start();
      expect(output).toContain('from the cursor saved in');
      await until(() => shopify.fulfillments.length === 2);
      expect(
        shopify.fulfillments.map((entry) => (entry.trackingInfo as { number: string }).number),
      ).toEqual(['BRT-1', 'BRT-2']);
      // Never a word about the order that shipped before the worker ran.
      expect(JSON.stringify(shopify.calls)).not.toContain('5660010000999');
      expect(shopify.calls.flatMap((call) => call.violations)).toEqual([]);
      expect(await stop()).toBe(0);
    } finally {
      if (worker?.exitCode === null) worker.kill('SIGKILL');
      await shopify.close();
      await server.close();
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
