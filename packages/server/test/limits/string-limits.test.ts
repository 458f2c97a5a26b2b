import { DomainError, type Engine, unverified } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/index.js';
import { databaseKinds, type TestDatabase } from '../databases/open.js';
import { call } from '../http/support.js';

/**
 * String limits (codes, skus and numbers 128 characters; names, titles, addresses 255; …): the
 * value at the limit is accepted and stored whole, one character more is a 400 naming the field,
 * on every database alike. Characters are Unicode code points: the values below mix 1- to
 * 4-byte characters, which is what pushes a Postgres index past its row size.
 */

const MIX = ['a', 'é', '漢', '😀'];

/** `n` characters (code points) of mixed width, starting with `prefix`. */
function chars(n: number, prefix = ''): string {
  const out = [...prefix];
  while (out.length < n) out.push(MIX[out.length % MIX.length] as string);
  return out.slice(0, n).join('');
}

const TOKEN = 'limits-all-secret-0123456789abcdefgh';
const ADDRESS_FIELDS = [
  'firstname',
  'lastname',
  'email',
  'street',
  'city',
  'postcode',
  'region',
  'country_id',
  'telephone',
  'company',
  'vat_id',
];

type Order = Record<string, unknown> & {
  payment: Record<string, unknown>;
  shipping: Record<string, unknown> & { pickup_point_delivery: Record<string, unknown> };
  billing_address: Record<string, unknown>;
  shipping_address: Record<string, unknown>;
  items: Record<string, unknown>[];
};

/** Every bounded string field of a sales order: its path, its limit, and how to set it. */
const INTAKE_FIELDS: [string, number, (order: Order, value: string) => void][] = [
  ['sales_order_number', 120, (o, value) => Object.assign(o, { sales_order_number: value })],
  ['customer_firstname', 255, (o, value) => Object.assign(o, { customer_firstname: value })],
  ['customer_lastname', 255, (o, value) => Object.assign(o, { customer_lastname: value })],
  ['customer_email', 255, (o, value) => Object.assign(o, { customer_email: value })],
  ['payment.method_code', 128, (o, value) => Object.assign(o.payment, { method_code: value })],
  ['payment.method_name', 255, (o, value) => Object.assign(o.payment, { method_name: value })],
  ['shipping.method_code', 128, (o, value) => Object.assign(o.shipping, { method_code: value })],
  ['shipping.method_name', 255, (o, value) => Object.assign(o.shipping, { method_name: value })],
  [
    'shipping.internal_method_code',
    128,
    (o, value) => Object.assign(o.shipping, { internal_method_code: value }),
  ],
  [
    'shipping.customer_note',
    2000,
    (o, value) => Object.assign(o.shipping, { customer_note: value }),
  ],
  [
    'shipping.pickup_point_delivery.location_id',
    128,
    (o, value) => Object.assign(o.shipping.pickup_point_delivery, { location_id: value }),
  ],
  [
    'shipping.pickup_point_delivery.location_name',
    255,
    (o, value) => Object.assign(o.shipping.pickup_point_delivery, { location_name: value }),
  ],
  ...(['billing_address', 'shipping_address'] as const).flatMap((address) =>
    ADDRESS_FIELDS.map(
      (field) =>
        [
          `${address}.${field}`,
          255,
          (o: Order, value: string) => Object.assign(o[address], { [field]: value }),
        ] as [string, number, (order: Order, value: string) => void],
    ),
  ),
  ['items[0].sku', 128, (o, value) => Object.assign(o.items[0] as object, { sku: value })],
  ['items[0].name', 255, (o, value) => Object.assign(o.items[0] as object, { name: value })],
];

function baseOrder(number: string): Order {
  const order = fixtures.salesOrder(number, [{ sku: 'SKU-1', qty: 1 }], {
    warehouse_code: 'WH-A',
  }) as unknown as Order;
  order.shipping = {
    ...order.shipping,
    pickup_point_delivery: { location_id: 'P', location_name: 'P' },
  };
  order.billing_address = { ...order.billing_address };
  order.shipping_address = { ...order.shipping_address };
  order.payment = { ...order.payment };
  order.items = order.items.map((line) => ({ ...line }));
  return order;
}

async function rejection(run: Promise<unknown>): Promise<DomainError> {
  const error = await run.then(
    () => new Error('expected a 400, the call succeeded'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof DomainError)) throw error;
  return error;
}

for (const kind of databaseKinds()) {
  describe(`string limits on ${kind.name}`, () => {
    let database: TestDatabase;
    let engine: Engine;
    let server: RunningHttpServer;

    beforeAll(async () => {
      database = await kind.open();
      engine = database.engine;
      await engine.loadSeed({
        stores: [
          {
            code: 'default',
            warehouses: [
              { code: 'WH-A', name: 'A', priority: 10 },
              { code: chars(128, 'W'), name: chars(255), priority: 1 },
            ],
            stock: [{ warehouse_code: 'WH-A', sku: 'SKU-1', qty: 100 }],
            tokens: [{ name: 'all', token: TOKEN, acl: 'all' }],
          },
        ],
      });
      server = await startHttpServer({ engine, log: () => {} });
    });

    afterAll(async () => {
      await server?.close();
      await database?.drop();
    });

    it('intake stores every field at its limit whole', async () => {
      const order = baseOrder('');
      for (const [path, limit, set] of INTAKE_FIELDS) set(order, chars(limit, path[0]));
      const [created] = await engine.intake('default', unverified(order));
      const stored = await engine.getOrder('default', created?.fulfillment_order_number as string);
      expect(stored.sales_order_number).toBe(order.sales_order_number);
      expect(stored.shipping).toEqual(order.shipping);
      expect(stored.billing_address).toEqual(order.billing_address);
      expect(stored.items[0]?.sku).toBe(order.items[0]?.sku);
      expect(stored.items[0]?.name).toBe(order.items[0]?.name);
    });

    it('intake refuses each field one character past its limit, naming it, storing nothing', async () => {
      const before = await database.snapshot();
      for (const [path, limit, set] of INTAKE_FIELDS) {
        const order = baseOrder(`L-${path}`);
        set(order, chars(limit + 1, 'x'));
        const error = await rejection(engine.intake('default', unverified(order)));
        expect(error.code, path).toBe('invalid_request');
        expect(error.parameters[0]?.fieldName, path).toBe(path);
      }
      expect(await database.snapshot()).toEqual(before);
    });

    it('seed and operator inputs are bounded too', async () => {
      const before = await database.snapshot();
      const seed = (store: Record<string, unknown>) =>
        engine.loadSeed({ stores: [{ code: 'default', ...store }] });
      const refused: [() => Promise<unknown>, string][] = [
        [
          () => seed({ warehouses: [{ code: chars(129), name: 'x' }] }),
          'stores[0].warehouses[0].code',
        ],
        [
          () => seed({ warehouses: [{ code: 'WH-N', name: chars(256) }] }),
          'stores[0].warehouses[0].name',
        ],
        [
          () => seed({ stock: [{ warehouse_code: 'WH-A', sku: chars(129), qty: 1 }] }),
          'stores[0].stock[0].sku',
        ],
        [() => seed({ tokens: [{ name: chars(256), acl: 'all' }] }), 'stores[0].tokens[0].name'],
        [
          () => seed({ tokens: [{ name: 't', token: chars(513), acl: 'all' }] }),
          'stores[0].tokens[0].token',
        ],
        [
          () => seed({ settings: { courier: { fail_skus: [chars(129)] } } }),
          'stores[0].settings.courier.fail_skus[0]',
        ],
        [() => engine.createToken('default', { name: 't', acl: [chars(129)] }), 'acl[0]'],
        [() => engine.upsertWarehouse('default', { code: 'WH-N', name: chars(256) }), 'name'],
      ];
      for (const [run, path] of refused) {
        const error = await rejection(run());
        expect(error.parameters[0]?.fieldName, path).toBe(path);
      }
      const [created] = await engine.intake('default', unverified(baseOrder('OP-1')));
      const number = created?.fulfillment_order_number as string;
      const failError = await rejection(engine.failOrder('default', number, chars(2001)));
      expect(failError.parameters[0]?.fieldName).toBe('reason');
      await engine.failOrder('default', number, chars(2000));
      expect(before).not.toEqual(await database.snapshot());
    });

    it('stock sync: sku and warehouse_code at 128 are stored, at 129 a 400, never a 500', async () => {
      const longWarehouse = chars(128, 'W');
      const ok = await call(server, 'POST', '/V1/stockItems', {
        token: TOKEN,
        json: { stock_items: [{ warehouse_code: longWarehouse, sku: chars(128, 'S'), qty: 3 }] },
      });
      expect(ok.status).toBe(200);
      expect(ok.body[0].sku).toBe(chars(128, 'S'));
      const before = await database.snapshot();
      for (const [entry, path] of [
        [{ warehouse_code: 'WH-A', sku: chars(129) }, 'stock_items[0].sku'],
        [{ warehouse_code: 'WH-A', sku: 'x'.repeat(3000) }, 'stock_items[0].sku'],
        [{ warehouse_code: 'WH-A', sku: 'x'.repeat(900_000) }, 'stock_items[0].sku'],
        [{ warehouse_code: chars(129), sku: 'S' }, 'stock_items[0].warehouse_code'],
      ] as const) {
        const reply = await call(server, 'POST', '/V1/stockItems', {
          token: TOKEN,
          json: { stock_items: [{ ...entry, qty: 1 }] },
        });
        expect(reply.status, path).toBe(400);
        expect(reply.body.parameters[0].fieldName, path).toBe(path);
      }
      expect(await database.snapshot()).toEqual(before);
    });

    it('actions: every field at its limit goes through, one more is a 400 that changes nothing', async () => {
      const salesNumber = chars(120, 'N');
      await engine.intake('default', unverified(baseOrder(salesNumber)));
      const orderId = `${salesNumber}-1`;
      const [item] = (await engine.getOrder('default', orderId)).items;
      const items = [{ item_id: item?.id as number, qty: 1 }];
      const post = (action: string, json: unknown) =>
        call(server, 'POST', `/V1/fulfillmentOrder/${action}`, { token: TOKEN, json });

      const tooLong: [string, unknown, string][] = [
        ['accept', { order: { order_id: chars(129), items } }, 'order.order_id'],
        ['reject', { order: { order_id: chars(129), items } }, 'order.order_id'],
        ['allocate', { allocation: { order_id: chars(129), items } }, 'allocation.order_id'],
        [
          'allocate',
          {
            allocation: { order_id: orderId, items: [{ ...items[0], warehouse_code: chars(129) }] },
          },
          'allocation.items[0].warehouse_code',
        ],
      ];
      const ship = (extra: Record<string, unknown>) => ({
        shipment: { order_id: orderId, items, ...extra },
      });
      const track = { carrier_code: chars(128), title: chars(255), track_number: chars(128) };
      tooLong.push(
        ['ship', ship({ carrier_tracking_number: chars(129) }), 'shipment.carrier_tracking_number'],
        ['ship', ship({ carrier_title: chars(256) }), 'shipment.carrier_title'],
        [
          'ship',
          ship({ tracks: [{ ...track, carrier_code: chars(129) }] }),
          'shipment.tracks[0].carrier_code',
        ],
        ['ship', ship({ tracks: [{ ...track, title: chars(256) }] }), 'shipment.tracks[0].title'],
        [
          'ship',
          ship({ tracks: [{ ...track, track_number: chars(129) }] }),
          'shipment.tracks[0].track_number',
        ],
      );
      const invoice = (extra: Record<string, unknown>) => ({
        invoice: { order_id: orderId, items, invoice_number: 'INV-1', ...extra },
      });
      tooLong.push(
        ['invoice', invoice({ invoice_number: chars(129) }), 'invoice.invoice_number'],
        ['invoice', invoice({ invoice_time: chars(129) }), 'invoice.invoice_time'],
        ['invoice', invoice({ additional_data: chars(65_536) }), 'invoice.additional_data'],
      );
      const before = await database.snapshot();
      for (const [action, body, path] of tooLong) {
        const reply = await post(action, body);
        expect(reply.status, path).toBe(400);
        expect(reply.body.parameters[0].fieldName, path).toBe(path);
      }
      expect(await database.snapshot()).toEqual(before);

      expect((await post('accept', { order: { order_id: orderId, items } })).status).toBe(200);
      expect((await post('allocate', { allocation: { order_id: orderId, items } })).status).toBe(
        200,
      );
      const shipped = await post(
        'ship',
        ship({ carrier_tracking_number: chars(128), carrier_title: chars(255), tracks: [track] }),
      );
      expect(shipped.status).toBe(200);
      const invoiced = await post(
        'invoice',
        invoice({
          invoice_number: chars(128),
          invoice_time: chars(128),
          additional_data: chars(65_535),
        }),
      );
      expect(invoiced.status).toBe(200);
      const history = await engine.getOrderHistory('default', orderId);
      expect(history.shipments[0]?.tracks).toContainEqual(track);
      expect(history.invoices[0]?.invoice_number).toBe(chars(128));
      expect(history.invoices[0]?.additional_data).toBe(chars(65_535));
    });

    it('invoice doc_binary: up to 1,048,576 characters through the engine', async () => {
      const [created] = await engine.intake('default', unverified(baseOrder('DOC-1')));
      const orderId = created?.fulfillment_order_number as string;
      const actor = engine.operator('default');
      const items = [{ item_id: created?.items[0]?.id as number, qty: 1 }];
      await engine.accept(actor, { order: { order_id: orderId, items } });
      await engine.allocate(actor, { allocation: { order_id: orderId, items } });
      await engine.ship(actor, { shipment: { order_id: orderId, items } });
      const invoice = (doc: string, number: string) =>
        engine.invoice(actor, {
          invoice: { order_id: orderId, items, invoice_number: number, doc_binary: doc },
        });
      const error = await rejection(invoice('A'.repeat(1_048_577), 'INV-X'));
      expect(error.parameters[0]?.fieldName).toBe('invoice.doc_binary');
      await invoice('A'.repeat(1_048_576), 'INV-D');
    });
  });
}
