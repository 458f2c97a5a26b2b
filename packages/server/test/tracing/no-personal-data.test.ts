import { createEngine, ManualClock } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterEach, describe, expect, test } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import { advance, call, START, TOKENS, testSeed } from '../http/support.js';
import { type Place, places } from './places.js';
import { registerTestSdk } from './sdk.js';

/**
 * A whole life over HTTP (intake, accept, allocate, ship, invoice, then a return received and
 * credited) with an SDK recording every span, every statement's included: no attribute of any
 * span, nor any log line, holds the customer's names, email, address or phone, nor a token's
 * secret. On each database: their statements and their errors differ.
 */

const { exporter } = registerTestSdk();

const address = fixtures.address({
  firstname: 'Zephyrine',
  lastname: 'Quillfeather',
  email: 'zephyrine.q@mailbox.example',
  street: '77 Juniper Hollow',
  city: 'Wrenfield',
  postcode: 'WF4 9QZ',
  telephone: '+44 20 7946 0321',
  company: 'Quillfeather Antiques',
  vat_id: 'GB999888777',
});
const PERSONAL = [
  'Zephyrine',
  'Quillfeather',
  'zephyrine.q@mailbox.example',
  'Juniper Hollow',
  'Wrenfield',
  'WF4 9QZ',
  '7946 0321',
  'GB999888777',
  'Marigold',
  'Thistlewood',
  'marigold@post.example',
  ...Object.values(TOKENS),
];

let open: { place: Place; server: RunningHttpServer } | undefined;
afterEach(async () => {
  await open?.server.close();
  await open?.place.drop();
  open = undefined;
});

async function serve(makePlace: () => Promise<Place>) {
  const place = await makePlace();
  const engine = createEngine({ repository: place.repository, clock: new ManualClock(START) });
  await engine.loadSeed(testSeed());
  const logs: string[] = [];
  const server = await startHttpServer({ engine, log: (line) => logs.push(line) });
  open = { place, server };
  return { place, server, logs };
}

/** Every text a span carries: its name, attributes, events', links' and resource's attributes. */
function textsOf(spans: ReturnType<typeof exporter.getFinishedSpans>): string[] {
  return spans.flatMap((span) => [
    span.name,
    JSON.stringify(span.attributes),
    JSON.stringify(span.events),
    JSON.stringify(span.links.map((link) => link.attributes ?? {})),
    JSON.stringify(span.status),
  ]);
}

describe.each(places)('on %s', (_name, makePlace) => {
  test('no span attribute and no log line of a whole order life holds personal data', async () => {
    const { place, server, logs } = await serve(makePlace);
    exporter.reset();
    const salesOrder = fixtures.salesOrder('700000001', [{ sku: 'SKU-1', qty: 2 }], {
      customer_firstname: 'Marigold',
      customer_lastname: 'Thistlewood',
      customer_email: 'marigold@post.example',
      warehouse_code: 'WH-A',
      billing_address: address,
      shipping_address: address,
    });
    const created = await call(server, 'POST', '/V1/salesOrders', {
      token: TOKENS.all,
      json: { sales_order: salesOrder },
    });
    expect(created.status, created.text).toBe(201);
    const number = '700000001-1';
    const invoiced = await advance(server, number, 'invoiced');
    expect(invoiced.status).toBe('invoiced');
    const opened = await call(server, 'POST', '/V1/returns', {
      token: TOKENS.all,
      json: {
        return: {
          rma_number: 'RMA-PII',
          sales_order_number: '700000001',
          items: [
            {
              fulfillment_order_number: number,
              item_id: invoiced.items[0].id,
              qty: 1,
              reason: 'damaged',
            },
          ],
        },
      },
    });
    expect(opened.status, opened.text).toBe(201);
    const received = await call(server, 'POST', '/V1/return/receive', {
      token: TOKENS.partnerA,
      json: {
        receipt: {
          rma_number: 'RMA-PII',
          receipt_number: 'RCV-PII',
          items: [{ item_id: invoiced.items[0].id, qty_restocked: 1, qty_quarantined: 0 }],
        },
      },
    });
    expect(received.status, received.text).toBe(200);
    const credited = await call(server, 'POST', '/V1/return/credit', {
      token: TOKENS.erp,
      json: {
        credit: {
          rma_number: 'RMA-PII',
          credit_note_number: 'CN-PII',
          items: [{ item_id: invoiced.items[0].id }],
          amount_incl_tax: 10,
        },
      },
    });
    expect(credited.status, credited.text).toBe(200);

    const spans = exporter.getFinishedSpans();
    // The life was traced: each action, and the statements under them.
    const actions = new Set(spans.map((span) => span.attributes['fulfil.action']));
    for (const action of [
      'createSalesOrder',
      'accept',
      'allocate',
      'ship',
      'invoice',
      'createReturn',
      'receiveReturn',
      'creditReturn',
    ]) {
      expect(actions, action).toContain(action);
    }
    expect(spans.filter((span) => span.name === 'fulfil route')).toHaveLength(1);
    expect(
      spans.filter((span) => span.attributes['db.system.name'] === place.system).length,
    ).toBeGreaterThan(50);

    const texts = [...textsOf(spans), ...logs];
    const found = PERSONAL.filter((value) => texts.some((text) => text.includes(value)));
    expect(found).toEqual([]);
    // The log lines carry the trace they belong to.
    const lines = logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    const traces = new Set(spans.map((span) => span.spanContext().traceId));
    expect(lines.filter((line) => line.msg === 'request').length).toBeGreaterThan(5);
    for (const line of lines.filter((entry) => entry.msg === 'request')) {
      expect(traces).toContain(line.trace_id);
      expect(line.request_id).toEqual(expect.any(String));
    }
  });
});
