import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, pollAll, readSeedFile, startTestServer, type TestServer } from './support.js';

/**
 * One order through all four stages, over HTTP only, as a partner and an ERP would work: a seed
 * file sets the database up, and from then on only the public REST surface is used.
 */

const seed = readSeedFile('flow-seed.json') as {
  stores: { tokens: { name: string; token: string }[] }[];
};
const tokenOf = (name: string) =>
  seed.stores[0]?.tokens.find((token) => token.name === name)?.token as string;
const PARTNER = tokenOf('partner-a');
const ERP = tokenOf('erp');
const ALL = tokenOf('all');
const QUEUES = [
  'pending_accept',
  'pending_allocation',
  'pending_shipment',
  'pending_invoice',
  'failed',
];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed });
});
afterAll(async () => {
  await server.close();
});

interface Order {
  fulfillment_order_number: string;
  status: string;
  grand_total?: number;
  shipping_amount?: number;
  items: { id: number; qty: number; sku: string; status: string; price?: number }[];
}

async function post(action: string, token: string, body: unknown): Promise<Order> {
  const reply = await call(server, 'POST', `/V1/fulfillmentOrder/${action}`, { token, json: body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function only(queue: string, token: string): Promise<Order> {
  const orders = (await pollAll(server, queue, token)) as Order[];
  expect(orders).toHaveLength(1);
  return orders[0] as Order;
}

test('pending_accept → accept → allocate → ship → invoice, then invoiced and in no queue', async () => {
  // The partner polls its queue: no prices at this stage.
  const offered = await only('pending_accept', PARTNER);
  expect(offered.fulfillment_order_number).toBe('100001001-1');
  expect(offered.grand_total).toBeUndefined();
  const number = offered.fulfillment_order_number;

  // …and accepts every item with its ordered quantity.
  const accepted = await post('accept', PARTNER, {
    order: {
      order_id: number,
      items: offered.items.map((item) => ({ item_id: item.id, qty: item.qty })),
    },
  });
  expect(accepted.status).toBe('pending_allocation');
  expect(await pollAll(server, 'pending_accept', PARTNER)).toEqual([]);

  // The ERP polls allocation, with prices, and confirms it.
  const toAllocate = await only('pending_allocation', ERP);
  expect(toAllocate.grand_total).toBe(35);
  const allocated = await post('allocate', ERP, {
    allocation: {
      order_id: number,
      items: toAllocate.items.map((item) => ({ item_id: item.id, qty: item.qty })),
    },
  });
  expect(allocated.status).toBe('pending_shipment');

  // The partner polls shipment and ships everything with two tracks.
  const toShip = await only('pending_shipment', PARTNER);
  const shipped = await post('ship', PARTNER, {
    shipment: {
      order_id: number,
      items: toShip.items.map((item) => ({ item_id: item.id, qty: item.qty })),
      carrier_tracking_number: 'TRK-1',
      carrier_title: 'DHL',
      tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z999' }],
    },
  });
  expect(shipped.status).toBe('pending_invoice');

  // The ERP polls invoicing and invoices exactly the shipped items with the shipping fee.
  const toInvoice = await only('pending_invoice', ERP);
  expect(toInvoice.items.map((item) => item.sku)).toEqual(['SKU-1', 'SKU-2']);
  const invoiced = await post('invoice', ERP, {
    invoice: {
      order_id: number,
      items: toInvoice.items.map((item) => ({ item_id: item.id })),
      invoice_number: 'INV-2026-0001',
      shipping_amount_incl_tax: toInvoice.shipping_amount,
      invoice_time: '2026-01-01 12:00:00',
    },
  });
  expect(invoiced.status).toBe('invoiced');
  expect(invoiced.items.map((item) => item.status)).toEqual(['invoiced', 'invoiced']);

  // Gone from every queue, for every role.
  for (const queue of QUEUES) expect(await pollAll(server, queue, ALL), queue).toEqual([]);

  // Invoicing again with the same number is an idempotent retry.
  const retried = await post('invoice', ERP, {
    invoice: {
      order_id: number,
      items: toInvoice.items.map((item) => ({ item_id: item.id })),
      invoice_number: 'INV-2026-0001',
    },
  });
  expect(retried).toEqual(invoiced);
});
