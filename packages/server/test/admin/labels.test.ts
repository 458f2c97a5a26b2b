import { createSimulatedCarrier } from '@fulfil/core';
import { fixtures } from '@fulfil/core/testing';
import { expect, test } from 'vitest';
import { labelFile } from '../../src/http/admin-file.js';
import { adminCall, adminServerPerTest, allocatedCourierOrder, login } from './support.js';

const serve = adminServerPerTest();

test('an operator reads an order’s labels through the admin API, to print again (docs/couriers.md)', async () => {
  const server = await serve();
  const number = await allocatedCourierOrder(server.engine, '555', 'SKU-1');
  expect((await server.engine.dispatchCourier()).shipped).toEqual([number]);
  const { session } = await login(server, 'vera', server.secrets.viewer);
  const read = await adminCall(server, 'GET', `/stores/default/orders/${number}/labels`, {
    session,
  });
  expect(read.status).toBe(200);
  expect(read.body.labels).toEqual(await server.engine.listLabels('default', number));
  expect(read.body.labels.map((l: { status: string }) => l.status)).toEqual(['live']);
  // An operator of another store sees nothing of it.
  const other = await login(server, 'otto', server.secrets.otherOperator);
  const refused = await adminCall(server, 'GET', `/stores/default/orders/${number}/labels`, {
    session: other.session,
  });
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.body.labels).toBeUndefined();
});

test('a shipped order shows its last courier error as history, on the timeline, not as its state', async () => {
  let calls = 0;
  const carrier = createSimulatedCarrier({ faults: () => (calls++ === 0 ? 'refuse' : null) });
  const server = await serve({ engine: { couriers: { simulated: carrier.factory } } });
  const number = await allocatedCourierOrder(server.engine, '556');
  expect((await server.engine.dispatchCourier()).retrying).toEqual([number]);
  const retrying = await adminCall(server, 'GET', `/stores/default/orders/${number}`, {
    secret: server.secrets.viewer,
  });
  // While the courier is still at it, the error is the order's state.
  expect(retrying.body.courier).toMatchObject({
    attempts: 1,
    last_error: expect.stringContaining('permanent'),
    next_attempt_at: expect.any(String),
  });
  server.clock.advance(60_000);
  expect((await server.engine.dispatchCourier()).shipped).toEqual([number]);
  const shipped = await adminCall(server, 'GET', `/stores/default/orders/${number}`, {
    secret: server.secrets.viewer,
  });
  expect(shipped.body.order.status).toBe('pending_invoice');
  expect(shipped.body.courier).toEqual({ attempts: 2, last_error: null, next_attempt_at: null });
  expect((await server.engine.getOrderHistory('default', number)).courier).toEqual(
    shipped.body.courier,
  );
  const retry = shipped.body.timeline.find((e: { action: string }) => e.action === 'courier_retry');
  expect(retry.details.error).toBe(retrying.body.courier.last_error);
});

test("a label's document downloads or shows as a file, in the operator's store only", async () => {
  const server = await serve();
  const [order] = await server.engine.intake(
    'default',
    fixtures.salesOrder('556', [{ sku: 'SKU-1', qty: 1 }], { warehouse_code: 'COURIER' }),
  );
  const number = order?.fulfillment_order_number as string;
  await server.engine.allocate(server.engine.operator('default'), {
    allocation: { order_id: number, items: [{ item_id: order?.items[0]?.id as number }] },
  });
  await server.engine.dispatchCourier();
  const [label] = await server.engine.listLabels('default', number);
  const path = `/stores/default/orders/${number}/labels/${label?.id}/document`;
  // A viewer's session, as the console's link sends it: a browser navigation accepts anything.
  const { session } = await login(server, 'vera', server.secrets.viewer);
  const zpl = await adminCall(server, 'GET', path, {
    session,
    headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
  });
  expect(zpl.status).toBe(200);
  expect(zpl.body).toBe(label?.document);
  expect(zpl.headers.get('content-type')).toBe('application/octet-stream');
  expect(zpl.headers.get('content-disposition')).toBe(
    `attachment; filename="${number}-shipment-1-1.zpl"`,
  );
  expect(zpl.headers.get('x-content-type-options')).toBe('nosniff');
  expect(zpl.headers.get('content-security-policy')).toBe(
    "default-src 'none'; frame-ancestors 'none'",
  );
  expect(zpl.headers.get('cache-control')).toBe('no-store');

  const refused = async (secret: string, at: string) =>
    (await adminCall(server, 'GET', at, { secret })).status;
  // Another store's operator, another order, a label that does not exist, a path that is no id.
  expect(await refused(server.secrets.otherOperator, path)).toBe(404);
  expect(await refused(server.secrets.viewer, path.replace(number, '100001001-1'))).toBe(404);
  expect(await refused(server.secrets.viewer, path.replace(`/${label?.id}/`, '/999/'))).toBe(404);
  expect(await refused(server.secrets.viewer, path.replace(`/${label?.id}/`, '/1e3/'))).toBe(404);
  // Without credentials, nothing.
  expect((await adminCall(server, 'GET', path)).status).toBe(401);
});

test('a PDF or PNG label shows in the browser; any other format downloads as it was issued', () => {
  const reference = '1-1/shipment-1/2';
  const pdf = labelFile({
    reference,
    document_format: 'PDF',
    document: Buffer.from('%PDF-1.4 x').toString('base64'),
  });
  expect([pdf.contentType, pdf.body.toString()]).toEqual(['application/pdf', '%PDF-1.4 x']);
  expect(pdf.headers['content-disposition']).toBe('inline; filename="1-1-shipment-1-2.pdf"');
  // Chrome's viewer needs object-src: the PDF is framed by nobody, and is nothing but a PDF.
  expect(pdf.headers['content-security-policy']).toBe("frame-ancestors 'none'");
  const png = labelFile({ reference, document_format: 'png', document: 'iVBORw0K' });
  expect(png.contentType).toBe('image/png');
  expect(png.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  // A format nobody knows, named as a carrier might: a download, its name made safe.
  const odd = labelFile({ reference: '"../x', document_format: 'x/"html', document: '<b>' });
  expect([odd.contentType, odd.body.toString()]).toEqual(['application/octet-stream', '<b>']);
  expect(odd.headers['content-disposition']).toBe('attachment; filename="x.bin"');
});
