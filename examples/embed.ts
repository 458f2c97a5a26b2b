/**
 * Embedding the engine in your own Node app: no HTTP server, no separate process. The engine runs
 * every use case of the REST API (and the operator side) as a function call, with the same
 * validation, ACL and warehouse-scope checks the server applies.
 *
 * This walks one order through the whole flow on an in-memory SQLite database:
 * seed → intake → partner accepts → ERP allocates → partner ships → ERP invoices.
 *
 * Run it: npx tsx examples/embed.ts
 */
import { pathToFileURL } from 'node:url';
import { createEngine, type OrderHistory, type SeedInput } from '@fulfil/core';
import { openSqliteRepository } from '@fulfil/storage-sqlite';

// Secrets of the two integrators. In production they are generated (`engine.createToken`, or
// `fulfil token create`) and handed to the integrator once; a seed may fix them for demos.
const PARTNER_TOKEN = 'embed-example-partner-0123456789abcdef01234567';
const ERP_TOKEN = 'embed-example-erp-0123456789abcdef0123456789ab';

const address = {
  firstname: 'Giulia',
  lastname: 'Rossi',
  email: 'giulia.rossi@example.it',
  street: 'Via Torino 12',
  city: 'Milano',
  postcode: '20123',
  region: 'MI',
  country_id: 'IT',
  telephone: '+39 02 1234567',
  company: '',
  vat_id: '',
};

/** A sales order as the shop sends it: a moka pot and six espresso cups, VAT 22 % included. */
const salesOrder = {
  sales_order_id: 42,
  sales_order_number: '100000042',
  customer_firstname: 'Giulia',
  customer_lastname: 'Rossi',
  customer_email: 'giulia.rossi@example.it',
  customer_is_guest: false,
  shipping_amount: 6.9,
  shipping_amount_excl_tax: 5.66,
  shipping_tax_amount: 1.24,
  shipping_tax_rate: 22,
  grand_total: 60.8,
  grand_total_excl_tax: 49.84,
  tax_amount: 10.96,
  package_value: 53.9,
  payment: { method_code: 'card', method_name: 'Credit or debit card' },
  shipping: {
    method_code: 'standard',
    method_name: 'Standard delivery',
    internal_method_code: 'brt_standard',
  },
  billing_address: address,
  shipping_address: address,
  items: [
    {
      sku: 'MOKA-3',
      name: 'Moka pot, 3 cups',
      qty: 1,
      price: 29.9,
      price_excl_tax: 24.51,
      tax_amount: 5.39,
      tax_rate: 22,
      total_price: 29.9,
      total_price_excl_tax: 24.51,
      total_tax_amount: 5.39,
    },
    {
      sku: 'CUPS-ESP-6',
      name: 'Espresso cups, set of 6',
      qty: 1,
      price: 24,
      price_excl_tax: 19.67,
      tax_amount: 4.33,
      tax_rate: 22,
      total_price: 24,
      total_price_excl_tax: 19.67,
      total_tax_amount: 4.33,
    },
  ],
};

/** One store with one partner warehouse, its stock, and a token per integrator. */
const seed: SeedInput = {
  stores: [
    {
      code: 'shop',
      settings: { partial_items: false, reroute: true },
      warehouses: [{ code: 'WH-MILAN', name: 'Milan 3PL', fulfilled_by: 'partner', priority: 10 }],
      stock: [
        { warehouse_code: 'WH-MILAN', sku: 'MOKA-3', qty: 20 },
        { warehouse_code: 'WH-MILAN', sku: 'CUPS-ESP-6', qty: 20 },
      ],
      tokens: [
        { name: 'milan-3pl', token: PARTNER_TOKEN, acl: 'partner', warehouses: ['WH-MILAN'] },
        { name: 'erp', token: ERP_TOKEN, acl: 'erp' },
      ],
    },
  ],
};

export async function main(log: (line: string) => void = console.log): Promise<OrderHistory> {
  const repository = await openSqliteRepository(':memory:');
  const engine = createEngine({ repository });
  try {
    await engine.loadSeed(seed);

    // The shop hands over a sales order; the router turns it into fulfillment order(s).
    const [created] = await engine.intake('shop', salesOrder);
    log(`intake: ${created?.fulfillment_order_number} at ${created?.warehouse_code}`);

    // Integrators act as token holders: `authenticate` is what the REST server does with the
    // Bearer token. Every action checks the token's ACL and warehouses itself: the partner
    // could not allocate, nor see another partner's orders.
    const partner = await engine.authenticate('shop', PARTNER_TOKEN);
    const erp = await engine.authenticate('shop', ERP_TOKEN);

    // Partner: poll pending_accept and accept every item in full.
    const [toAccept] = await engine.poll(partner, 'pending_accept');
    if (!toAccept) throw new Error('nothing to accept');
    const orderId = toAccept.fulfillment_order_number;
    const accepted = await engine.accept(partner, {
      order: {
        order_id: orderId,
        items: toAccept.items.map((item) => ({ item_id: item.id, qty: item.qty })),
      },
    });
    log(`accept: ${orderId} is ${accepted.status}`);

    // ERP: allocate stock for what was accepted.
    const [toAllocate] = await engine.poll(erp, 'pending_allocation');
    const allocated = await engine.allocate(erp, {
      allocation: {
        order_id: orderId,
        items: (toAllocate?.items ?? []).map((item) => ({ item_id: item.id })),
      },
    });
    log(`allocate: ${orderId} is ${allocated.status}`);

    // Partner: pick, pack, hand over to the carrier, and report the shipment with its track.
    const [toShip] = await engine.poll(partner, 'pending_shipment');
    const shipped = await engine.ship(partner, {
      shipment: {
        order_id: orderId,
        items: (toShip?.items ?? []).map((item) => ({ item_id: item.id, qty: item.qty })),
        carrier_title: 'BRT',
        carrier_tracking_number: 'BRT-0000012345',
      },
    });
    log(`ship: ${orderId} is ${shipped.status}`);

    // ERP: invoice what shipped; the shipping fee must match the engine's (first invoice).
    const [toInvoice] = await engine.poll(erp, 'pending_invoice');
    const invoiced = await engine.invoice(erp, {
      invoice: {
        order_id: orderId,
        items: (toInvoice?.items ?? []).map((item) => ({ item_id: item.id })),
        invoice_number: 'FT-2025-000042',
        shipping_amount_incl_tax: toInvoice?.shipping_amount,
      },
    });
    log(`invoice: ${orderId} is ${invoiced.status}`);

    // The operator view: the order with its shipments, invoices and audit trail.
    const history = await engine.getOrderHistory('shop', orderId);
    log(JSON.stringify(history, null, 2));
    return history;
  } finally {
    await engine.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
