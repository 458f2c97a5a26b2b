import { fixtures } from '@fulfil/core/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, startTestServer, type TestServer } from '../http/support.js';

/**
 * A sales channel's whole walk over HTTP: it hands an order in, a partner and an ERP move it
 * through every stage, and the channel learns of each change from its feed, held with `wait`,
 * and shows the tracks from the Sales order view.
 */

const { channel: CHANNEL, partner: PARTNER, erp: ERP } = fixtures.SEED_TOKENS;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    seed: fixtures.seed({ settings: { partial_items: true, partial_qty: false, reroute: true } }),
  });
});
afterAll(() => server.close());

interface View {
  sales_order_number: string;
  status: string;
  fulfillment_orders: { fulfillment_order_number: string; items: { id: number; qty: number }[] }[];
  shipments: { tracks: { track_number: string; tracking_url?: string }[] }[];
  invoices: { invoice_number: string }[];
}

/** The feed since `cursor`, held until it has something: the views and the next cursor. */
async function follow(cursor: string): Promise<{ views: View[]; cursor: string }> {
  const reply = await call(server, 'GET', `/V1/salesOrders?since=${cursor}&wait=5`, {
    token: CHANNEL,
  });
  expect(reply.status, reply.text).toBe(200);
  return { views: reply.body, cursor: reply.headers.get('fulfil-cursor') as string };
}

async function act(action: string, token: string, body: unknown): Promise<void> {
  const reply = await call(server, 'POST', `/V1/fulfillmentOrder/${action}`, { token, json: body });
  expect(reply.status, reply.text).toBe(200);
}

test('intake → accept → allocate → ship (twice) → invoice: the feed delivers each change, the view shows the tracks', async () => {
  const start = await call(server, 'GET', '/V1/salesOrders?after=0', { token: CHANNEL });
  expect(start.body).toEqual([]);
  let cursor = start.headers.get('fulfil-cursor') as string;

  // The channel waits for news while it hands the order in.
  const waiting = follow(cursor);
  const order = fixtures.salesOrder('7000001', [
    { sku: 'SKU-1', qty: 2 },
    { sku: 'SKU-2', qty: 1 },
  ]);
  const created = await call(server, 'POST', '/V1/salesOrders', {
    token: CHANNEL,
    json: { sales_order: order },
  });
  expect(created.status, created.text).toBe(201);
  let seen = await waiting;
  expect(seen.views.map((view) => [view.sales_order_number, view.status])).toEqual([
    ['7000001', 'open'],
  ]);
  cursor = seen.cursor;
  const [fo] = (created.body as View).fulfillment_orders;
  if (!fo) throw new Error('one fulfillment order expected');
  const number = fo.fulfillment_order_number;
  const [first, second] = fo.items.map((item) => ({ item_id: item.id, qty: item.qty }));

  const steps: [string, string, unknown, string][] = [
    ['accept', PARTNER, { order: { order_id: number, items: [first, second] } }, 'open'],
    ['allocate', ERP, { allocation: { order_id: number, items: [first, second] } }, 'open'],
    [
      'ship',
      PARTNER,
      {
        shipment: {
          order_id: number,
          items: [first],
          tracks: [{ carrier_code: 'ups', title: 'UPS', track_number: '1Z999AA10123456784' }],
        },
      },
      'partially_shipped',
    ],
    [
      'ship',
      PARTNER,
      {
        shipment: {
          order_id: number,
          items: [second],
          carrier_tracking_number: 'LOCAL-7',
          carrier_title: 'Local courier',
        },
      },
      'shipped',
    ],
  ];
  for (const [action, token, body, status] of steps) {
    const next = follow(cursor);
    await act(action, token, body);
    seen = await next;
    expect(seen.views.map((view) => [view.sales_order_number, view.status])).toEqual([
      ['7000001', status],
    ]);
    cursor = seen.cursor;
  }

  const view = (await call(server, 'GET', '/V1/salesOrders/7000001', { token: CHANNEL })).body;
  expect(view.shipments.map((shipment: View['shipments'][number]) => shipment.tracks)).toEqual([
    [
      {
        carrier_code: 'ups',
        title: 'UPS',
        track_number: '1Z999AA10123456784',
        tracking_url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      },
    ],
    [{ carrier_code: 'Local courier', title: 'Local courier', track_number: 'LOCAL-7' }],
  ]);

  const invoiced = follow(cursor);
  await act('invoice', ERP, {
    invoice: {
      order_id: number,
      items: [first, second].map((item) => ({ item_id: item?.item_id })),
      invoice_number: 'INV-7000001',
    },
  });
  seen = await invoiced;
  expect(seen.views.map((found) => [found.status, found.invoices.length])).toEqual([
    ['invoiced', 1],
  ]);
  // Nothing more: an empty held poll ends with the same place in the feed.
  const idle = await call(server, 'GET', `/V1/salesOrders?since=${seen.cursor}&wait=0`, {
    token: CHANNEL,
  });
  expect(idle.body).toEqual([]);
});
