import { fixtures } from '@fulfil/core/testing';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, startTestServer, type TestServer } from '../http/support.js';

/**
 * Every field of a sales order broken in turn, over HTTP: each is 400 naming its path, and the
 * store holds nothing more than before.
 */

const { channel: CHANNEL } = fixtures.SEED_TOKENS;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: fixtures.seed() });
});
afterAll(() => server.close());

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every leaf and object of a value, by path (`items[0].qty`), with the value there. */
function fieldsOf(value: Json, path = ''): [string, Json][] {
  const here: [string, Json][] = path ? [[path, value]] : [];
  if (Array.isArray(value)) {
    return [...here, ...value.flatMap((entry, index) => fieldsOf(entry, `${path}[${index}]`))];
  }
  if (value !== null && typeof value === 'object') {
    return [
      ...here,
      ...Object.entries(value).flatMap(([key, entry]) =>
        fieldsOf(entry, path ? `${path}.${key}` : key),
      ),
    ];
  }
  return here;
}

/** A value of another type than `value`'s, that no field of a sales order takes. */
function wrongTypeFor(value: Json): Json {
  if (typeof value === 'string') return 42;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'maybe';
  if (Array.isArray(value)) return 'not a list';
  return 'not an object';
}

/** `order` with the value at `path` replaced (or removed, with `undefined`). */
function withField(order: Json, path: string, value: Json | undefined): Json {
  const copy = structuredClone(order) as Record<string, Json>;
  const keys = path.match(/[^.[\]]+/g) ?? [];
  let node = copy as Record<string, Json> | Json[];
  for (const key of keys.slice(0, -1)) node = (node as Record<string, Json>)[key] as typeof node;
  const last = keys.at(-1) as string;
  if (value === undefined) delete (node as Record<string, Json>)[last];
  else (node as Record<string, Json>)[last] = value;
  return copy;
}

async function stored(): Promise<string> {
  const feed = await call(server, 'GET', '/V1/salesOrders?after=0', { token: CHANNEL });
  return feed.text;
}

test('each field of a sales order broken in turn is 400 naming its path; nothing is stored', async () => {
  // Every optional field given too, so that each is broken in turn as well.
  const order = fixtures.salesOrder(
    '3000',
    [
      { sku: 'SKU-1', qty: 2 },
      { sku: 'SKU-2', qty: 1 },
    ],
    {
      warehouse_code: 'WH-A',
      allow_partial: true,
      shipping: {
        method_code: 'pickup',
        method_name: 'Pickup point',
        internal_method_code: 'pickup',
        customer_note: 'Ring twice',
        pickup_point_delivery: { location_id: 'P-1', location_name: 'Corner shop' },
      },
    },
  ) as unknown as Json;
  const before = await stored();
  const fields = fieldsOf(order);
  expect(fields.length).toBeGreaterThan(60);
  const wrong: string[] = [];
  for (const [path, value] of fields) {
    const broken = withField(order, path, wrongTypeFor(value));
    const reply = await call(server, 'POST', '/V1/salesOrders', {
      token: CHANNEL,
      json: { sales_order: broken },
    });
    const named = (reply.body?.parameters ?? []).map(
      (parameter: { fieldName?: string }) => parameter.fieldName,
    );
    if (reply.status !== 400 || !named.includes(`sales_order.${path}`)) {
      wrong.push(`${path}: ${reply.status} ${named.join(', ')}`);
    }
  }
  // Required fields left out: the same, as missing.
  const required = [
    'sales_order_id',
    'sales_order_number',
    'customer_email',
    'customer_is_guest',
    'payment',
    'shipping.method_name',
    'billing_address.street',
    'shipping_address.country_id',
    'items',
    'items[1].sku',
    'items[0].qty',
  ];
  for (const path of required) {
    const reply = await call(server, 'POST', '/V1/salesOrders', {
      token: CHANNEL,
      json: { sales_order: withField(order, path, undefined) },
    });
    if (reply.status !== 400 || reply.body.parameters[0]?.fieldName !== `sales_order.${path}`) {
      wrong.push(`${path} missing: ${reply.status} ${reply.text.slice(0, 120)}`);
    }
  }
  expect(wrong).toEqual([]);
  expect(await stored()).toEqual(before);

  // And in a batch: the same paths under the entry's place, the good entry taken in.
  const reply = await call(server, 'POST', '/V1/salesOrders/batch', {
    token: CHANNEL,
    json: { sales_orders: [withField(order, 'items[1].qty', 0), order] },
  });
  expect(reply.body.map((entry: { status: number }) => entry.status)).toEqual([400, 201]);
  expect(reply.body[0].error.parameters[0].fieldName).toBe('sales_orders[0].items[1].qty');
});
