import { createClient, FulfilApiError } from '@fulfil/client';
import { fixtures } from '@fulfil/core/testing';
import { expect, test } from 'vitest';
import { call, serverPerTest } from './support.js';

/**
 * docs/api.md, Error body: `message` keeps its `%name` placeholders and `parameters` their values,
 * as the contract says; `detail` is the same text with the values filled in, for a person, on the
 * body and on each entry of `errors` (batch entries' bodies too, JSON and XML alike). An enum's
 * allowed values are listed whole, never cut.
 */

const { channel: CHANNEL } = fixtures.SEED_TOKENS;
const REASONS =
  'awaiting_payment, high_risk_of_fraud, incorrect_address, inventory_out_of_stock, other';

const start = serverPerTest();

test('an enum refused lists every allowed value, and detail names the field', async () => {
  const server = await start({ seed: fixtures.seed() });
  await call(server, 'POST', '/V1/salesOrders', {
    token: CHANNEL,
    json: { sales_order: fixtures.salesOrder('800100', [{ sku: 'SKU-1', qty: 1 }]) },
  });
  const refused = await call(server, 'POST', '/V1/salesOrder/hold', {
    token: CHANNEL,
    json: { hold: { sales_order_number: '800100', handle: 'h', reason: 'nope' } },
  });
  expect(refused.status, refused.text).toBe(400);
  expect(refused.body).toMatchObject({
    message: `Invalid value of "%fieldName": must be one of ${REASONS}`,
    detail: `Invalid value of "hold.reason": must be one of ${REASONS}`,
    parameters: [{ fieldName: 'hold.reason', fieldValue: 'nope' }],
    errors: [
      {
        message: `Invalid value of "%fieldName": must be one of ${REASONS}`,
        detail: `Invalid value of "hold.reason": must be one of ${REASONS}`,
      },
    ],
  });
  expect(refused.text).not.toContain('...');

  const asXml = await call(server, 'POST', '/V1/salesOrder/hold', {
    token: CHANNEL,
    accept: 'application/xml',
    xml: '<request><hold><sales_order_number>800100</sales_order_number><handle>h</handle><reason>nope</reason></hold></request>',
  });
  expect(asXml.status).toBe(400);
  expect(asXml.text).toContain(
    `<detail>Invalid value of &quot;hold.reason&quot;: must be one of ${REASONS}</detail>`,
  );
});

test('a conflict reads with its values: on the body, each problem, a batch entry and the client', async () => {
  const server = await start({ seed: fixtures.seed() });
  const first = fixtures.salesOrder('800200', [{ sku: 'SKU-1', qty: 1 }]);
  const other = fixtures.salesOrder('800200', [{ sku: 'SKU-1', qty: 2 }]);
  await call(server, 'POST', '/V1/salesOrders', { token: CHANNEL, json: { sales_order: first } });
  const conflict = await call(server, 'POST', '/V1/salesOrders', {
    token: CHANNEL,
    json: { sales_order: other },
  });
  expect(conflict.status, conflict.text).toBe(409);
  expect(conflict.body.message).toContain('%fieldValue');
  expect(conflict.body.detail).toBe(
    'Sales order 800200 was already taken in with other content; see errors.',
  );
  for (const entry of conflict.body.errors) expect(entry.detail).not.toMatch(/%\w/);
  expect(
    conflict.body.errors.map((entry: { detail: string }) => entry.detail).join('\n'),
  ).toContain('"sales_order.items[0].qty"');

  const batch = await call(server, 'POST', '/V1/salesOrders/batch', {
    token: CHANNEL,
    json: { sales_orders: [other] },
  });
  expect(batch.status).toBe(200);
  expect(batch.body[0].error.detail).toBe(conflict.body.detail);

  const client = createClient({ baseUrl: server.url, storeCode: 'default', token: CHANNEL });
  const thrown = await client.createSalesOrder(other).catch((error: unknown) => error);
  expect(thrown).toBeInstanceOf(FulfilApiError);
  expect((thrown as FulfilApiError).message).toBe(`${conflict.body.detail} (HTTP 409)`);
});
