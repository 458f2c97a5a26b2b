import { describe, expect, it } from 'vitest';
import { call, serverPerTest, TOKENS } from './support.js';

const start = serverPerTest();

/** Issue 16, item 2: a repeated ship with other tracks, as a partner sends it over HTTP. */
describe('POST /V1/fulfillmentOrder/ship again with other tracks', () => {
  it('is 400 (code 1008) naming the recorded track, in JSON and XML, and changes nothing', async () => {
    const server = await start();
    const order_id = '100001002-1';
    const [item] = (await server.engine.getOrder('default', order_id)).items;
    const items = [{ item_id: item?.id, qty: 1 }];
    const post = (action: string, token: string, json: unknown) =>
      call(server, 'POST', `/V1/fulfillmentOrder/${action}`, { token, json });
    expect((await post('accept', TOKENS.partnerA, { order: { order_id, items } })).status).toBe(
      200,
    );
    expect((await post('allocate', TOKENS.erp, { allocation: { order_id, items } })).status).toBe(
      200,
    );
    const shipWith = (track: string) =>
      post('ship', TOKENS.partnerA, {
        shipment: { order_id, items, carrier_title: 'BRT', carrier_tracking_number: track },
      });
    expect((await shipWith('WRONG-1')).status).toBe(200);
    const history = await server.engine.getOrderHistory('default', order_id);

    const refused = await shipWith('RIGHT-2');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 1008,
      parameters: [{ fieldName: 'shipment.tracks', fieldValue: 'WRONG-1' }],
    });
    expect(refused.body.message).toContain('%fieldValue');

    const xml = await call(server, 'POST', '/V1/fulfillmentOrder/ship', {
      token: TOKENS.partnerA,
      accept: 'application/xml',
      xml: `<request><shipment><order_id>${order_id}</order_id><items><item><item_id>${item?.id}</item_id><qty>1</qty></item></items><carrier_title>BRT</carrier_title><carrier_tracking_number>RIGHT-2</carrier_tracking_number></shipment></request>`,
    });
    expect(xml.status).toBe(400);
    expect(xml.text).toContain('<fieldValue>WRONG-1</fieldValue>');

    expect(await server.engine.getOrderHistory('default', order_id)).toEqual(history);
    // The identical repeat is still a retry.
    expect((await shipWith('WRONG-1')).status).toBe(200);
  });
});
