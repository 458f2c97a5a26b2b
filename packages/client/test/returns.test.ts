import { type FulfilInstance, fixtures, startFulfil } from '@fulfil/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, FulfilApiError } from '../src/index.js';

/**
 * The client's returns (docs/channel-guide.md, Returns), in JSON and in XML, against the test
 * kit: a channel opens one, the partner receives it, the ERP credits it, with the kit's fixtures.
 */
describe.each(['json', 'xml'] as const)('@fulfil/client and returns (%s)', (format) => {
  let fulfil: FulfilInstance;
  const client = (token: string) =>
    createClient({ baseUrl: fulfil.url, storeCode: fulfil.storeCode, token, format });

  beforeAll(async () => {
    fulfil = await startFulfil();
  });
  afterAll(() => fulfil.close());

  it('createReturn and its repeat, the queues with their cursor, receiveReturn, creditReturn', async () => {
    const { partner, erp, channel } = fixtures.SEED_TOKENS;
    const [taken] = await fulfil.engine.intake('default', fixtures.salesOrder('R-1'));
    const order_id = taken?.fulfillment_order_number as string;
    const items = taken?.items.map((i) => ({ id: i.id, qty: i.qty })) ?? [];
    await client(partner).accept({
      order: { order_id, items: items.map((i) => ({ item_id: i.id, qty: i.qty })) },
    });
    await client(erp).allocate({
      allocation: { order_id, items: items.map((i) => ({ item_id: i.id })) },
    });
    await client(partner).ship({
      shipment: { order_id, items: items.map((i) => ({ item_id: i.id, qty: i.qty })) },
    });

    const shipped = { sales_order_number: 'R-1', fulfillment_order_number: order_id, items };
    const opened = await client(channel).createReturn(fixtures.returnOf('RMA-1', shipped));
    expect(opened).toMatchObject({ rma_number: 'RMA-1', status: 'pending_receipt' });
    expect(await client(channel).createReturn(fixtures.returnOf('RMA-1', shipped))).toEqual(opened);
    const conflict = await client(channel)
      .createReturn(fixtures.returnOf('RMA-1', shipped, { warehouse_code: 'WH-B' }))
      .catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(FulfilApiError);
    expect((conflict as FulfilApiError).status).toBe(409);

    const page = await client(partner).returnsPage('pending_receipt');
    expect(page.returns.map((r) => r.rma_number)).toEqual(['RMA-1']);
    expect(page.cursor).toBeTruthy();

    const received = await client(partner).receiveReturn(fixtures.receiptOf(opened, 'RCV-1'));
    expect(received.status).toBe('pending_credit');
    expect(received.items[0]?.qty_restocked).toBe(2);
    const credited = await client(erp).creditReturn(
      fixtures.creditOf(opened, 'CN-1', { amount_incl_tax: 20 }),
    );
    expect(credited).toMatchObject({ status: 'credited', credits: [{ amount_incl_tax: 20 }] });
    expect((await client(erp).returnsPage('pending_credit')).returns).toEqual([]);
    expect((await client(channel).getSalesOrder('R-1')).returns).toEqual([credited]);
  });
});
