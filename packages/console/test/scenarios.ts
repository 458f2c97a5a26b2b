import { expect } from 'vitest';
import { type ConsoleServer, ERP_TOKEN, PARTNER_TOKEN } from './server.js';

/**
 * What partners, ERPs, couriers and operators do to the seeded orders, through the same APIs
 * they use, so that a page has something to show: an order that moved, shipped in part, had its
 * tracks corrected; an order invoiced; one shipped by courier with its label.
 */

export interface Detail {
  order: {
    status: string;
    items: { id: number; sku: string; qty: number; status: string; warehouse_code: string }[];
  };
  failure: { stage: string; reason: string; abandoned: boolean } | null;
  timeline: { action: string; actor: string; reason: string | null; details: unknown }[];
  shipments: { id: number; tracks: { track_number: string }[] }[];
}

export type Track = { carrier_code: string; title: string; track_number: string };

export const orderOf = (server: ConsoleServer, number: string) =>
  server.adminApi<Detail>('GET', `stores/default/orders/${number}`);

async function v1(server: ConsoleServer, path: string, token: string, body: unknown) {
  const answer = await server.v1('POST', path, token, body);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
}

/** The partner accepts the lines (all of them, or those listed) at their full quantity. */
export async function accept(server: ConsoleServer, number: string, only?: number[]) {
  const { items } = (await orderOf(server, number)).order;
  const open = items.filter(
    (item) => item.status === 'pending_accept' && (!only || only.includes(item.id)),
  );
  await v1(server, 'fulfillmentOrder/accept', PARTNER_TOKEN, {
    order: { order_id: number, items: open.map((item) => ({ item_id: item.id, qty: item.qty })) },
  });
}

/** The ERP allocates every line awaiting allocation. */
export async function allocate(server: ConsoleServer, number: string) {
  const { items } = (await orderOf(server, number)).order;
  await v1(server, 'fulfillmentOrder/allocate', ERP_TOKEN, {
    allocation: {
      order_id: number,
      items: items
        .filter((item) => item.status === 'pending_allocation')
        .map((item) => ({ item_id: item.id })),
    },
  });
}

/** The partner ships the lines of the given skus (default: every line ready to ship). */
export async function ship(
  server: ConsoleServer,
  number: string,
  tracks: Track[],
  skus?: string[],
) {
  const { items } = (await orderOf(server, number)).order;
  const lines = items.filter(
    (item) => item.status === 'pending_shipment' && (!skus || skus.includes(item.sku)),
  );
  await v1(server, 'fulfillmentOrder/ship', PARTNER_TOKEN, {
    shipment: {
      order_id: number,
      items: lines.map((item) => ({ item_id: item.id, qty: item.qty })),
      tracks,
    },
  });
}

/** The ERP invoices every shipped line, with the order's whole shipping amount. */
export async function invoice(server: ConsoleServer, number: string, invoiceNumber: string) {
  const { items } = (await orderOf(server, number)).order;
  await v1(server, 'fulfillmentOrder/invoice', ERP_TOKEN, {
    invoice: {
      order_id: number,
      items: items
        .filter((item) => item.status === 'pending_invoice')
        .map((item) => ({ item_id: item.id })),
      invoice_number: invoiceNumber,
      shipping_amount_incl_tax: 5,
    },
  });
}

export const BRT_TRACK: Track = { carrier_code: 'brt', title: 'BRT', track_number: '0123456789' };
export const UPS_TRACK: Track = { carrier_code: 'ups', title: 'UPS', track_number: '1Z999AA10' };

/**
 * `520000001-1`, every step an operator reads on its page: partials allowed for it, its SKU-3
 * line moved to WH-B (as `520000001-2`), the rest accepted and allocated, SKU-1 shipped with a
 * wrong track number that an operator then corrected.
 */
export async function walkThrough(
  server: ConsoleServer,
  /** Called between the steps (a test's clock moves on). */
  between: () => void = () => {},
): Promise<string> {
  const number = '520000001-1';
  const base = `stores/default/orders/${number}`;
  await server.adminApi('POST', `${base}/allow-partial`, { allow: true, reason: 'customer asked' });
  between();
  const { items } = (await orderOf(server, number)).order;
  const third = items.find((item) => item.sku === 'SKU-3')?.id as number;
  await server.adminApi('POST', `${base}/move-lines`, {
    items: [third],
    warehouse_code: 'WH-B',
    reason: 'out of stock at WH-A',
  });
  between();
  await accept(server, number);
  between();
  await allocate(server, number);
  between();
  await ship(server, number, [BRT_TRACK], ['SKU-1']);
  between();
  const [shipment] = (await orderOf(server, number)).shipments;
  await server.adminApi('POST', `${base}/correct-tracks`, {
    shipment: shipment?.id,
    tracks: [UPS_TRACK],
    reason: 'wrong carrier on the label',
  });
  return number;
}

/** `530000001-1`, shipped by the courier of WH-C: its label is a ZPL document. */
export async function shipByCourier(server: ConsoleServer, number = '530000001-1') {
  await allocate(server, number);
  const report = await server.engine.dispatchCourier();
  expect(report.shipped).toContain(number);
  return number;
}

/** A PDF the way carriers send one: base64 of the bytes. */
export const PDF_DOCUMENT = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
).toString('base64');

/** `540000001-1`, shipped by courier, its label then stored as a carrier that prints PDFs would. */
export async function shipWithPdfLabel(server: ConsoleServer) {
  const number = await shipByCourier(server, '540000001-1');
  const labels = await server.engine.listLabels('default', number);
  await server.repository.transaction((tx) =>
    tx.saveLabels(
      labels.map((label) => ({ ...label, document: PDF_DOCUMENT, document_format: 'pdf' })),
    ),
  );
  return number;
}
